#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The CUDA runtime for the GPU tests, from NVIDIA's wheels on PyPI (no GPU
# or driver needed): libcudart.so.12 and cuda_runtime_api.h from
# nvidia-cuda-runtime-cu12, and the crt/ headers that header includes,
# from nvidia-cuda-nvcc-cu12; unpacked into DIR/include and DIR/lib
# (DIR: $CXD_CUDA_DIR, default /opt/cxd-cuda). Called by scripts/deps.sh.
# Idempotent. Without pip or the registry it says so and exits 0: the
# tests that need the runtime are then skipped, saying why.
set -euo pipefail
dir=${CXD_CUDA_DIR:-/opt/cxd-cuda}
RT=nvidia-cuda-runtime-cu12==12.4.127
NVCC=nvidia-cuda-nvcc-cu12==12.4.131

[ -e "$dir/lib/libcudart.so.12" ] && [ -e "$dir/include/crt/host_defines.h" ] &&
	[ -e "$dir/include/cuda_runtime_api.h" ] && exit 0
say() { echo "cuda-wheel.sh: $*; the CUDA runtime tests will be skipped" >&2; exit 0; }
command -v python3 >/dev/null 2>&1 || say "no python3"
python3 -m pip --version >/dev/null 2>&1 || say "no pip (Debian: python3-pip)"
mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || say "cannot write $dir (set CXD_CUDA_DIR)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "cuda-wheel.sh: fetching $RT and $NVCC into $dir"
python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "$RT" "$NVCC" ||
	say "pip could not fetch the wheels"
python3 - "$tmp" "$dir" <<'PY'
import glob, os, shutil, sys, zipfile

tmp, dest = sys.argv[1], sys.argv[2]
# (prefix in the wheel, where it goes under dest)
parts = [("nvidia/cuda_runtime/include/", "include/"),
         ("nvidia/cuda_runtime/lib/libcudart.so", "lib/libcudart.so"),
         ("nvidia/cuda_nvcc/include/crt/", "include/crt/")]
for whl in glob.glob(os.path.join(tmp, "*.whl")):
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            for src, dst in parts:
                if name.startswith(src) and not name.endswith("/") and \
                        not name.endswith(".py"):
                    out = os.path.join(dest, dst + name[len(src):])
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    with z.open(name) as f, open(out, "wb") as g:
                        shutil.copyfileobj(f, g)
PY
ls "$dir/lib/libcudart.so.12" "$dir/include/crt/host_defines.h" >/dev/null

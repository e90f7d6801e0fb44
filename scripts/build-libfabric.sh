#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build a libfabric release into a prefix, with the GPU memory support this
# machine has, for tools that put buffers in GPU memory (-t/-r). Debian's
# libfabric has no CUDA, ROCm or Level Zero support: its providers cannot
# register device memory, and the tools refuse GPU runs on it.
#
#   scripts/build-libfabric.sh --tarball libfabric-X.Y.Z.tar.gz [--prefix DIR]
#                              [--jobs N] [-- EXTRA_CONFIGURE_ARGS...]
#
# GPU support is switched on for what is found (override with the variables):
#   CUDA        --with-cuda=$CUDA_HOME  (default /usr/local/cuda, if include/cuda.h)
#   ROCm        --with-rocr=$ROCM_PATH  (default /opt/rocm, if include/hsa/hsa.h)
#   Level Zero  --with-ze=$ZE_PATH      (default /usr, if include/level_zero/ze_api.h)
# Extra arguments after "--" go to configure as they are, e.g. a quick build
# with three providers: -- --enable-only --enable-tcp --enable-shm --enable-rxm
# (what `make lf2`, the libfabric 2.x stage of `make test`, builds).
#
# The prefix defaults to build-libfabric/prefix in the checkout (git-ignored).
# Then build the tools against it:
#   cmake -S . -B build -DCXD_LIBFABRIC_PREFIX=<prefix> && cmake --build build
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tarball= prefix=$here/build-libfabric/prefix jobs=$(nproc) extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--tarball) tarball=$2; shift 2 ;;
	--prefix) prefix=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	-h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "build-libfabric.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ -n "$tarball" ] || { echo "build-libfabric.sh: --tarball FILE is required (a libfabric release tarball)" >&2; exit 2; }
[ -f "$tarball" ] || { echo "build-libfabric.sh: no such tarball: $tarball" >&2; exit 2; }
case $jobs in '' | *[!0-9]*) echo "build-libfabric.sh: invalid --jobs '$jobs'" >&2; exit 2 ;; esac

gpu=() found=()
cuda=${CUDA_HOME:-/usr/local/cuda}
rocm=${ROCM_PATH:-/opt/rocm}
ze=${ZE_PATH:-/usr}
[ -f "$cuda/include/cuda.h" ] && gpu+=("--with-cuda=$cuda") && found+=(CUDA)
[ -f "$rocm/include/hsa/hsa.h" ] && gpu+=("--with-rocr=$rocm") && found+=(ROCm)
[ -f "$ze/include/level_zero/ze_api.h" ] && gpu+=("--with-ze=$ze") && found+=("Level Zero")

# Nothing to do when the prefix already holds a build of the same tarball
# with the same configure arguments (make test's 2.x stage reruns this).
stamp="$prefix/.cxd-built-from"
want="$(realpath "$tarball") $(stat -c %s "$tarball") ${gpu[*]} ${extra[*]}"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	[ -f "$prefix/lib/pkgconfig/libfabric.pc" ]; then
	echo "build-libfabric.sh: $prefix is up to date"
	exit 0
fi

src=$(dirname "$prefix")/src
rm -rf "$src"
mkdir -p "$src" "$prefix"
tar -xzf "$tarball" -C "$src" --strip-components=1
echo "build-libfabric.sh: GPU support: ${found[*]:-none found (host memory only)}"
cd "$src"
./configure --prefix="$prefix" --disable-static "${gpu[@]}" "${extra[@]}" >configure.log 2>&1 ||
	{ tail -30 configure.log >&2; echo "build-libfabric.sh: configure failed (see $src/configure.log)" >&2; exit 1; }
make -j"$jobs" >make.log 2>&1 || { tail -30 make.log >&2; echo "build-libfabric.sh: make failed (see $src/make.log)" >&2; exit 1; }
make install-strip >>make.log 2>&1
echo "$want" >"$stamp"
echo "build-libfabric.sh: installed $("$prefix/bin/fi_info" --version | head -1) in $prefix"
echo "build-libfabric.sh: now: cmake -S $here -B $here/build -DCXD_LIBFABRIC_PREFIX=$prefix"

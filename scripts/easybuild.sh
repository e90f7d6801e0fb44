#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build cxd with real EasyBuild from `make dist`'s tarball, then load its
# module with Lmod and run a tool (`make easybuild`; a few minutes, so not
# in `make test`). EasyBuild comes from PyPI into a venv in DIR; Lmod is
# Debian's `lmod`; the compiler, CMake, pkgconf, libfabric, json-c and
# Open MPI are Debian's, taken as filtered dependencies (--filter-deps).
#   bash scripts/easybuild.sh [DIR]           (default build-easybuild)
# The easyconfig's checksum is pinned to this tarball in a copy in DIR.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mkdir -p "${1:-build-easybuild}" && cd "${1:-build-easybuild}" && pwd)
LMOD_INIT=$(ls /usr/share/lmod/*/init/bash 2>/dev/null | head -1)
[ -n "$LMOD_INIT" ] || { echo "easybuild: Lmod is not installed (apt-get install lmod)" >&2; exit 1; }

if [ ! -x "$DIR/venv/bin/eb" ]; then
	python3 -m venv "$DIR/venv"
	"$DIR/venv/bin/pip" install -q easybuild
fi
export PATH=$DIR/venv/bin:$PATH

# the tarball and an easyconfig pinned to it
tarball=$(bash "$SRC/scripts/dist.sh" "$DIR/sources/c/cxd" | sed -n 1p)
ver=$(basename "$tarball" .tar.gz)
ver=${ver#cxd-}
ec=$DIR/cxd-$ver.eb
cp "$SRC/packaging/easybuild/cxd-$ver.eb" "$ec"
bash "$SRC/scripts/dist.sh" --pin "$tarball" "$ec"

# shellcheck disable=SC1090
. "$LMOD_INIT"
rm -rf "$DIR/prefix"
eb "$ec" --prefix="$DIR/prefix" --sourcepath="$DIR/sources" \
	--buildpath="$DIR/tmp" --tmpdir="$DIR/tmp" \
	--modules-tool=Lmod --module-naming-scheme=EasyBuildMNS \
	--filter-deps=CMake,pkgconf,libfabric,json-c,OpenMPI \
	--allow-use-as-root-and-accept-consequences \
	--detect-loaded-modules=ignore --trace 2>&1 | tee "$DIR/eb.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "easybuild: eb failed (log: $DIR/eb.log)" >&2; exit 1; }

echo "== module use $DIR/prefix/modules/all; module load cxd/$ver"
module use "$DIR/prefix/modules/all"
module load "cxd/$ver"
module list 2>&1
echo "== $(command -v cxi_write_bw)"
cxi_write_bw --version
cxi_write_bw --local --provider tcp -n 20 -s 65536

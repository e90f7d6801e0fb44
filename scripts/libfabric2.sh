#!/usr/bin/env bash
# Build a libfabric 2.x release tarball into PREFIX with only the providers
# the tests use (tcp, shm, rxm). Idempotent: does nothing when PREFIX already
# holds a libfabric built from the same tarball.
#   scripts/libfabric2.sh TARBALL PREFIX
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 TARBALL PREFIX" >&2
	exit 2
fi
TARBALL=$(realpath "$1")
PREFIX=$(realpath -m "$2")
JOBS=${JOBS:-2}
[ -f "$TARBALL" ] || { echo "$0: no such tarball: '$1'" >&2; exit 2; }

stamp="$PREFIX/.cxd-built-from"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$TARBALL $(stat -c %s "$TARBALL")" ] &&
	[ -f "$PREFIX/lib/pkgconfig/libfabric.pc" ]; then
	exit 0
fi

src=$(mktemp -d "${TMPDIR:-/tmp}/cxd-libfabric2.XXXXXX")
trap 'rm -rf "$src"' EXIT
tar -xzf "$TARBALL" -C "$src" --strip-components=1
cd "$src"
# Only what the tests run on; everything else stays out (and its checks too).
./configure --prefix="$PREFIX" --disable-static --enable-only \
	--enable-tcp=yes --enable-shm=yes --enable-rxm=yes >configure.log 2>&1 ||
	{ tail -30 configure.log >&2; exit 1; }
make -j"$JOBS" >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
make install-strip >install.log 2>&1 || { tail -30 install.log >&2; exit 1; }
echo "$TARBALL $(stat -c %s "$TARBALL")" >"$stamp"
echo "libfabric2.sh: $("$PREFIX/bin/fi_info" --version | head -1) in $PREFIX"

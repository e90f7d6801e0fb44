#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The release tarball: cxd-VERSION.tar.gz, VERSION from include/cxd/config.h,
# made by git archive from a commit (HEAD, or DIST_REV): the tracked files,
# less those .gitattributes marks export-ignore. Reproducible: the files'
# times are the commit's, gzip stores no name or time, so one commit gives
# one checksum (the Spack recipe's and the easyconfig's).
#   bash scripts/dist.sh [OUTDIR]              (`make dist`; prints the path
#                                               and the sha256)
#   bash scripts/dist.sh --pin TARBALL FILE... write TARBALL's sha256 for its
#       version into the recipes: packaging/spack/package.py's version(...)
#       line and an easyconfig's checksums (at a release: see
#       packaging/README.md)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "dist: $*" >&2; exit 2; }

pin() {
	local tarball=$1 f v sum
	shift
	[ -f "$tarball" ] || die "no tarball '$tarball'"
	v=$(basename "$tarball" .tar.gz)
	v=${v#cxd-}
	[[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "'$tarball' is not named cxd-X.Y.Z.tar.gz"
	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	for f in "$@"; do
		case $f in
		*.py)
			grep -q "version(\"$v\"" "$f" || die "$f has no version(\"$v\", ...) line"
			sed -i -E "s/(version\(\"$v\", sha256=\")[0-9a-f]*(\")/\1$sum\2/" "$f" ;;
		*.eb)
			grep -q "^version = '$v'" "$f" || die "$f is not version $v"
			sed -i -E "s/^(checksums = \[')[0-9a-f]*('\])/\1$sum\2/" "$f" ;;
		*) die "'$f': neither a Spack recipe (.py) nor an easyconfig (.eb)" ;;
		esac
		echo "dist: $f: $v sha256 $sum"
	done
}

if [ "${1:-}" = --pin ]; then
	shift
	[ $# -ge 2 ] || die "usage: dist.sh --pin TARBALL FILE..."
	pin "$@"
	exit 0
fi

OUT=${1:-.}
REV=${DIST_REV:-HEAD}
[ "$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)" = "$SRC" ] ||
	die "$SRC is not a git checkout: a tarball is made from one"
commit=$(git -C "$SRC" rev-parse --verify "$REV^{commit}" 2>/dev/null) ||
	die "no commit '$REV'"
ver=$(git -C "$SRC" show "$commit:include/cxd/config.h" |
	sed -n 's/^#define CXD_SUITE_VERSION "\([0-9.]*\)"$/\1/p')
[ -n "$ver" ] || die "no CXD_SUITE_VERSION in $REV:include/cxd/config.h"
if [ "$REV" = HEAD ] && [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
	echo "dist: note: uncommitted changes are not in the tarball (it is HEAD's)" >&2
fi
mkdir -p "$OUT"
tarball=$(cd "$OUT" && pwd)/cxd-$ver.tar.gz
git -C "$SRC" archive --format=tar --prefix="cxd-$ver/" "$commit" |
	gzip -9n >"$tarball.tmp"
mv "$tarball.tmp" "$tarball"
echo "$tarball"
echo "sha256 $(sha256sum "$tarball" | cut -d' ' -f1)  $(git -C "$SRC" rev-parse --short "$commit")"

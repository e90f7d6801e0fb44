#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# The release tarball and the recipes made from it (no build here: the
# tarball's build and unit tests run in `make builds`, EasyBuild's in
# `make easybuild`). About 2 s.
#  - make dist: cxd-VERSION.tar.gz, VERSION from include/cxd/config.h; the
#    same commit gives the same bytes; it holds the tracked files less the
#    export-ignore ones, and what a build and the tests need;
#  - the Spack recipe imports against the stand-in of spack.package
#    (tests/support/spack_stub/: Spack is not installed here) with its
#    metadata, variants, arguments and stand-alone tests; pinned to the
#    tarball (scripts/dist.sh --pin, on a copy), its sha256 is the tarball's;
#  - the easyconfig: CMakeMake, this version, make dist's file name; pinned
#    likewise;
#  - the committed checksums: those of the tag vVERSION's tarball, once it
#    is tagged (a release).
#   bash tests/e2e/test_dist.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)" = "$SRC" ] || skip "$SRC is not a git checkout (a tarball makes no tarball)"
VERSION=$(sed -n 's/^#define CXD_SUITE_VERSION "\(.*\)"$/\1/p' "$SRC/include/cxd/config.h")
RECIPE=$SRC/packaging/spack/package.py
EC=$SRC/packaging/easybuild/cxd-$VERSION.eb

section "make dist"
run_capture dist 60 make -s -C "$SRC" dist DIST_DIR="$TMPD/a"
expect_rc 0 "$RC" "make dist" || { show "$OUT" "$ERR"; finish; }
T=$TMPD/a/cxd-$VERSION.tar.gz
[ -s "$T" ] && pass "wrote cxd-$VERSION.tar.gz ($(du -k "$T" | cut -f1) KiB)" || die "no $T: $(cat "$OUT")"
run_capture dist2 60 bash "$SRC/scripts/dist.sh" "$TMPD/b"
cmp -s "$T" "$TMPD/b/cxd-$VERSION.tar.gz" && pass "the same bytes twice (one commit, one checksum)" ||
	fail "two make dist of one commit differ"
tar -tzf "$T" | sed "s|^cxd-$VERSION/||" | grep -v '/$' | grep . | sort >"$TMPD/tar.list"
bad=$(sed -n '/^cxd-/!p' <(tar -tzf "$T") | head -3)
[ -z "$bad" ] && pass "every entry under cxd-$VERSION/" || fail "entries outside cxd-$VERSION/: $bad"
git -C "$SRC" ls-tree -r --name-only HEAD | sort >"$TMPD/git.list"
extra=$(comm -13 "$TMPD/git.list" "$TMPD/tar.list" | head -5)
[ -z "$extra" ] && pass "nothing but HEAD's files" || fail "not in HEAD, yet in the tarball: $extra"
left=$(comm -23 "$TMPD/git.list" "$TMPD/tar.list" | xargs)
want=".ci/run .clang-format .gitattributes .gitignore packaging/easybuild/cxd-$VERSION.eb packaging/spack/package.py"
[ "$left" = "$want" ] && pass "left out: $left" || fail "left out: '$left', want '$want'"
missing=""
for f in CMakeLists.txt LICENSE Makefile include/cxd/config.h lib/tools.c tools/main.c \
	man/man.cmake tests/tests.cmake tests/e2e/lib.sh scripts/deps.sh docs/schema/pair.schema.json \
	fuzz/fuzz.cmake; do
	grep -qxF "$f" "$TMPD/tar.list" || missing+=" $f"
done
[ -z "$missing" ] && pass "holds the build's and the tests' files" || fail "missing:$missing"

section "the Spack recipe (Spack is not installed here: the stand-in of spack.package)"
py_check "committed recipe" "" spack_recipe.py "$RECIPE" "$VERSION"
cp "$RECIPE" "$TMPD/package.py"
run_capture pin 10 bash "$SRC/scripts/dist.sh" --pin "$T" "$TMPD/package.py"
expect_rc 0 "$RC" "dist.sh --pin the recipe" || show "$ERR"
py_check "pinned to the tarball" "" spack_recipe.py "$TMPD/package.py" "$VERSION" "$T"

section "the EasyBuild easyconfig"
[ -f "$EC" ] || die "no $EC for version $VERSION"
cp "$EC" "$TMPD/cxd-$VERSION.eb"
run_capture pin-eb 10 bash "$SRC/scripts/dist.sh" --pin "$T" "$TMPD/cxd-$VERSION.eb"
expect_rc 0 "$RC" "dist.sh --pin the easyconfig" || show "$ERR"
py_check "easyconfig" "$EC" easyconfig.py "$TMPD/cxd-$VERSION.eb" "$VERSION" "$T"

section "the committed checksums"
if git -C "$SRC" rev-parse -q --verify "refs/tags/v$VERSION" >/dev/null; then
	run_capture dist-tag 60 env DIST_REV="v$VERSION" bash "$SRC/scripts/dist.sh" "$TMPD/tag"
	expect_rc 0 "$RC" "make dist DIST_REV=v$VERSION" || show "$ERR"
	py_check "recipe pinned to v$VERSION" "" spack_recipe.py "$RECIPE" "$VERSION" "$TMPD/tag/cxd-$VERSION.tar.gz"
	py_check "easyconfig pinned to v$VERSION" "" easyconfig.py "$EC" "$VERSION" "$TMPD/tag/cxd-$VERSION.tar.gz"
else
	note "v$VERSION is not tagged (not released): its checksums are pinned at the release (packaging/README.md)"
fi
finish

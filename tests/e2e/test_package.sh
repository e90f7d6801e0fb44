#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# Packages: CPack makes `cxd` (the pair tools, cxi_plot, pages, docs; no MPI
# in its dependencies) and, when cxi_sweep was built, `cxd-sweep` (cxi_sweep
# and its page; needs cxd of the same version and the MPI library), as .deb
# and .rpm. Between them the packages hold exactly the install tree, plus
# what packaging/cpack_stage.cmake adds (man pages gzip'd, each .deb's
# copyright and changelog.gz, the .rpm's licence). The unpacked cxd runs -V
# and a --local test. lintian and rpmlint (when installed) find no error, and
# each warning they give is explained in packaging/README.md. About 25 s.
#   bash tests/e2e/test_package.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
need_tool_list
TOOLS=("${TOOLS_ALL[@]}")
VERSION=$(sed -n 's/^#define CXD_SUITE_VERSION "\(.*\)"$/\1/p' "$SRC/include/cxd/config.h")
# Sonames / Debian names of MPI libraries (Open MPI, MPICH, Intel MPI).
MPI_RE='(libopen-?mpi|libmpich|libmpi)'
SWEEP=0
[ -e "$BUILD/cxi_sweep" ] && SWEEP=1

command -v dpkg-deb >/dev/null 2>&1 || skip "dpkg-deb is not installed (not a Debian system)"
command -v cpack >/dev/null 2>&1 || skip "cpack is not installed"
[ -f "$BUILD/CPackConfig.cmake" ] || die "$BUILD/CPackConfig.cmake missing"
if grep -q '^CXD_LIBFABRIC_PREFIX:PATH=.' "$BUILD/CMakeCache.txt"; then
	skip "$BUILD uses a private libfabric (CXD_LIBFABRIC_PREFIX): the packages declare the distribution's"
fi
if grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt"; then
	skip "$BUILD is a sanitizer build: packages are made from the normal one"
fi

section "cpack -G DEB"
run_capture cpack-deb 180 bash -c "cd '$BUILD' && cpack -G DEB -B '$TMPD/pkg'"
expect_rc 0 "$RC" "cpack -G DEB" || { show "$OUT" "$ERR"; finish; }
[ -n "$VERSION" ] || die "no CXD_SUITE_VERSION in include/cxd/config.h"
deb=$(ls "$TMPD"/pkg/cxd_*.deb 2>/dev/null | head -1)
sdeb=$(ls "$TMPD"/pkg/cxd-sweep_*.deb 2>/dev/null | head -1)
[ -s "$deb" ] && pass "built $(basename "$deb")" || die "no cxd_*.deb in $TMPD/pkg: $(ls "$TMPD/pkg")"
if [ "$SWEEP" = 1 ]; then
	[ -s "$sdeb" ] && pass "built $(basename "$sdeb") (cxi_sweep was built)" ||
		fail "cxi_sweep was built but there is no cxd-sweep_*.deb"
else
	[ -z "$sdeb" ] && pass "no cxd-sweep .deb (cxi_sweep not built: no MPI)" ||
		fail "cxi_sweep was not built, yet $(basename "$sdeb") was made"
fi
n=$(ls "$TMPD"/pkg/*.deb | wc -l)
[ "$n" -eq $((1 + SWEEP)) ] && pass "$n .deb made" || fail "$n .deb made: $(ls "$TMPD/pkg")"

section "cxd: the pair tools, without MPI"
[ "$(dpkg-deb -f "$deb" Package)" = cxd ] && [ "$(dpkg-deb -f "$deb" Version)" = "$VERSION" ] &&
	pass "Package cxd, Version $VERSION" || fail "control: $(dpkg-deb -f "$deb" Package Version)"
dpkg-deb -f "$deb" Depends >"$TMPD/depends"
for d in libfabric1 libjson-c5 libc6; do
	grep -qw "$d" "$TMPD/depends" && pass "Depends names $d" || fail "Depends lacks $d: $(cat "$TMPD/depends")"
done
grep -qEi "$MPI_RE" "$TMPD/depends" && fail "cxd depends on MPI: $(cat "$TMPD/depends")" ||
	pass "no MPI library in cxd's Depends"
dpkg-deb -f "$deb" Recommends | grep -qw python3-matplotlib &&
	pass "Recommends python3-matplotlib (cxi_plot)" || fail "no python3-matplotlib in Recommends"
dpkg-deb -c "$deb" | awk '$6 !~ /\/$/ { print $6 }' >"$TMPD/deb.list"
missing=""
for T in "${TOOLS[@]}"; do
	grep -qx "./usr/bin/$T" "$TMPD/deb.list" || missing+=" $T"
	grep -qx "./usr/share/man/man1/$T.1.gz" "$TMPD/deb.list" || missing+=" $T.1.gz"
done
grep -qx ./usr/share/man/man7/cxd.7.gz "$TMPD/deb.list" || missing+=" cxd.7.gz"
for f in copyright changelog.gz; do
	grep -qx "./usr/share/doc/cxd/$f" "$TMPD/deb.list" || missing+=" doc/cxd/$f"
done
grep -qx ./usr/share/doc/cxd/README.md "$TMPD/deb.list" || missing+=" README.md"
for f in "$SRC"/docs/*.md; do
	grep -qx "./usr/share/doc/cxd/docs/$(basename "$f")" "$TMPD/deb.list" || missing+=" docs/$(basename "$f")"
done
if [ -f "$SRC/tools/cxi_plot.py" ]; then
	grep -qx ./usr/bin/cxi_plot "$TMPD/deb.list" || missing+=" cxi_plot"
fi
[ -z "$missing" ] && pass "cxd holds the tools, cxi_plot, man pages, docs" || fail "cxd lacks:$missing"
grep -q cxi_sweep "$TMPD/deb.list" && fail "cxd holds $(grep cxi_sweep "$TMPD/deb.list" | xargs)" ||
	pass "nothing of cxi_sweep in cxd"

if [ "$SWEEP" = 1 ] && [ -s "$sdeb" ]; then
	section "cxd-sweep: cxi_sweep, with MPI"
	[ "$(dpkg-deb -f "$sdeb" Version)" = "$VERSION" ] && pass "Version $VERSION" ||
		fail "cxd-sweep Version $(dpkg-deb -f "$sdeb" Version), want $VERSION"
	dpkg-deb -f "$sdeb" Depends | tr ',' '\n' | sed 's/^ *//' >"$TMPD/sdepends"
	grep -qxF "cxd (= $VERSION)" "$TMPD/sdepends" && pass "Depends cxd (= $VERSION)" ||
		fail "cxd-sweep Depends lacks 'cxd (= $VERSION)': $(xargs <"$TMPD/sdepends")"
	mpi=$(grep -Ei "^$MPI_RE" "$TMPD/sdepends" | head -1)
	[ -n "$mpi" ] && pass "Depends on the MPI library: $mpi" ||
		fail "no MPI library in cxd-sweep's Depends: $(xargs <"$TMPD/sdepends")"
	dpkg-deb -c "$sdeb" | awk '$6 !~ /\/$/ { print $6 }' | sort >"$TMPD/sdeb.list"
	printf './usr/bin/cxi_sweep\n./usr/share/doc/cxd-sweep/changelog.gz\n./usr/share/doc/cxd-sweep/copyright\n./usr/share/man/man1/cxi_sweep.1.gz\n' >"$TMPD/sdeb.want"
	cmp -s "$TMPD/sdeb.list" "$TMPD/sdeb.want" && pass "cxd-sweep holds cxi_sweep, its page, copyright and changelog, nothing else" ||
		fail "cxd-sweep holds: $(xargs <"$TMPD/sdeb.list")"
fi

section "the packages hold exactly the install tree"
run_capture inst 120 env DESTDIR="$TMPD/inst" cmake --install "$BUILD" --prefix /usr
expect_rc 0 "$RC" "cmake --install (all components)" || show "$ERR"
(cd "$TMPD/inst" && find . -type f | sort) >"$TMPD/inst.list"
# less what cpack_stage.cmake adds, the man pages as installed
cat "$TMPD/deb.list" "$TMPD/sdeb.list" 2>/dev/null |
	grep -vE '^\./usr/share/doc/cxd(-sweep)?/(copyright|changelog\.gz)$' |
	sed -E 's|^(\./usr/share/man/man[1-8]/.*)\.gz$|\1|' | sort >"$TMPD/pkgs.list"
d=$(diff "$TMPD/inst.list" "$TMPD/pkgs.list")
[ -z "$d" ] && pass "$(wc -l <"$TMPD/inst.list") files, each in one package" ||
	fail "install tree (<) and packages (>) differ: $d"

section "dpkg-deb -x cxd into a scratch root, run from there"
R=$TMPD/root
dpkg-deb -x "$deb" "$R" && pass "unpacked" || die "dpkg-deb -x failed"
run_capture deb-version 10 "$R/usr/bin/cxi_send_bw" -V
expect_rc 0 "$RC" "packaged cxi_send_bw -V"
grep -q "cxi_send_bw version" "$OUT" && pass "-V: $(head -1 "$OUT")" || fail "-V printed: $(cat "$OUT")"
run_capture deb-local 60 "$R/usr/bin/cxi_write_bw" --local --provider tcp -n 5 -s 4096 -l 4
expect_rc 0 "$RC" "packaged cxi_write_bw --local" || show "$ERR"
[ "$(table_rows "$OUT" | wc -l)" -eq 1 ] && pass "one result row" || { fail "no result row"; show "$OUT"; }
out=$(mandoc -T lint -W warning "$R/usr/share/man/man1/cxi_write_bw.1.gz" 2>&1)
[ -z "$out" ] && pass "packaged man page lint clean" || fail "packaged page: $out"

section "cpack -G RPM"
if ! command -v rpmbuild >/dev/null 2>&1; then
	skip_part "cpack -G RPM: rpmbuild is not installed (apt-get install rpm)"
	finish
fi
run_capture cpack-rpm 180 bash -c "cd '$BUILD' && cpack -G RPM -B '$TMPD/rpm'"
expect_rc 0 "$RC" "cpack -G RPM" || { show "$OUT" "$ERR"; finish; }
rpm=$(ls "$TMPD"/rpm/cxd-[0-9]*.rpm 2>/dev/null | head -1)
srpm=$(ls "$TMPD"/rpm/cxd-sweep-[0-9]*.rpm 2>/dev/null | head -1)
[ -s "$rpm" ] && pass "built $(basename "$rpm")" || die "no cxd-VERSION .rpm in $TMPD/rpm: $(ls "$TMPD/rpm")"
rpm -qlp "$rpm" >"$TMPD/rpm.list" 2>/dev/null
missing=""
for T in "${TOOLS[@]}"; do
	grep -qx "/usr/bin/$T" "$TMPD/rpm.list" || missing+=" $T"
	grep -qx "/usr/share/man/man1/$T.1.gz" "$TMPD/rpm.list" || missing+=" $T.1.gz"
done
[ -z "$missing" ] && pass "rpm -qlp cxd lists the tools and man pages" || fail "cxd.rpm lacks:$missing"
grep -q cxi_sweep "$TMPD/rpm.list" && fail "cxd.rpm holds cxi_sweep" || pass "no cxi_sweep in cxd.rpm"
rpm -qRp "$rpm" >"$TMPD/rpm.req" 2>/dev/null
for d in 'libfabric >= 1.17' json-c 'libfabric.so.1()(64bit)'; do
	grep -qxF "$d" "$TMPD/rpm.req" && pass "Requires $d" || fail "Requires lacks '$d'"
done
grep -qEi "$MPI_RE" "$TMPD/rpm.req" && fail "cxd.rpm requires MPI: $(grep -Ei "$MPI_RE" "$TMPD/rpm.req" | xargs)" ||
	pass "no MPI library in cxd.rpm's Requires"
if [ "$SWEEP" = 1 ]; then
	[ -s "$srpm" ] && pass "built $(basename "$srpm")" || die "cxi_sweep was built but there is no cxd-sweep .rpm"
	rpm -qlp "$srpm" 2>/dev/null | sort >"$TMPD/srpm.list"
	printf '/usr/bin/cxi_sweep\n/usr/share/man/man1/cxi_sweep.1.gz\n' | cmp -s - "$TMPD/srpm.list" &&
		pass "cxd-sweep.rpm holds cxi_sweep and its page, nothing else" ||
		fail "cxd-sweep.rpm holds: $(xargs <"$TMPD/srpm.list")"
	rpm -qRp "$srpm" >"$TMPD/srpm.req" 2>/dev/null
	grep -qxF "cxd = $VERSION" "$TMPD/srpm.req" && pass "cxd-sweep requires cxd = $VERSION" ||
		fail "cxd-sweep.rpm lacks 'cxd = $VERSION'"
	mpi=$(grep -Ei "^$MPI_RE" "$TMPD/srpm.req" | head -1)
	[ -n "$mpi" ] && pass "cxd-sweep requires the MPI library: $mpi" ||
		fail "no MPI library in cxd-sweep.rpm's Requires"
else
	[ -z "$srpm" ] && pass "no cxd-sweep .rpm (cxi_sweep not built)" || fail "$(basename "$srpm") made without cxi_sweep"
fi
rpm -qp --qf '%{LICENSE}\n' "$rpm" 2>/dev/null | grep -qx BSD-3-Clause && pass "License: BSD-3-Clause" ||
	fail "cxd.rpm License: $(rpm -qp --qf '%{LICENSE}' "$rpm" 2>/dev/null)"
grep -qx /usr/share/licenses/cxd/LICENSE "$TMPD/rpm.list" && pass "the licence in /usr/share/licenses/cxd" ||
	fail "no /usr/share/licenses/cxd/LICENSE in cxd.rpm"

# explained TAG: is TAG named in packaging/README.md's list of warnings?
explained() { grep -qE "^\| \`$1\` " "$SRC/packaging/README.md"; }
# lint NAME OUTFILE: no error line, every warning's tag explained.
lint() {
	local tags t unexplained=""
	# lintian: "W: PKG: TAG ...", rpmlint: "PKG.ARCH: W: TAG ..."
	tags=$(sed -nE 's/^([^ ]+: )?W: ([^ ]+: )?([a-z0-9-]+).*/\3/p' "$2" | sort -u)
	for t in $tags; do explained "$t" || unexplained+=" $t"; done
	if grep -qE '^([^ ]+: )?E: ' "$2"; then
		fail "$1 errors: $(grep -E '^([^ ]+: )?E: ' "$2" | head -3 | xargs)"
	else
		pass "$1: no error; warnings: $(echo $tags)"
	fi
	[ -z "$unexplained" ] && pass "$1: each warning explained in packaging/README.md" ||
		fail "$1 warnings not explained in packaging/README.md:$unexplained"
}

section "lintian and rpmlint"
if command -v lintian >/dev/null 2>&1; then
	run_capture lintian 120 lintian --fail-on error "$TMPD"/pkg/*.deb
	expect_rc 0 "$RC" "lintian" || show "$OUT" "$ERR"
	lint lintian "$OUT"
else
	skip_part "lintian: not installed (scripts/deps.sh installs it)"
fi
if command -v rpmlint >/dev/null 2>&1; then
	run_capture rpmlint 120 rpmlint -c "$SRC/packaging/rpmlint.toml" "$TMPD"/rpm/*.rpm
	expect_rc 0 "$RC" "rpmlint" || show "$OUT" "$ERR"
	lint rpmlint "$OUT"
else
	skip_part "rpmlint: not installed (scripts/deps.sh installs it)"
fi
finish

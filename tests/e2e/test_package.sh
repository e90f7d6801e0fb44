#!/usr/bin/env bash
# Packages: CPack builds the .deb (dependencies declared, tools, man pages,
# docs), which unpacked into a scratch root runs -V and a --local test; and
# the .rpm, whose file list has the tools. About 15 s.
#   bash tests/e2e/test_package.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS=(cxi_write_bw cxi_read_bw cxi_send_bw cxi_atomic_bw cxi_gpu_loopback_bw
	cxi_write_lat cxi_read_lat cxi_send_lat cxi_atomic_lat)

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
deb=$(ls "$TMPD"/pkg/*.deb 2>/dev/null | head -1)
[ -s "$deb" ] && pass "built $(basename "$deb")" || die "no .deb in $TMPD/pkg"

dpkg-deb -f "$deb" Depends >"$TMPD/depends"
for d in libfabric1 libjson-c5 libc6; do
	grep -qw "$d" "$TMPD/depends" && pass "Depends names $d" || fail "Depends lacks $d: $(cat "$TMPD/depends")"
done
dpkg-deb -f "$deb" Recommends | grep -qw python3-matplotlib &&
	pass "Recommends python3-matplotlib (cxi_plot)" || fail "no python3-matplotlib in Recommends"
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$TMPD/deb.list"
missing=""
for T in "${TOOLS[@]}"; do
	grep -qx "./usr/bin/$T" "$TMPD/deb.list" || missing+=" $T"
	grep -qx "./usr/share/man/man1/$T.1" "$TMPD/deb.list" || missing+=" $T.1"
done
grep -qx ./usr/share/man/man7/cxd.7 "$TMPD/deb.list" || missing+=" cxd.7"
grep -qx ./usr/share/doc/cxd/README.md "$TMPD/deb.list" || missing+=" README.md"
if [ -f "$SRC/tools/cxi_plot.py" ]; then
	grep -qx ./usr/bin/cxi_plot "$TMPD/deb.list" || missing+=" cxi_plot"
fi
[ -z "$missing" ] && pass "the .deb holds tools, man pages, docs" || fail "the .deb lacks:$missing"
if [ -e "$BUILD/cxi_sweep" ]; then
	grep -qx ./usr/bin/cxi_sweep "$TMPD/deb.list" &&
		grep -qx ./usr/share/man/man1/cxi_sweep.1 "$TMPD/deb.list" &&
		pass "the .deb holds cxi_sweep and its page (built with MPI)" ||
		fail "cxi_sweep was built but the .deb lacks it or its page"
fi

section "dpkg-deb -x into a scratch root, run from there"
R=$TMPD/root
dpkg-deb -x "$deb" "$R" && pass "unpacked" || die "dpkg-deb -x failed"
run_capture deb-version 10 "$R/usr/bin/cxi_send_bw" -V
expect_rc 0 "$RC" "packaged cxi_send_bw -V"
grep -q "cxi_send_bw version" "$OUT" && pass "-V: $(head -1 "$OUT")" || fail "-V printed: $(cat "$OUT")"
run_capture deb-local 60 "$R/usr/bin/cxi_write_bw" --local --provider tcp -n 5 -s 4096 -l 4
expect_rc 0 "$RC" "packaged cxi_write_bw --local" || show "$ERR"
[ "$(table_rows "$OUT" | wc -l)" -eq 1 ] && pass "one result row" || { fail "no result row"; show "$OUT"; }
out=$(mandoc -T lint -W warning "$R/usr/share/man/man1/cxi_write_bw.1" 2>&1)
[ -z "$out" ] && pass "packaged man page lint clean" || fail "packaged page: $out"

section "cpack -G RPM"
if ! command -v rpmbuild >/dev/null 2>&1; then
	note "skipped: rpmbuild is not installed (apt-get install rpm)"
	finish
fi
run_capture cpack-rpm 180 bash -c "cd '$BUILD' && cpack -G RPM -B '$TMPD/rpm'"
expect_rc 0 "$RC" "cpack -G RPM" || { show "$OUT" "$ERR"; finish; }
rpm=$(ls "$TMPD"/rpm/*.rpm 2>/dev/null | head -1)
[ -s "$rpm" ] && pass "built $(basename "$rpm")" || die "no .rpm in $TMPD/rpm"
rpm -qlp "$rpm" >"$TMPD/rpm.list" 2>/dev/null
missing=""
for T in "${TOOLS[@]}"; do
	grep -qx "/usr/bin/$T" "$TMPD/rpm.list" || missing+=" $T"
	grep -qx "/usr/share/man/man1/$T.1" "$TMPD/rpm.list" || missing+=" $T.1"
done
[ -z "$missing" ] && pass "rpm -qlp lists the tools and man pages" || fail "the .rpm lacks:$missing"
rpm -qRp "$rpm" >"$TMPD/rpm.req" 2>/dev/null
for d in 'libfabric >= 1.17' json-c 'libfabric.so.1()(64bit)'; do
	grep -qxF "$d" "$TMPD/rpm.req" && pass "Requires $d" || fail "Requires lacks '$d'"
done
finish

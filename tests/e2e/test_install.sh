#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# `cmake --install` lays out the standard tree (bin, man1/man7, doc), with
# DESTDIR too, and the installed tools run and load the libfabric the build
# used: the prefix's (RPATH) with CXD_LIBFABRIC_PREFIX, else the system's.
# cxi_sweep and its page are installed exactly when it was built (MPI).
# About 4 s.
#   bash tests/e2e/test_install.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
need_tool_list
TOOLS=("${TOOLS_ALL[@]}")
LF_PREFIX=$(sed -n 's/^CXD_LIBFABRIC_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
P=$TMPD/prefix

section "cmake --install --prefix P"
run_capture install 120 cmake --install "$BUILD" --prefix "$P"
expect_rc 0 "$RC" "cmake --install" || show "$ERR"
missing=""
for T in "${TOOLS[@]}"; do
	[ -x "$P/bin/$T" ] || missing+=" bin/$T"
	[ -s "$P/share/man/man1/$T.1" ] || missing+=" share/man/man1/$T.1"
done
for f in share/man/man7/cxd.7 share/doc/cxd/README.md; do
	[ -s "$P/$f" ] || missing+=" $f"
done
# the reference pages the README links to, beside it
for f in "$SRC"/docs/*.md; do
	[ -s "$P/share/doc/cxd/docs/$(basename "$f")" ] || missing+=" share/doc/cxd/docs/$(basename "$f")"
done
if [ -f "$SRC/tools/cxi_plot.py" ]; then
	[ -x "$P/bin/cxi_plot" ] || missing+=" bin/cxi_plot"
	[ -s "$P/share/cxd/cxi_plot_sweep.py" ] || missing+=" share/cxd/cxi_plot_sweep.py"
	[ -s "$P/share/cxd/version" ] || missing+=" share/cxd/version"
fi
for k in pair sweep congestion; do
	[ -s "$P/share/cxd/schema/$k.schema.json" ] || missing+=" share/cxd/schema/$k.schema.json"
done
[ -z "$missing" ] && pass "tools, man pages and docs in place" || fail "missing:$missing"
if [ -x "$P/bin/cxi_plot" ]; then
	check "the installed cxi_plot finds its sweep module" \
		sh -c '"$1" --help >/dev/null' sh "$P/bin/cxi_plot"
fi
if [ -x "$P/bin/cxi_archive" ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	check "the installed cxi_archive finds its modules" \
		sh -c '"$1" --help >/dev/null' sh "$P/bin/cxi_archive"
fi
if [ -e "$BUILD/cxi_sweep" ]; then
	[ -x "$P/bin/cxi_sweep" ] && [ -s "$P/share/man/man1/cxi_sweep.1" ] &&
		pass "cxi_sweep and its page installed (built with MPI)" ||
		fail "cxi_sweep was built but bin/cxi_sweep or man1/cxi_sweep.1 is missing"
else
	[ ! -e "$P/bin/cxi_sweep" ] && [ ! -e "$P/share/man/man1/cxi_sweep.1" ] &&
		pass "no cxi_sweep installed (not built: no MPI)" ||
		fail "cxi_sweep or its page installed, but it was not built"
fi
extra=$(cd "$P" && find . -type f | grep -vE '^\./(bin/cxi_|share/man/man[17]/|share/doc/cxd/|share/cxd/(cxi_plot_sweep\.py|cxi_archive_[a-z]+\.py|version|schema/[a-z]+\.schema\.json)$)')
[ -z "$extra" ] && pass "nothing else installed" || fail "unexpected files: $extra"

section "every installed program's --version: the version of include/cxd/config.h"
VERSION=$(sed -n 's/^#define CXD_SUITE_VERSION "\(.*\)"$/\1/p' "$SRC/include/cxd/config.h")
wrong=""
n=0
for f in "$P"/bin/cxi_*; do
	n=$((n + 1))
	v=$("$f" --version 2>&1 | head -1)
	[[ "$v" == "$(basename "$f") version $VERSION"* ]] || wrong+=" $(basename "$f"):'$v'"
done
[ -n "$VERSION" ] && [ "$n" -gt 0 ] && [ -z "$wrong" ] &&
	pass "$n programs print 'version $VERSION'" || fail "version '$VERSION', wrong:$wrong"

section "no test aids in the installed tools"
# The fault and namespace hooks live in the test copies only (build/standin/).
aids=""
for f in "$P"/bin/cxi_*; do
	[ "$(head -c 4 "$f" | tail -c 3)" = ELF ] || continue # not cxi_plot
	for s in CXD_TEST_STOP_AT CXD_TEST_NETNS CXD_TEST_SYSROOT CXD_TEST_JITTER \
		CXD_TEST_HOST_NAMES CXD_GPU_STANDIN; do
		grep -qa "$s" "$f" && aids+=" $(basename "$f"):$s"
	done
done
[ -z "$aids" ] && pass "no test aid in $(ls "$P"/bin/cxi_* | wc -l) installed programs" ||
	fail "test aids in installed programs:$aids"
if [ -x "$BUILD/standin/cxi_write_bw" ]; then
	grep -qa CXD_TEST_STOP_AT "$BUILD/standin/cxi_write_bw" &&
		pass "the test copy has them (the check can fail)" ||
		fail "the test copy lacks CXD_TEST_STOP_AT"
fi

section "installed tools run"
run_capture version 10 "$P/bin/cxi_write_bw" -V
expect_rc 0 "$RC" "installed cxi_write_bw -V"
grep -q "cxi_write_bw version" "$OUT" && pass "-V prints the version" || fail "-V: $(cat "$OUT")"
if [ -x "$P/bin/cxi_sweep" ]; then
	# As an MPI singleton: no launcher needed to print the version.
	run_capture sweep-version 20 "$P/bin/cxi_sweep" -V
	expect_rc 0 "$RC" "installed cxi_sweep -V" || show "$ERR"
	grep -q "cxi_sweep version" "$OUT" && pass "cxi_sweep -V prints the version" ||
		fail "cxi_sweep -V: $(cat "$OUT")"
fi
run_capture local 60 "$P/bin/cxi_read_lat" --local --provider tcp -n 5 -s 8
expect_rc 0 "$RC" "installed cxi_read_lat --local" || show "$ERR"
[ "$(table_rows "$OUT" | wc -l)" -eq 1 ] && pass "one result row" || { fail "no result row"; show "$OUT"; }

section "which libfabric the installed binary loads"
lib=$(ldd "$P/bin/cxi_write_bw" | awk '/libfabric\.so/ { print $3 }')
if [ -n "$LF_PREFIX" ]; then
	case $lib in
	"$LF_PREFIX"/lib/*) pass "loads $lib (CXD_LIBFABRIC_PREFIX)" ;;
	*) fail "loads '$lib', want one under $LF_PREFIX/lib" ;;
	esac
	readelf -d "$P/bin/cxi_write_bw" | grep -qE "R(UN)?PATH.*\[$LF_PREFIX/lib\]" &&
		pass "RUNPATH is $LF_PREFIX/lib" || fail "no RUNPATH $LF_PREFIX/lib"
else
	case $lib in
	/usr/lib/* | /lib/*) pass "loads the system's $lib" ;;
	*) fail "loads '$lib', want the system's" ;;
	esac
	readelf -d "$P/bin/cxi_write_bw" | grep -qE "R(UN)?PATH" &&
		fail "a RUNPATH in a build against the system's libfabric" ||
		pass "no RUNPATH"
fi

section "DESTDIR=R cmake --install --prefix /usr"
run_capture destdir 120 env DESTDIR="$TMPD/root" cmake --install "$BUILD" --prefix /usr
expect_rc 0 "$RC" "install with DESTDIR" || show "$ERR"
[ -x "$TMPD/root/usr/bin/cxi_send_bw" ] && [ -s "$TMPD/root/usr/share/man/man1/cxi_send_bw.1" ] &&
	pass "staged under DESTDIR/usr" || fail "nothing under $TMPD/root/usr"
finish

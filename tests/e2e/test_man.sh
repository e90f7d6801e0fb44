#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# Man pages: every tool has one (cxi_sweep too when it is built), its
# OPTIONS list names exactly the options the tool's -h lists (short and
# long), and every page passes the mandoc linter with no warning. About 2 s.
#   bash tests/e2e/test_man.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
MAN=$BUILD/man
need_tool_list
TOOLS=("${TOOLS_ALL[@]}")
# The sweep is built only where CMake finds MPI; its -h runs as an MPI
# singleton (no launcher needed).
[ -e "$BUILD/cxi_sweep" ] && TOOLS+=(cxi_sweep)

command -v mandoc >/dev/null 2>&1 || skip "mandoc is not installed (apt-get install mandoc)"
[ -d "$MAN" ] || die "$MAN missing: the build generates the man pages there"

# "-s --size" / "--json" per line, sorted: from -h ...
help_opts() {
	timeout 20 "$BUILD/$1" -h | sed -nE 's/^ +(-[[:alnum:]]), --([[:alnum:]_-]+).*/\1 --\2/p;
		s/^ +--([[:alnum:]_-]+).*/--\1/p' | sort
}
# ... and from the tag lines of the page's OPTIONS section.
man_opts() {
	awk '/^\.SH /{ sec = $0 } sec == ".SH OPTIONS" && tag { print; tag = 0 }
		/^\.TP/{ tag = 1 }' "$1" |
		sed -E 's/\\f[BIR]//g; s/\\-/-/g' |
		sed -nE 's/^(-[[:alnum:]]), --([[:alnum:]_-]+).*/\1 --\2/p;
			s/^--([[:alnum:]_-]+).*/--\1/p' | sort
}

section "-h and the man page list the same options"
for T in "${TOOLS[@]}"; do
	page=$MAN/$T.1
	[ -x "$BUILD/$T" ] || { fail "$T: not built"; continue; }
	[ -s "$page" ] || { fail "$T: no man page $page"; continue; }
	help_opts "$T" >"$TMPD/$T.help"
	man_opts "$page" >"$TMPD/$T.man"
	n=$(wc -l <"$TMPD/$T.help")
	if [ "$n" -lt 10 ]; then
		fail "$T: only $n options parsed from -h"
	elif diff "$TMPD/$T.help" "$TMPD/$T.man" >"$TMPD/$T.diff"; then
		pass "$T: $n options, same set in -h and $T.1"
	else
		fail "$T: -h (<) and $T.1 (>) disagree"
		show "$TMPD/$T.diff"
	fi
done
# Any other program the build makes needs a page too.
for b in "$BUILD"/cxi_*; do
	t=$(basename "$b")
	[ -x "$b" ] && [ ! -e "$MAN/$t.1" ] && fail "$t is built but has no man page"
done

section "every page has the sections a reader looks for"
for T in "${TOOLS[@]}"; do
	page=$MAN/$T.1
	[ -s "$page" ] || continue
	missing=""
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT "JSON AND CSV" \
		"EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"*$s\"*\$" "$page" || missing+=" $s"
	done
	[ -z "$missing" ] && pass "$T.1: all sections" || fail "$T.1 lacks:$missing"
done
for T in cxi_atomic_bw cxi_atomic_lat; do
	n=$(sed -n '/^\.SH ATOMIC OPERATIONS/,/^\.SH /p' "$MAN/$T.1" | grep -c '^\.TP')
	# 12 operations, CSWAP once per compare operation (6): 17 entries.
	[ "$n" -eq 17 ] && pass "$T.1: 17 atomic operations with their types" ||
		fail "$T.1: $n atomic operation entries, want 17"
done
[ -s "$MAN/cxd.7" ] && pass "overview page cxd.7 exists" || fail "no $MAN/cxd.7"
if [ -e "$BUILD/cxi_sweep" ]; then
	grep -qs '^\.SH VERDICT$' "$MAN/cxi_sweep.1" && pass "cxi_sweep.1: VERDICT section" ||
		fail "cxi_sweep.1 lacks VERDICT"
	# Exit 3 (outliers confirmed) is what scripts test for.
	sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MAN/cxi_sweep.1" 2>/dev/null | grep -qx '\.B 3' &&
		pass "cxi_sweep.1: exit status 3 documented" || fail "cxi_sweep.1: no exit status 3"
	grep -q 'BR cxi_sweep (1)' "$MAN/cxd.7" && pass "cxd.7 lists cxi_sweep" ||
		fail "cxd.7 does not list cxi_sweep"
else
	[ ! -e "$MAN/cxi_sweep.1" ] && pass "no cxi_sweep.1 without cxi_sweep" ||
		fail "cxi_sweep.1 generated, but cxi_sweep was not built"
fi

section "mandoc -T lint -W warning prints nothing"
for page in "$MAN"/*.[1-8]; do
	out=$(mandoc -T lint -W warning "$page" 2>&1)
	if [ -z "$out" ]; then
		pass "$(basename "$page"): lint clean"
	else
		fail "$(basename "$page"): mandoc says:"
		echo "$out" | sed 's/^/       | /'
	fi
done

section "a bad page is caught (the checks can fail)"
printf '.TH X 1\n.SH NAME\nx\n.PP\n.PP\n' >"$TMPD/bad.1"
[ -n "$(mandoc -T lint -W warning "$TMPD/bad.1" 2>&1)" ] &&
	pass "mandoc flags a page with no date and an empty paragraph" ||
	fail "mandoc printed nothing for a broken page"
sed '/^\.TP/{n;/\\-\\-json/d}' "$MAN/cxi_write_bw.1" >"$TMPD/nojson.1"
diff -q <(help_opts cxi_write_bw) <(man_opts "$TMPD/nojson.1") >/dev/null &&
	fail "a page without --json still matched -h" ||
	pass "a page without --json no longer matches -h"
finish

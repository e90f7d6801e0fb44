#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (real sweeps under mpirun, judged against a baseline)
# Every name is hostile (issue 51; docs/security.md), in real cxi_sweep
# runs: host names from the table (tests/hostile_names.txt) given to the
# ranks by the test copy's CXD_TEST_HOST_NAMES, switch and group names by
# a --topology file.
#   1. carried names: 6 ranks (--engine mpi) placed by a topology of
#      hostile switches and groups, judged against a --baseline whose
#      figures rank 2's links cannot meet (rank 2 the one suspect), and 4
#      ranks whose hosts hold blanks and markup: the text names them as
#      they are, --csv quotes them (read back by Python's csv), --metrics
#      escapes them (promtool check metrics; read back by
#      prometheus_client), --suspects has rank 2's host as its one line,
#      --json has them whole (and validates: finish); cxi_archive ingests
#      the real document and writes its report;
#   2. refused host names (16: control characters, separators,
#      bidirectional controls, not UTF-8, empty, over 255 bytes), 8 ranks a
#      run: exit 2, every rank named with its name shown escaped, nothing
#      written; a --topology naming a refused switch or group: exit 2, the
#      file, line and name.
# About 15 s. Skipped without mpirun or cxi_sweep; promtool's part without
# promtool.
#   bash tests/e2e/test_hostile_sweep.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
sweep_setup
SRC=$(cd "$(dirname "$0")/../.." && pwd)
HS=("$PY" "$E2E_PY/hostile_sweep.py")
SMALL=(--engine mpi -n 4 -l 4 --lat-iters 20 --repeat 2)
# sweep NAME NP HOSTS ARGS...: the test copy under mpirun, rank r's host
# the table's row HOSTS[r] (comma-separated ids); its files in TMPD/NAME.
sweep() {
	local name=$1 np=$2 hosts=$3 d=$TMPD/$1
	shift 3
	mkdir -p "$d"
	"${HS[@]}" hosts "$d/hosts.hex" ${hosts//,/ } >/dev/null
	run_capture "$name" 120 env CXD_TEST_HOST_NAMES="$d/hosts.hex" \
		"${MPIRUN[@]}" -x CXD_TEST_HOST_NAMES -np "$np" "$TBIN" "${SMALL[@]}" "$@"
	cp "$OUT" "$d/out.txt"
}
# hs_check WHAT FILE ARGS...: py_check's kind of check by hostile_sweep.py,
# run by Debian's python3 (prometheus_client, to read --metrics back).
hs_check() {
	local what=$1 file=$2 out=$TMPD/hs_check.out
	shift 2
	if "${HS[@]}" "$@" >"$out" 2>&1; then
		pass "$what: $(tail -1 "$out")"
	else
		fail "$what: $(tail -1 "$out")"
		show "$file"
	fi
}
files() { echo --csv "$1/run.csv" --metrics "$1/run.prom" --suspects "$1/run.sus" --json "$1/run.json"; }

section "carried names: hosts, switches and groups, every output"
H=script_end,dquote,backslash,comma,printf,tex
S=comment,entity,formula
G=unicode,astral
A=$TMPD/a
mkdir -p "$A"
"${HS[@]}" topo "$A/topo.txt" "$H" "$S" "$G" >/dev/null
"${HS[@]}" baseline "$A/base.json" ${H//,/ } >/dev/null
# shellcheck disable=SC2046
sweep a 6 "$H" --topology "$A/topo.txt" --baseline "$A/base.json" $(files "$A")
# 3: rank 2 against the baseline; 4: a busy host left links unjudged
if [ "$RC" = 3 ] || [ "$RC" = 4 ]; then pass "6 hostile hosts, a hostile topology: exit $RC"
else fail "6 hostile hosts: exit $RC, want 3 or 4"; show "$ERR"; fi
hs_check "6 ranks: the names in every output" "$A/out.txt" outputs "$A" "$H" "$S" "$G"
B=$TMPD/b
HB=space,markup,unicode,long255
# shellcheck disable=SC2046
sweep b 4 "$HB" $(files "$B")
if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then pass "hosts with blanks and markup: exit $RC"
else fail "hosts with blanks and markup: exit $RC"; show "$ERR"; fi
hs_check "4 ranks: the names in every output" "$B/out.txt" outputs "$B" "$HB"
if command -v promtool >/dev/null; then
	for d in "$A" "$B"; do
		run_capture promtool 30 promtool check metrics <"$d/run.prom"
		expect_rc 0 "$RC" "promtool check metrics: $(basename "$d")'s --metrics"
	done
else
	skip_part "promtool not found (apt-get install prometheus)"
fi
run_capture arc 60 /usr/bin/python3 "$SRC/tools/cxi_archive.py" ingest -a "$TMPD/site.db" "$A/run.json"
expect_rc 0 "$RC" "cxi_archive ingests the real document"
run_capture rep 60 /usr/bin/python3 "$SRC/tools/cxi_archive.py" report "$A/run.json" -o "$A/page.html"
expect_rc 0 "$RC" "and writes its report"

section "refused host names: exit 2, each named"
R1=long256,long4k,empty,tab,newline,cr,esc,bel
R2=del,c1,nonutf8,overlong,surrogate,cut_utf8,lsep,rlo
for r in "$R1" "$R2"; do
	sweep refused 8 "$r" --json "$TMPD/refused.json"
	expect_rc 2 "$RC" "8 refused host names"
	hs_check "every rank named, shown escaped" "$ERR" refused "$ERR" ${r//,/ }
	check "no document written" test ! -e "$TMPD/refused.json"
done

section "a topology naming a refused switch or group: exit 2, its line"
for bad in bel nonutf8 long256 lsep; do
	"${HS[@]}" topo "$TMPD/t_$bad.txt" plain,dquote "plain,$bad" comma >/dev/null
	sweep "topo_$bad" 2 plain,dquote --topology "$TMPD/t_$bad.txt"
	# line 2: the second rank's, on switch $bad
	if [ "$RC" = 2 ] && grep -q "t_$bad.txt:2: the switch name '.*' cannot be carried" "$ERR" &&
		! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$ERR"; then
		pass "switch $bad: exit 2, the file, line and name shown"
	else
		fail "switch $bad: exit $RC"; show "$ERR"
	fi
done

finish

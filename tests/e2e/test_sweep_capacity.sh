#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (the capacity pass on shaped real trunks)
# test-timeout: 420 (two trunk rates, a fault found INCONCLUSIVE measured once more, two short runs)
# cxi_sweep's capacity pass on a fabric of network namespaces: six ranks,
# one namespace each (CXD_TEST_NETNS), ranks 0-2 on bridge A, 3-5 on
# bridge B, the bridges joined by a veth trunk. Every node link is shaped
# (tc tbf) to R, 200 Mbit/s both ways; the trunk, on both its ends, first
# to 3 R, then to 1.5 R. The topology file puts each bridge in its own
# group (gA, gB) and states `width global 3`, so the bundle between the
# groups should carry 3 pairs at the typical pair's rate; its link line
# (the trunk) gives the routes, without which a short unit is not named.
#   fabric  three TCP flows across the trunk, without the sweep: it
#           carries 3 R, then 1.5 R (never more), each flow at most R
#   3 R     the pass loads the bundle with 3 pairs (4, bounded by the 3
#           hosts a side): "ok", about 3 R carried, no suspect; the
#           bandwidth pass packed by the routes (9 pairs across the
#           trunk's one cable: 9 rounds at least, where the dealt plan
#           takes 12 slots)
#   1.5 R   the pairs alone still run at R (the main sweep finds nothing):
#           the bundle "short" at about 1.5 R, the capacity suspect gA-gB
#           named in the report, FAIL, no --suspects line (no host to
#           drain); one found INCONCLUSIVE is measured once more
#   off     --no-capacity, and --max-pairs 1: the pass skipped, the report
#           saying why
# Root, ip and tc for the fabric; mpirun for all (skipped, 77, without).
#   bash tests/e2e/test_sweep_capacity.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
sweep_setup

fabric_ok ip tc || skip "the shaped fabric: needs root, ip and tc"
N=6 P=cxc$$
RATE=200                  # Mbit/s a node link
R_MB=$((RATE / 8))        # the same in MB/s (MB = 10^6)
two_bridges "${P}A" "${P}B" "${P}ta" "${P}tb" ||
	skip "the shaped fabric: no bridge: $(cat "$TMPD/br.err")"
side() { [ "$1" -lt 3 ] && echo A || echo B; }
for ((i = 0; i < N; i++)); do
	ns_host "${P}n$i" "${P}h$i" "${P}$(side "$i")" swp0 "169.254.79.$((i + 1))/24" lo
done
# shape DEV NS MBIT LATENCY: egress of DEV (in namespace NS, "" = here).
# tbf's queue is LATENCY long at the rate: a node link's 50 ms as in
# test_sweep_verdict; the trunk's 20 ms, so that three greedy TCP flows
# share it about evenly (at 50 ms one took a whole link and two a quarter
# each; the sum was right, the flows' own figures were not).
shape() {
	local tc=(tc)
	[ -n "$2" ] && tc=(tc -n "$2")
	"${tc[@]}" qdisc replace dev "$1" root tbf rate "$3mbit" burst 32kb latency "$4"
}
for ((i = 0; i < N; i++)); do
	shape swp0 "${P}n$i" "$RATE" 50ms && shape "${P}h$i" "" "$RATE" 50ms ||
		die "tc tbf failed"
done
# trunk MBIT: both ends, so both directions.
trunk() { shape "${P}ta" "" "$1" 20ms && shape "${P}tb" "" "$1" 20ms; }

# flows NAME K: three greedy TCP flows from A to B for 2 s, without the
# sweep. Their sum must not pass the trunk's K/2 x R (+10 %), nor a flow R
# (+10 %); below 80 % of it the host was too busy (noted: load only lowers
# a rate). TCP carries about 95 % of the shaped rate (its headers).
flows() {
	local k2=$2 lo hi
	lo=$(awk -v r="$R_MB" -v k="$k2" 'BEGIN { print 0.8 * k / 2 * r }')
	hi=$(awk -v r="$R_MB" -v k="$k2" 'BEGIN { print 1.1 * k / 2 * r }')
	run_capture "flows-$1" 60 "$PY" "$E2E_PY/trunk_flows.py" run "${P}n" 2 \
		"$lo" "$hi" "$(awk -v r="$R_MB" 'BEGIN { print 1.1 * r }')" \
		0:3:169.254.79.4 1:4:169.254.79.5 2:5:169.254.79.6
	case $RC in
	0) pass "$1: $(head -1 "$OUT")" ;;
	3) note "$1: $(head -1 "$OUT"); $(tail -1 "$OUT")" ;;
	*) fail "$1: $(tail -1 "$OUT")"; show "$ERR" ;;
	esac
}

{
	echo "# NAME SWITCH GROUP: one switch per bridge, a group each"
	for ((i = 0; i < N; i++)); do
		echo "169.254.79.$((i + 1)) s$(side "$i") g$(side "$i")"
	done
	echo "width global 3"
	echo "# the trunk: one link between the bridges' switches"
	echo "link sA sB 1"
} >"$TMPD/fabric.topo"
# The main sweep as test_sweep_verdict's (tcp, one write in flight) with 3
# pairs at once, so that the capacity pass may load the bundle with three.
# Six ranks busy on 2 cores: writes of 64 KiB (16 a measurement) ran 113 %
# faster alone (INCONCLUSIVE); of 1 MiB (2 a measurement, 80 ms at R)
# +4.6 %, noise 3.5 %. (Their 8-byte latency, three pairs at once, is the
# scheduler's, ~12 ms: a busy host's run may end INCONCLUSIVE for it.)
# Each namespace stands for a node of its own (CXD_TEST_NETNS_PER=1): the
# pass loads no two pairs from one host's NIC, and here all share a name.
SWEEP=(env CXD_TEST_NETNS="${P}n" CXD_TEST_NETNS_PER=1 "${MPIRUN[@]}" -x CXD_TEST_NETNS
	-x CXD_TEST_NETNS_PER -np "$N" "$TBIN"
	--provider tcp -d swp0 -l 1 --topology "$TMPD/fabric.topo")
LONG=(-s 1048576 -n 2 --lat-iters 20 --max-pairs 3)
# sweep_once NAME ARGS...: one run, its JSON in $TMPD/NAME.json, its
# capacity lines and verdict shown.
sweep_once() {
	local name=$1 t0
	shift
	t0=$(now)
	run_capture "$name" 180 "${SWEEP[@]}" --json "$TMPD/$name.json" "$@"
	note "$name: exit $RC in $(elapsed_since "$t0") s"
	grep -iE "capacity|^Suspects|^  |^Verdict" "$OUT" | sed 's/^/       | /'
	[ -s "$TMPD/$name.json" ] || { fail "$name: no JSON"; show "$ERR"; return 1; }
}

# Under ASan (make asan) the short trunk alone: one run walks the pass's
# C end to end (plan, rounds, judging, a suspect in every output); the
# other runs check figures and words that ASan does not change.
SAN=0
grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null && SAN=1

if [ "$SAN" = 0 ]; then
section "the trunk at 3 R ($((3 * RATE)) Mbit/s): the bundle carries its width"
trunk $((3 * RATE)) || die "tc tbf on the trunk failed"
flows "fabric at 3 R" 6
sweep_once wide "${LONG[@]}"
case $RC in
0) py_check "wide: the bundle ok at 3 R" "$OUT" sweep_capacity.py ok "$TMPD/wide.json" "$R_MB" ;;
4)
	note "wide: INCONCLUSIVE (exit 4): this host too busy to vouch"
	py_check "wide: the bundle not short" "$OUT" sweep_capacity.py ok-noisy \
		"$TMPD/wide.json" "$R_MB"
	;;
*) fail "wide: exit $RC, want 0 (or 4 on a busy host)"; show "$ERR" ;;
esac
# The trunk's link line routes the pass over a real fabric too: one pair
# across it a round (its one cable), no fewer rounds than that bound.
check "wide: the bandwidth pass packed by the routes, one pair a round on the trunk" \
	"$PY" -c 'import json, sys
r = json.load(open(sys.argv[1]))["schedule"].get("routed") or {}
print("schedule.routed:", r)
sys.exit(not (r and r["bound_rounds"] >= 9 and r["rounds"] >= r["bound_rounds"] and
              r["seconds"] > 0))' "$TMPD/wide.json"

else
	note "under ASan: the short trunk alone (the 3 R trunk and the skipped passes in check)"
fi

section "the trunk at 1.5 R ($((3 * RATE / 2)) Mbit/s): the bundle short"
trunk $((3 * RATE / 2)) || die "tc tbf on the trunk failed"
flows "fabric at 1.5 R" 3
# A fault passes only when it is found: an INCONCLUSIVE run (4) is
# measured once more; what it names must be the trunk all the same.
for try in 1 2; do
	sweep_once narrow "${LONG[@]}" --suspects "$TMPD/narrow.sus" || break
	[ "$RC" = 4 ] && [ "$try" = 1 ] || break
	py_check "narrow: inconclusive on this busy host, only the trunk named" "$OUT" \
		sweep_capacity.py short-noisy "$TMPD/narrow.json" "$R_MB"
	note "narrow: INCONCLUSIVE (exit 4): measured once more, the trunk must be found"
done
if [ "$RC" = 3 ]; then
	pass "narrow: exit 3"
	py_check "narrow: the bundle gA-gB short at 1.5 R, named" "$OUT" sweep_capacity.py \
		short "$TMPD/narrow.json" "$R_MB" "$OUT"
	check "--suspects has no line for the trunk (no host to drain)" \
		test ! -s "$TMPD/narrow.sus"
else
	fail "narrow: exit $RC, want 3"
	show "$ERR"
fi

[ "$SAN" = 0 ] || finish
section "the pass skipped: --no-capacity, --max-pairs 1"
# A short run each: only the report's word on the pass is checked.
QUICK=(-s 65536 -n 4 --lat-iters 5)
sweep_once off "${QUICK[@]}" --max-pairs 3 --no-capacity
py_check "--no-capacity: not run, the report says why" "$OUT" sweep_capacity.py off \
	"$TMPD/off.json" "$OUT" --no-capacity
sweep_once single "${QUICK[@]}" --max-pairs 1
py_check "--max-pairs 1: not run, the report says why" "$OUT" sweep_capacity.py off \
	"$TMPD/single.json" "$OUT" pair
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (compares aggressed with isolated timings of real pairs)
# cxi_sweep --congestion and --tclass, end to end:
#   1. bad input exits 2 naming the value: a victim fraction outside
#      (0,1), fewer than 4 ranks, an unknown traffic class;
#   2. --aggressors-only runs each pattern for -D seconds; a frozen
#      incast root is named and the job ends; --tclass travels
#      from a pair tool's client to its server, and the summary says what
#      the provider does with it;
#   3. a real bottleneck: 8 ranks in their own network namespaces on two
#      bridges joined by one trunk shaped with tc tbf. Victims 0,1 and 2,3
#      (--placement first); aggressors 4..7, rank 4 the incast root. Ranks
#      1 and 4 sit behind the trunk: victim link 0->1 and the incast cross
#      it, victims 2<->3 cross no shaped port. The first must show a large
#      impact, the others about 1. While it runs, the data sockets' IP TOS
#      is read (ss --tos): tcp puts no mark for any class, so a tc prio
#      qdisc on the trunk would have nothing to sort by;
#   4. cxi_plot draws the run's JSON (skipped without matplotlib).
# Skipped (77) without MPI or cxi_sweep; part 3 needs root, ip, tc, ss.
# 48 s at load 12 (the shaped run 27 s); run alone (RUN_SERIAL).
#   bash tests/e2e/test_congestion.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
# BIN, TBIN (the test copy: CXD_TEST_NETNS), PY, MPIRUN.
sweep_setup

section "bad input: exit 2, the value named"
bad() { # NAME NP WANT ARGS...
	local name=$1 np=$2 want=$3
	shift 3
	run_capture "$name" 60 "${MPIRUN[@]}" -np "$np" "$BIN" \
		--provider tcp "$@"
	expect_rc 2 "$RC" "$name"
	check "$name: says $want" grep -qF -- "$want" "$ERR"
}
bad frac 4 "'1.5'" --congestion --victims 1.5
bad ranks 3 "at least 4 ranks" --congestion
bad class 4 "'fast'" --congestion --aggressor-tclass fast

section "--aggressors-only: each pattern for -D seconds"
run_capture aggr 60 "${MPIRUN[@]}" -np 4 "$BIN" --provider shm \
	--aggressors-only -D 1 -s 16384 -l 4 --tclass bulk_data
expect_rc 0 "$RC" "--aggressors-only -D 1, 4 ranks"
check "the three patterns, one after the other" test "$(grep -cE \
	'^(incast|all_to_all|read_broadcast): 1 s, every rank' "$OUT")" = 3

section "a frozen aggressor is named, the job ends"
# --aggressors-only says when incast starts; then its root, rank 0, is
# stopped: the ranks writing to it must give up within their stall limit
# (--timeout 5 s plus 1 s per MB in flight: about 6 s here).
start_bg frozen "${MPIRUN[@]}" -np 4 "$BIN" --provider tcp \
	--aggressors-only -D 30 -s 65536 -l 4
FROZEN_PID=$BG_PID
wait_until 30 grep -q "^incast: " "$BG_OUT"
rank0=""
for p in $(pgrep -f "$BIN --provider tcp --aggressors-only"); do
	tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
		grep -qx OMPI_COMM_WORLD_RANK=0 && rank0=$p
done
[ -n "$rank0" ] && kill -STOP "$rank0"
t0=$(now)
wait_pid "$FROZEN_PID" 25
[ -n "$rank0" ] && kill -CONT "$rank0" 2>/dev/null
check "rank 0 found and stopped in the incast" test -n "$rank0"
check "the job ends, non-zero, within 25 s ($(elapsed_since "$t0") s)" \
	test "$WAIT_RC" != 124 -a "$WAIT_RC" != 0
# Named whether an aggressor stalls draining its completions or posting
# into a full queue (each names the peer; the second once did not, and
# this check failed on a healthy tree).
check "the stalled aggressor is named" \
	grep -qE "no operation to the aggressor rank 0 .* completed" "$BG_ERR"
sleep 1
no_leftovers "frozen aggressor" "$FROZEN_PID"

section "--tclass: the client's choice reaches the server"
run_capture tc-bad 10 "$BUILD/cxi_write_bw" --tclass fast
expect_rc 2 "$RC" "cxi_write_bw --tclass fast"
check "names the class" grep -qF "'fast'" "$ERR"
start_server cxi_write_lat --provider tcp
run_capture tc-client 30 "$BUILD/cxi_write_lat" --provider tcp \
	--tclass low_latency -n 5 -p "$SERVER_PORT" 127.0.0.1
expect_rc 0 "$RC" "client with --tclass low_latency"
wait_pid "$SERVER_PID" 10
check "server's summary has the client's class" \
	grep -qE "^Traffic Class +: low_latency \(tcp.*no IP TOS" "$SERVER_OUT"

section "a shaped trunk between two bridges"
if ! fabric_ok ip tc ss; then
	skip_part "the shaped trunk: needs root, ip, tc and ss"
	finish
fi
N=8 P=cxcg$$
BEHIND=" 1 4 " # ranks on bridge B, behind the trunk
two_bridges "${P}A" "${P}B" "${P}tA" "${P}tB" ||
	{ skip_part "the shaped trunk: no bridge: $(cat "$TMPD/br.err")"; finish; }
for ((i = 0; i < N; i++)); do
	br=A
	[[ $BEHIND == *" $i "* ]] && br=B
	ns_host "${P}n$i" "${P}h$i" "$P$br" cg0 "169.254.79.$((i + 1))/24"
done
# The trunk at 8 Mbit/s each way, with up to 50 ms of queue. --timeout 20:
# ranks starved of the 2 shared cores for over 5 s were seen (load 240).
for t in tA tB; do
	tc qdisc add dev "$P$t" root tbf rate 8mbit burst 16kb latency 50ms ||
		die "tc tbf failed"
done
# The TOS of the data sockets behind the trunk, sampled while it runs.
( while sleep 0.5; do for r in 1 4; do
	ip netns exec "${P}n$r" ss -tn --tos state established; done; done ) \
	>"$TMPD/tos.txt" 2>&1 &
SAMPLER=$!
on_exit "kill $SAMPLER"
# shaped NAME: one congestion run on the trunk, its JSON in $TMPD/NAME.json.
shaped() {
	t0=$(now)
	run_capture "$1" 240 env CXD_TEST_NETNS="${P}n" "${MPIRUN[@]}" \
		-x CXD_TEST_NETNS -np "$N" "$TBIN" --congestion --provider tcp \
		-d cg0 --placement first --victims 0.5 -s 16384 -l 4 -n 2 \
		--lat-iters 15 --timeout 20 --tclass low_latency \
		--aggressor-tclass bulk_data --json "$TMPD/$1.json"
}
# The shaped link's impact is tens of times; the others' are ratios of
# microseconds, which a burst of load from outside can skew: a second
# run, as the sweep retests its outliers, before calling it a failure.
JUDGE=(congest_impact.py 0-1 2-3,3-2 incast 3 3)
shaped cg
if [ "$RC" = 0 ] && ! "$PY" "$E2E_PY/${JUDGE[0]}" "$TMPD/cg.json" \
	"${JUDGE[@]:1}" >"$TMPD/first.txt"; then
	note "first run off (a retest follows): $(tail -1 "$TMPD/first.txt")"
	shaped cg2 && cp "$TMPD/cg2.json" "$TMPD/cg.json"
fi
kill "$SAMPLER" 2>/dev/null
expect_rc 0 "$RC" "congestion run on the trunk ($(elapsed_since "$t0") s)"
show "$OUT"
CG_OUT=$OUT
check "verdict says 8 ranks on one host is a hint" \
	grep -qE "^Verdict: .*a hint only: 8 ranks on 1 host" "$OUT"
check "classes reported, with what tcp does with them" grep -qE \
	"^Traffic classes: victims low_latency \(tcp.*no IP TOS.*aggressors bulk_data \(tcp" "$OUT"
py_check "incast: 0->1 crosses the shaped trunk, 2<->3 no shaped port" \
	"$TMPD/cg.json" "${JUDGE[0]}" "$TMPD/cg.json" "${JUDGE[@]:1}"
tos=$(grep -oE "tos:0x[0-9a-f]+|tos:[0-9]+" "$TMPD/tos.txt" | sort | uniq -c)
note "IP TOS of the sockets behind the trunk: $(echo $tos)"
check "data sockets were seen" test -n "$tos"
check "no TOS mark on any (tcp maps no class to DSCP)" \
	test -z "$(echo "$tos" | grep -vE 'tos:(0x0|0)$')"
section "the chart (cxi_plot)"
if "$PY" -c 'import matplotlib' 2>/dev/null; then
	run_capture plot 60 "$PY" "$(dirname "$0")/../../tools/cxi_plot.py" \
		"$TMPD/cg.json" -o "$TMPD/cg.png"
	expect_rc 0 "$RC" "cxi_plot of the congestion JSON"
	check "PNG >= 20 KB, >= 1000x400" \
		"$PY" "$E2E_PY/png_ok.py" "$TMPD/cg.png" 20 1000 400
else
	skip_part "the chart: matplotlib missing (python3-matplotlib)"
fi
# CXD_SHOTS=DIR keeps the run's report, JSON and chart.
if [ -n "${CXD_SHOTS:-}" ]; then
	cp "$CG_OUT" "$TMPD/cg.json" "$TMPD/tos.txt" "$CXD_SHOTS/"
	cp "$TMPD/cg.png" "$CXD_SHOTS/" 2>/dev/null
fi
finish

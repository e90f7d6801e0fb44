#!/usr/bin/env bash
# cxi_sweep under a real launcher (Open MPI's mpirun, --oversubscribe):
#   1. 4 and 8 ranks over tcp and shm: N x N matrices complete, positive,
#      null on the diagonal; every pair in exactly one round, no rank twice
#      in a round, no round over max_pairs.
#   2. A rank killed (SIGKILL) or frozen (SIGSTOP) mid-sweep ends the whole
#      job, bounded, the frozen one named; no rank is left running.
#   3. A genuinely slow link: 6 ranks, each in its own network namespace
#      (CXD_TEST_NETNS, joined by a bridge), rank 2's veth shaped with
#      tc tbf both ways: exactly rank 2's links are bandwidth outliers.
# Skipped (77) without MPI or cxi_sweep; part 3 also needs root and tc.
# About 75-90 s on 2 heavily loaded cores (load average 10-30).
#   bash tests/e2e/test_sweep.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
BIN=$BUILD/cxi_sweep
# The test copy (CXD_TEST_STOP_AT, CXD_TEST_NETNS): for the fault parts.
TBIN=$BUILD/standin/cxi_sweep
PY=/usr/bin/python3
command -v mpirun >/dev/null || skip "mpirun not found (Debian: openmpi-bin)"
[ -x "$BIN" ] || skip "$BIN not built (CMake found no MPI)"
[ -x "$TBIN" ] || die "$TBIN (the test copy) not built"
[ -x "$PY" ] || PY=python3
# Open MPI refuses root without these; tests run as root in CI.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --mca btl self,vader)
# Under ASan: Open MPI's own allocations outlive MPI_Finalize, some in
# components it has already unloaded (no name a suppression could match),
# so leak checking is off for the ranks; ASan and UBSan still run. And the
# timing-derived verdict is judged less strictly (below): instrumented
# ranks on 2 loaded cores make unshaped links dip too.
SANITIZED=0
if grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
	SANITIZED=1
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	MPIRUN+=(-x ASAN_OPTIONS)
fi
SMALL=(-n 2 -l 4 --lat-iters 20)

# check_json FILE N: prints problems, exit 1 if any.
check_json() {
	"$PY" "$E2E_PY/sweep_matrices.py" "$1" "$2"
}

section "matrices over tcp and shm"
for prov in tcp shm; do
	for n in 4 8; do
		name=$prov-$n
		t0=$(now)
		run_capture "$name" 120 "${MPIRUN[@]}" -np "$n" "$BIN" \
			--provider "$prov" "${SMALL[@]}" --json "$TMPD/$name.json" \
			--csv "$TMPD/$name.csv"
		# 3 = outliers found: on oversubscribed cores noise may do that.
		if [ "$RC" = 0 ] || [ "$RC" = 3 ]; then
			pass "$name: exit $RC in $(elapsed_since "$t0") s"
		else
			fail "$name: exit $RC"; show "$ERR"; continue
		fi
		if out=$(check_json "$TMPD/$name.json" "$n"); then
			pass "$name: ${n}x$n matrices complete and positive"
		else
			fail "$name: $out"
		fi
		check "$name: CSV has one line per link" \
			test "$(($(wc -l <"$TMPD/$name.csv") - 1))" -eq $((n * (n - 1)))
		check "$name: text report has a verdict" grep -q "^Verdict: " "$OUT"
	done
done

section "usage errors"
run_capture usage 30 "${MPIRUN[@]}" -np 2 "$BIN" --min-bw 0
check "--min-bw 0 is refused with the value named" \
	grep -q "Invalid bandwidth threshold: '0'" "$ERR"
[ "$RC" != 0 ] && pass "--min-bw 0: exit $RC" || fail "--min-bw 0: exit 0"

section "a killed rank ends the sweep"
# Rank 2 stops itself on entering its first timed loop (CXD_TEST_STOP_AT)
# and is killed there: mid-round, its partner's run under way. -D 10: a
# direction lasts 10 s, so the sweep is far from over however fast the
# provider is (-n 400 was over in a second on libfabric 2.6).
DUR=(--provider tcp -D 10 -l 16)
start_bg kill "${MPIRUN[@]}" -np 2 "$TBIN" "${DUR[@]}" : \
	-np 1 env CXD_TEST_STOP_AT="timed loop" "$TBIN" "${DUR[@]}" : -np 1 "$TBIN" "${DUR[@]}"
MPI_PID=$BG_PID
victim=""
# the rank that stopped itself: sets victim
find_stopped() {
	local p
	for p in $(pgrep -f -- "^$TBIN --provider tcp -D 10"); do
		pid_stopped "$p" && { victim=$p; return 0; }
	done
	return 1
}
if ! wait_until 30 find_stopped; then
	fail "no rank stopped in its timed loop within 30 s: $(tail -1 "$BG_ERR")"
	leftovers "$MPI_PID" >/dev/null
else
	kill -9 "$victim"
	t0=$(now)
	wait_pid "$MPI_PID" 30
	if [ "$WAIT_RC" = 124 ]; then
		fail "mpirun still running 30 s after a rank was killed"
	else
		pass "mpirun ended $(elapsed_since "$t0") s after the kill (exit $WAIT_RC)"
		[ "$WAIT_RC" != 0 ] && pass "exit status non-zero" || fail "exit 0"
	fi
	no_rank() { ! pgrep -f -- "^$TBIN --provider tcp -D 10" >/dev/null; }
	wait_until 5 no_rank
	left=$(pgrep -f -- "^$TBIN --provider tcp -D 10" | wc -l)
	check "no rank left running" test "$left" -eq 0
	check "the message names the dead rank's process" \
		grep -Eq "exited on signal 9|killed|terminated" "$BG_ERR" "$BG_OUT"
fi

section "a stopped rank is named"
# Rank 2 freezes itself (CXD_TEST_STOP_AT, SIGSTOP) on entering its
# first pre-run barrier: its partner gives up within 5 s, names it, and
# MPI_Abort ends every rank, the frozen one included.
t0=$(now)
run_capture stop 60 "${MPIRUN[@]}" -np 2 "$TBIN" --provider tcp "${SMALL[@]}" : \
	-np 1 env CXD_TEST_STOP_AT="pre-run barrier" "$TBIN" --provider tcp "${SMALL[@]}" : \
	-np 1 "$TBIN" --provider tcp "${SMALL[@]}"
if [ "$RC" = 124 ]; then
	fail "mpirun still running 60 s after rank 2 froze"
else
	pass "mpirun ended in $(elapsed_since "$t0") s (exit $RC)"
fi
check "the message names rank 2" grep -q "rank 2 (.*) did not answer" "$ERR"
no_small_rank() { ! pgrep -f -- "^$TBIN --provider tcp -n 2 -l 4" >/dev/null; }
wait_until 5 no_small_rank
check "no rank left running" \
	test "$(pgrep -f -- "^$TBIN --provider tcp -n 2 -l 4" | wc -l)" -eq 0

section "a slow link stands out"
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
	note "skipped: needs root, ip and tc"
	finish
fi
N=6 P=cxsw$$
ip link add "br$P" type bridge 2>"$TMPD/br.err" || { note "no bridge: $(cat "$TMPD/br.err")"; finish; }
on_exit "ip link del br$P"
ip link set "br$P" up
for ((i = 0; i < N; i++)); do
	ip netns add "${P}n$i"
	on_exit "ip netns del ${P}n$i"
	ip link add "${P}h$i" type veth peer name swp0 netns "${P}n$i"
	ip link set "${P}h$i" master "br$P" up
	ip -n "${P}n$i" addr add "169.254.78.$((i + 1))/24" dev swp0
	ip -n "${P}n$i" link set swp0 up
done
# Rank 2's link at 4 Mbit/s each way (egress in its namespace and on
# the bridge side): about 0.5 MB/s against several MB/s for the others.
tc -n "${P}n2" qdisc add dev swp0 root tbf rate 4mbit burst 16kb latency 100ms &&
	tc qdisc add dev "${P}h2" root tbf rate 4mbit burst 16kb latency 100ms ||
	die "tc tbf failed"
# One pair at a time (--max-pairs 1) so the 2 cores do not blur links,
# and a second per direction (-D 1): a few hundred microseconds of data
# (-n 2) let one scheduling hiccup cut a healthy link to a twentieth.
# Even so, ranks starved of the 2 cores for a whole second measured a
# healthy link at 6 % of the median, twice; the shaped link sits near
# 0.1 %, so the bar is 2 % (ctest also runs this script alone). Latency
# is not judged here (--max-lat): on shared cores it is noise.
run_capture shaped 120 env CXD_TEST_NETNS="${P}n" "${MPIRUN[@]}" \
	-x CXD_TEST_NETNS -np "$N" "$TBIN" --provider tcp -d swp0 -D 1 -l 4 --lat-iters 20 \
	--max-pairs 1 --min-bw 2 --max-lat 1000000 --json "$TMPD/shaped.json"
expect_rc 3 "$RC" "shaped sweep (outliers found)"
out=$("$PY" "$E2E_PY/sweep_outliers.py" "$TMPD/shaped.json" "$N" "$SANITIZED") && pass "rank 2's $((2 * (N - 1))) links are outliers$([ "$SANITIZED" = 1 ] && echo ' (sanitizer build: extras allowed)' || echo ', and only those')" || fail "$out"
note "$out"
show "$OUT"
finish

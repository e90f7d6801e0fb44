#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (real sweeps, their verdicts and schedules)
# cxi_sweep under a real launcher (Open MPI's mpirun, --oversubscribe):
#   1. 4 and 8 ranks over tcp and shm: N x N matrices complete, positive,
#      null on the diagonal; every pair in exactly one round, no rank twice
#      in a round, no round over max_pairs.
#      With 8 ranks also --matrix: each rank's rows, written with MPI-IO,
#      equal the JSON's gathered matrices, and the report's min, median
#      and max (a distributed selection) equal those of the whole matrix.
#   2. A rank killed (SIGKILL) or frozen (SIGSTOP) mid-sweep ends the whole
#      job, bounded, the frozen one named; no rank is left running.
# The verdict on shaped links (a slow rank, a slow fabric, a slow switch)
# is test_sweep_verdict.sh's. Skipped (77) without MPI or cxi_sweep.
#   bash tests/e2e/test_sweep.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
# BIN, TBIN (the test copy: for the fault parts), PY, MPIRUN.
sweep_setup
SMALL=(-n 2 -l 4 --lat-iters 20 --repeat 2)

# check_json FILE N: prints problems, exit 1 if any.
check_json() {
	"$PY" "$E2E_PY/sweep_matrices.py" "$1" "$2"
}

section "matrices over tcp and shm"
for prov in tcp shm; do
	for n in 4 8; do
		name=$prov-$n
		t0=$(now)
		# tcp on loopback: its first interface may be another test's
		# short-lived veth.
		dev=(-d lo)
		[ "$prov" = tcp ] || dev=()
		mat=()
		[ "$n" = 8 ] && mat=(--matrix "$TMPD/$name.bin")
		run_capture "$name" 120 "${MPIRUN[@]}" -np "$n" "$BIN" \
			--provider "$prov" "${dev[@]}" "${SMALL[@]}" --json "$TMPD/$name.json" \
			--csv "$TMPD/$name.csv" "${mat[@]}"
		# 3 = outliers found, 4 = too noisy to say: on oversubscribed
		# cores noise may do either.
		if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then
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
		[ "$n" = 8 ] || continue
		if out=$("$PY" "$E2E_PY/sweep_matrix_check.py" "$TMPD/$name.bin" \
			"$TMPD/$name.json" "$OUT"); then
			pass "$name: --matrix rows = JSON matrices; report's min/median/max = the matrix's"
		else
			fail "$name: --matrix: $out"
		fi
	done
done

section "--matrix refused up front"
run_capture nodir 30 "${MPIRUN[@]}" -np 2 "$BIN" --provider shm "${SMALL[@]}" \
	--matrix "$TMPD/no/such/dir/m.bin"
check "a matrix file that cannot be created: exit 2 (got $RC)" test "$RC" = 2
check "the message names the file" \
	grep -q "cannot create the matrix file '$TMPD/no/such/dir/m.bin'" "$ERR"
run_capture cgmat 30 "${MPIRUN[@]}" -np 4 "$BIN" --provider shm --congestion \
	--matrix "$TMPD/cg.bin"
check "--congestion --matrix: exit 2 (got $RC)" test "$RC" = 2
check "the message says --matrix belongs to the all-pairs sweep" \
	grep -q "belong to the all-pairs sweep, not to --congestion" "$ERR"
run_capture cgcap 30 "${MPIRUN[@]}" -np 4 "$BIN" --provider shm --health --no-capacity
check "--health --no-capacity: exit 2 (got $RC)" test "$RC" = 2
check "the message names --no-capacity" \
	grep -q -- "--no-capacity belong to the all-pairs sweep, not to --health" "$ERR"
run_capture hprog 30 "${MPIRUN[@]}" -np 2 "$BIN" --provider shm --health --progress
check "--health --progress: exit 2 (got $RC)" test "$RC" = 2
check "the message says --health draws no line" \
	grep -q -- "--progress draws the all-pairs sweep's line; --health has none" "$ERR"

section "usage errors"
run_capture usage 30 "${MPIRUN[@]}" -np 2 "$BIN" --min-bw 0
check "--min-bw 0 is refused with the value named" \
	grep -q "Invalid bandwidth threshold: '0'" "$ERR"
[ "$RC" != 0 ] && pass "--min-bw 0: exit $RC" || fail "--min-bw 0: exit 0"

section "a killed rank ends the sweep"
# Rank 2 stops itself on entering its first timed loop (CXD_TEST_STOP_AT)
# and is killed there: mid-round, its partner's run under way. -D 10: a
# direction lasts 10 s, so the sweep is far from over however fast the
# provider is (-n 400 was over in a second on libfabric 2.6). Both pairs
# of round 0 at once (--max-pairs 2): rank 2 is in round 0, and a pair
# now lasts 4 x --repeat directions, 120 s, so rank 2 must not wait for
# another pair to end.
DUR=(--provider tcp -D 10 -l 16 --max-pairs 2 -d lo)
start_bg kill "${MPIRUN[@]}" -np 2 "$TBIN" "${DUR[@]}" : \
	-np 1 env CXD_TEST_STOP_AT="timed loop" "$TBIN" "${DUR[@]}" : -np 1 "$TBIN" "${DUR[@]}"
MPI_PID=$BG_PID
ranks() { pgrep -f -- "^$TBIN --provider tcp -D 10"; }
if killed_rank_ends mpirun "$MPI_PID"; then
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

finish

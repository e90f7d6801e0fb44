#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (real sweeps over MPI, busy-host cases)
# cxi_sweep --engine mpi under Open MPI's mpirun (its shared-memory and
# its tcp transport): every pair measured with MPI point-to-point.
#   1. 4 ranks each way: N x N matrices complete and positive, the report
#      and the JSON name the engine and the MPI library, provider "mpi".
#   2. What only a libfabric endpoint has is refused with exit 2 and the
#      option named; an unknown engine is named; so is a message size
#      beyond an MPI count.
#   3. 8 ranks, healthy, on this host (up to 4 ranks a core): PASS, or
#      INCONCLUSIVE naming why, never FAIL. Pairs that share a CPU
#      measure 2.5 times the typical latency, and their ranks wait for a
#      CPU about half of the time: such an outlier is not judged.
#   4. --budget over shared memory with a topology with link lines: the
#      covering plan's pairs only, exit 0 or 4, the JSON's budget object;
#      --budget with --congestion refused, both named.
#   5. A rank frozen in its timed loop (CXD_TEST_STOP_AT, SIGSTOP): its
#      partner's wait is bounded (--timeout), the frozen rank is named,
#      and MPI_Abort ends every rank.
# Skipped (77) without MPI or cxi_sweep.
#   bash tests/e2e/test_sweep_mpi.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
sweep_setup
SMALL=(--engine mpi -n 4 -l 4 --lat-iters 20 --repeat 2)

section "matrices over MPI's shared memory and tcp"
for btl in vader tcp; do
	name=mpi-$btl
	run_capture "$name" 120 mpirun --oversubscribe --mca btl "self,$btl" \
		-np 4 "$BIN" "${SMALL[@]}" --json "$TMPD/$name.json"
	# 3 = outliers, 4 = too noisy to say: oversubscribed cores may do either
	if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then
		pass "$name: exit $RC"
	else
		fail "$name: exit $RC"; show "$ERR"; continue
	fi
	if out=$("$PY" "$E2E_PY/sweep_matrices.py" "$TMPD/$name.json" 4); then
		pass "$name: 4x4 matrices complete and positive"
	else
		fail "$name: $out"
	fi
	check "$name: the report names the engine and Open MPI" \
		grep -q "^cxi_sweep: 4 ranks, .* engine mpi (Open MPI v" "$OUT"
	check "$name: JSON engine mpi" \
		test "$(json_get "$TMPD/$name.json" engine)" = mpi
	check "$name: JSON provider mpi" \
		test "$(json_get "$TMPD/$name.json" provider)" = mpi
	check "$name: JSON mpi_library names Open MPI" \
		grep -q '"mpi_library": *"Open MPI v' "$TMPD/$name.json"
done

section "options the MPI engine cannot honour"
refused() { # NAME EXPECTED-IN-MESSAGE ARGS...
	local name=$1 msg=$2
	shift 2
	run_capture "$name" 30 "${MPIRUN[@]}" -np 4 "$BIN" "$@"
	check "$name: exit 2 (got $RC)" test "$RC" = 2
	check "$name: the message names $msg" grep -qF -- "$msg" "$ERR"
}
refused unknown "Invalid engine 'warp': this build has fabric, mpi" \
	--engine warp
refused duration "-D does not apply to --engine mpi" --engine mpi -D 2
refused device "-d does not apply to --engine mpi" --engine mpi -d lo
refused provider "--provider does not apply to --engine mpi" \
	--engine mpi --provider tcp
refused congestion "--congestion does not apply to --engine mpi" \
	--engine mpi --congestion
refused health "--health does not apply to --engine mpi" --engine mpi --health
# an MPI count is an int: a bigger message would wrap
refused count "-s 3000000000: more than --engine mpi can send in one message" \
	--engine mpi -s 3000000000

section "8 healthy ranks on a busy host: never FAIL"
# Small: about 2 s alone (--lat-iters 50 keeps a latency median honest).
run_capture mpi-8 120 "${MPIRUN[@]}" -np 8 "$BIN" --engine mpi -n 8 -l 4 \
	--lat-iters 50 --json "$TMPD/mpi-8.json"
verdict=$(grep -m1 '^Verdict:' "$OUT")
note "${verdict:-no verdict line}"
if [ "$RC" = 0 ] || [ "$RC" = 4 ]; then
	pass "mpi-8: exit $RC, not FAIL"
else
	fail "mpi-8: exit $RC, want 0 (PASS) or 4 (INCONCLUSIVE)"; show "$OUT" "$ERR"
fi
if [ "$RC" = 4 ]; then
	check "mpi-8: INCONCLUSIVE says why" \
		grep -qE '^Verdict: INCONCLUSIVE: [a-z0-9]' "$OUT"
	check "mpi-8: JSON verdict INCONCLUSIVE" \
		test "$(json_get "$TMPD/mpi-8.json" verdict)" = INCONCLUSIVE
fi

section "--budget over shared memory, a topology with link lines"
# Every rank on this host's switch s0, linked to a bare s1: the covering
# plan's pairs only (each NIC crossed twice), judged and reported.
printf '%s s0 g0\nswitch s1 g0\nlink s0 s1 1\nroute minimal\n' \
	"$(hostname)" >"$TMPD/budget.topo"
run_capture budget 120 "${MPIRUN[@]}" -np 4 "$BIN" "${SMALL[@]}" \
	--topology "$TMPD/budget.topo" --budget 60 --json "$TMPD/budget.json"
if [ "$RC" = 0 ] || [ "$RC" = 4 ]; then
	pass "budget: exit $RC"
else
	fail "budget: exit $RC, want 0 (PASS) or 4 (INCONCLUSIVE)"; show "$OUT" "$ERR"
fi
check "budget: the JSON's plan: a covering plan of fewer than the 6 pairs" \
	eval '[ "$(json_get "$TMPD/budget.json" budget.plan)" = cover ] &&
		[ "$(json_get "$TMPD/budget.json" budget.pairs)" -lt 6 ]'
check "budget: the report's Budget lines" grep -q "^Budget: 60 s: a covering plan" "$OUT"
refused budget-congestion "--budget and --congestion do not go together" \
	--budget 10 --congestion

section "a frozen rank is named, bounded"
t0=$(now)
run_capture stop 60 "${MPIRUN[@]}" -np 2 "$TBIN" "${SMALL[@]}" --timeout 2 : \
	-np 1 env CXD_TEST_STOP_AT="timed loop" "$TBIN" "${SMALL[@]}" --timeout 2 : \
	-np 1 "$TBIN" "${SMALL[@]}" --timeout 2
if [ "$RC" = 124 ]; then
	fail "mpirun still running 60 s after rank 2 froze"
else
	pass "mpirun ended in $(elapsed_since "$t0") s (exit $RC)"
	check "exit status non-zero" test "$RC" != 0
	check "rank 2 is named" grep -q "rank 2 (.*) did not" "$ERR"
fi
left=$(pgrep -f -- "^$TBIN --engine mpi" | wc -l)
check "no rank left running" test "$left" -eq 0
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# test-timeout: 600 (the seeded fault benchmark at 64 and 128 ranks, about 1.5 min)
# The randomized fault benchmark at small scale (sim/faults.py,
# docs/simulation.md): its plans and score without a simulation
# (tests/sim/test_faults.py), then seeded realistic fabrics under the
# simulated cxi_sweep of `make sim` (build-sim/cxi_sweep, or
# CXD_SIM_SWEEP): 8 at 64 ranks (seed 1, 2 clean) and 4 at 128 (seed 2,
# 1 clean), two simulations at once, under a minute on 2 cores. Checks
# that every clean fabric has no suspect and no outlier, and that recall
# and precision by component are at least FLOOR (0.75: these fabrics
# gave recall 0.80 and 1.00, precision 1.00 and 1.00 at issue 41's end;
# the misses are a fat tree's spine, which no suspect kind names, and
# two switches whose links carry only some routes behind half-rate
# globals, flagged but not named). Skipped (77) without SimGrid or the
# simulated build.
#   bash tests/e2e/test_sim_faults.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=${CXD_SIM_SWEEP:-$SRC/build-sim/cxi_sweep}
FLOOR=${SIM_FAULTS_FLOOR:-0.75}

section "plans and score"
py_ok() { python3 "$@" >"$TMPD/py.out" 2>&1 || { show "$TMPD/py.out"; return 1; }; }
check "faults.py: plans, score, bad input (test_faults.py)" py_ok "$SRC/tests/sim/test_faults.py"
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$SWEEP" ] || skip "$SWEEP not built (make sim)"

# run RANKS SEED TRIALS CLEAN: the benchmark with the floors; exit 3 is a
# floor or a clean fabric not met (the table says which), 1 a failed run
run() {
	section "$3 fabrics at $1 ranks, seed $2"
	python3 "$SRC/sim/faults.py" --sweep "$SWEEP" --ranks "$1" --seed "$2" --trials "$3" \
		--clean "$4" --jobs 2 --timeout 240 --out "$TMPD/f$1" --json "$TMPD/f$1.json" \
		--min-recall "$FLOOR" --min-precision "$FLOOR" --assert-clean >"$TMPD/f$1.out" 2>&1
	local rc=$?
	cat "$TMPD/f$1.out"
	expect_rc 0 $rc "faults.py at $1 ranks (clean fabrics clean, recall and precision >= $FLOOR)"
}
run 64 1 8 2
run 128 2 4 1
finish

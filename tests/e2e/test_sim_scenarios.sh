#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# test-timeout: 900 (the quick suite at 128 ranks, under 2 min on 2 idle cores: room for a loaded host)
# The scenario suite's quick set (sim/scenarios.py --suite quick,
# docs/simulation.md) at 128 simulated ranks on a realistic dragonfly of
# 8 groups (one L1 link's worth between two switches of a group) and a
# fat tree of 8 leaves at 2:1, their topology files with the fabric's
# link lines (platgen --links: suspects and capacity from the routes),
# with the simulated cxi_sweep of `make sim`
# (build-sim/cxi_sweep, or CXD_SIM_SWEEP) and the sweep's default options:
# prints the table (verdict, suspects, flagged links, simulated and wall
# seconds, memory) and checks that every scenario ran to an end with its
# JSON, that ranks sit where the platform and topology file put them, that
# with every link at half speed the links measure half the healthy run's,
# and that every verdict is what the table of scenario_table.py says:
# healthy fabrics (dragonfly, globals at 1/4, fat tree 2:1) PASS; a node,
# a node's latency, a switch's uplinks, a global bundle, a node beside
# another switch's uplinks and the whole fabric named exactly; without
# --topology no innocent node named; seeded jitter INCONCLUSIVE; links
# down in a bundle or a switch's L1 links (alone and beside a slow node)
# named as capacity suspects (docs/sim-down.md). At 128 ranks a switch
# whose links carry bundles' traffic is named alone only from the routes
# (without link lines its bundles were named too). Two
# simulations at once, about 100 s on 2 cores (SIM_RANKS, SIM_SWEEP_ARGS,
# SIM_JOBS change that; SIM_SUITE=full runs all; SIM_LINKS=0 writes host
# lines only). The runner's bad input
# is tests/sim/test_scenarios.py's (in test_sim_platforms).
# Skipped (77) without SimGrid or the simulated build.
#   bash tests/e2e/test_sim_scenarios.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=${CXD_SIM_SWEEP:-$SRC/build-sim/cxi_sweep}
RANKS=${SIM_RANKS:-128}
ARGS=${SIM_SWEEP_ARGS:-}
JOBS=${SIM_JOBS:-2}
SUITE=${SIM_SUITE:-quick}
LINKS=()
[ "${SIM_LINKS:-1}" = 0 ] || LINKS=(--links)
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$SWEEP" ] || skip "$SWEEP not built (make sim)"

section "scenarios at $RANKS ranks"
if python3 "$SRC/sim/scenarios.py" --sweep "$SWEEP" --ranks "$RANKS" --out "$TMPD/sc" \
	--sweep-args "$ARGS" --jobs "$JOBS" --suite "$SUITE" --json "$TMPD/rows.json" "${LINKS[@]}" \
	>"$TMPD/sc.out" 2>&1; then
	pass "the $SUITE suite ran (options: ${ARGS:-the defaults})"
else
	fail "scenarios.py exit $?"
fi
cat "$TMPD/sc.out"
py_ok() { python3 "$@" >"$TMPD/py.out" 2>&1; local rc=$?; cat "$TMPD/py.out"; return $rc; }
check "runs complete, ranks placed, fabric at 1/2 measures 1/2, every verdict right" \
	py_ok "$SRC/tests/sim/scenarios_check.py" "$TMPD/rows.json"
finish

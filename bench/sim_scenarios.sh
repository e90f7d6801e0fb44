#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The scenario suite at scale (docs/simulation.md): the simulated cxi_sweep
# (make sim) over realistic fabrics of RANKS simulated nodes, default 1024,
# with the sweep's default options; the full suite (--suite full, all 26
# scenarios; e2e.test_sim_scenarios runs the quick 14 at 256); two
# simulations at once; the table, with whether each verdict is what the
# suite's table says, goes to bench/results/sim_scenarios_RANKS.md. Skipped
# without SimGrid or the simulated build. Each scenario costs about 64
# times its 128-rank run (the pairs grow as N^2): 8-12 min of CPU at
# 1024 ranks, 2 h at most each.
#   bench/sim_scenarios.sh [SWEEP_BINARY] [RANKS] [SWEEP_ARGS]
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_scenarios "${1:-}"
RANKS=${2:-1024}
ARGS=${3:-}
python3 sim/scenarios.py --links --sweep "$SWEEP" --ranks "$RANKS" --out "$OUT" --suite full \
	--sweep-args "$ARGS" --jobs 2 --timeout 7200 --json "bench/results/sim_scenarios_$RANKS.json" |
	tee "bench/results/sim_scenarios_$RANKS.md"

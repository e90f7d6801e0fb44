#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The scenario suite of issue 29 at scale (docs/simulation.md): the simulated
# cxi_sweep (make sim) over a dragonfly of RANKS simulated nodes, default
# 1024, with the short sweep options of e2e.test_sim_scenarios (the
# defaults send about 10 times the messages); the table goes to
# bench/results/sim_scenarios_RANKS.md. Skipped without SimGrid or the
# simulated build. About 10-15 min a scenario on 2 cores at 1024 ranks
# (64 times the 128-rank test's 7-10 s), 2 h at most each.
#   bench/sim_scenarios.sh [SWEEP_BINARY] [RANKS] [SWEEP_ARGS]
set -u
cd "$(dirname "$0")/.." || exit 1
SWEEP=${1:-build-sim/cxi_sweep}
RANKS=${2:-1024}
ARGS=${3:--s 1048576 -l 4 -n 1 --repeat 2 --lat-iters 4}
if ! command -v smpirun >/dev/null || [ ! -x "$SWEEP" ]; then
	echo "sim_scenarios: skipped (no smpirun, or $SWEEP not built: make sim)"
	exit 0
fi
OUT=$(mktemp -d "${TMPDIR:-/tmp}/cxd-sim.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
mkdir -p bench/results
python3 sim/scenarios.py --sweep "$SWEEP" --ranks "$RANKS" --out "$OUT" \
	--sweep-args "$ARGS" --timeout 7200 --json "bench/results/sim_scenarios_$RANKS.json" |
	tee "bench/results/sim_scenarios_$RANKS.md"

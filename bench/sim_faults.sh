#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The randomized fault benchmark at scale (sim/faults.py, docs/simulation.md):
# seeded realistic fabrics with 1-5 faults of mixed kinds, or none, under
# the simulated cxi_sweep (make sim); recall and precision by component and
# the clean fabrics' suspects and outliers. 24 fabrics (4 clean) at 256
# ranks, 8 (2 clean) at 1,024, two simulations at once, each set twice:
# with places only, then with the fabric's links (--links); the tables go
# to bench/results/sim_faults_RANKS_{places,links}.md, the scores and
# trials to .json. No
# floor here: the figures are the result (e2e.test_sim_faults holds the
# floor at small scale). Skipped without SimGrid or the simulated build.
# A 1,024-rank fabric costs 8-12 min of CPU.
#   bench/sim_faults.sh [SWEEP_BINARY] [RANKS...]
set -u
cd "$(dirname "$0")/.." || exit 1
SWEEP=${1:-build-sim/cxi_sweep}
shift
[ $# -gt 0 ] || set -- 256 1024
. bench/sim_lib.sh
sim_start sim_faults "$SWEEP"
for n in "$@"; do
	if [ "$n" -ge 1024 ]; then trials=8 clean=2; else trials=24 clean=4; fi
	# the same trials twice: places only (suspects from the links' ends),
	# then with the fabric's links (suspects over the routes)
	for mode in places links; do
		extra=()
		[ "$mode" = links ] && extra=(--links)
		python3 sim/faults.py --sweep "$SWEEP" --ranks "$n" --seed 1 \
			--trials "$trials" --clean "$clean" --jobs 2 --timeout 7200 \
			--out "$OUT/$n-$mode" "${extra[@]}" \
			--json "bench/results/sim_faults_${n}_$mode.json" |
			tee "bench/results/sim_faults_${n}_$mode.md"
	done
done

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
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_faults "${1:-}"
shift
[ $# -gt 0 ] || set -- 256 1024
for n in "$@"; do
	if [ "$n" -ge 1024 ]; then trials=8 clean=2; else trials=24 clean=4; fi
	# the same trials twice: places only (suspects from the links' ends),
	# then with the fabric's links (suspects over the routes)
	sim_faults_twice "$n" "$trials" "$clean" 2 "bench/results/sim_faults_$n" \
		"" --links
done

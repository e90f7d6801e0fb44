#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The fault benchmark over drawn shapes (sim/faults.py --shapes,
# docs/simulation.md, issue 49): trial k is the healthy-shape generator's
# shape k (sim/shapes_plan.py) with 1-3 faults of the kinds it holds (a NIC's
# bandwidth or latency, a switch, a gateway switch a whole bundle lands on, a
# bundle slow or with a link down, a spine), the first trials clean. Each set
# runs twice with the same binary: places only (host lines, --no-links), then
# with the fabric's links. The tables by component kind and by shape family,
# and every missed fault and wrong suspect with its platgen line, go to
# bench/results/sim_faults_shapes_RANKS.md; the trials to
# sim_faults_shapes_RANKS_{places,links}.json (faults.py --report prints the
# tables again). No floor here: the figures are the result (the targets,
# precision 0.98 and recall 0.95 by component, are marked in the tables).
# One simulation at a time: a 128-rank fabric takes 5-30 s of CPU, 256 ranks
# about a minute, 1,024 ranks 8-12 minutes. Skipped without SimGrid or the
# simulated build.
#   bench/sim_faults_shapes.sh [SWEEP_BINARY] [RANKS...]
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_faults_shapes "${1:-}"
shift
[ $# -gt 0 ] || set -- 128 256
for n in "$@"; do
	if [ "$n" -ge 1024 ]; then trials=6 clean=1
	elif [ "$n" -ge 256 ]; then trials=12 clean=2
	else trials=30 clean=4; fi
	res=bench/results/sim_faults_shapes_$n
	# --shapes: link lines unless --no-links
	sim_faults_twice "$n" "$trials" "$clean" 1 "$res" --no-links "" --shapes
	{
		echo "# Faults on drawn shapes, $n ranks (bench/sim_faults_shapes.sh)"
		echo
		echo "$trials trials of seed 1 ($clean clean), the same trials twice with the same"
		echo "binary: places only (host lines), then with the fabric's links (--links)."
		for mode in places links; do
			echo
			echo "## $mode"
			echo
			python3 sim/faults.py --report "${res}_$mode.json"
		done
	} >"$res.md"
done

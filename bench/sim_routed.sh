#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The full sweep's bandwidth pass packed by routes against its bound and
# against today's dealt pass, simulated (docs/sweep.md, "With the
# fabric's links"): the scenario suite's healthy realistic dragonfly
# (scenario 1 of sim/scenarios.py) at each rank count, once with the
# fabric's link lines (the routed pass) and once with its places only
# (the dealt pass, as every sweep ran before the routes); the page, its
# data and a plot of time against ranks (with --budget's figures from
# bench/results/sim_budget.json, where that bench ran) go to
# bench/results/sim_routed.{md,json,png} (bench/sim_routed.py). The bound
# is the routed run's own: the time of its other phases, plus the
# busiest link's pairs over its cables at one pair's time alone
# (schedule.routed in the JSON). No floor: the figures are the result
# (e2e.test_sim_scenarios checks the routed pass's rounds and that a
# healthy fabric never finds it crowded). About 45 min on 2 cores, the
# 1,024-rank dealt run the most of it.
#   bench/sim_routed.sh [SWEEP_BINARY]
# SIM_ROUTED_RANKS: the rank counts (default 128 256 512 1024).
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_routed "${1:-}"
res=bench/results/sim_routed
runs=()
for n in ${SIM_ROUTED_RANKS:-128 256 512 1024}; do
	for mode in routed dealt; do
		links=; [ "$mode" = routed ] && links=--links
		python3 sim/scenarios.py --sweep "$SWEEP" --ranks "$n" --only 1 \
			$links --timeout 7200 --out "$OUT/${mode}_$n" \
			--json "$OUT/${mode}_$n.json" >/dev/null &&
			runs+=("$mode=$OUT/${mode}_$n.json")
	done
done
/usr/bin/python3 bench/sim_routed.py --budget bench/results/sim_budget.json \
	--md "$res.md" --json "$res.json" --png "$res.png" "${runs[@]}"

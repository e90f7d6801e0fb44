#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cxi_sweep --budget at scale, simulated (docs/sweep.md "Within a time
# budget", docs/simulation.md): a job of 512 ranks on a 1,024-node
# dragonfly (and, for a spine, a fat tree of as many), its topology with
# link lines; the healthy fabrics, then one fault a trial of each kind
# (sim/faults.py --single: a NIC's bandwidth, its latency, a switch, a
# gateway switch, a bundle slow, a bundle with a link down, a spine), each
# run under --budget 10 and with the full sweep; then healthy whole
# machines of 128 to 1,024 ranks under --budget 120 (SIM_BUDGET_SCALE for
# more; 10,240 when the largest run's memory says it fits here), and the
# full sweep at 128 and 256 for its side of the picture. The page, its
# data and a plot go to bench/results/sim_budget.{md,json,png}
# (bench/sim_budget.py). No floor: the figures are the result
# (e2e.test_sweep_budget holds the small case). Skipped without SimGrid or
# the simulated build. Hours on 2 cores: a full 512-rank sweep takes about
# 4 min on the dragonfly and did not end in 49 on the fat tree, the
# 1,024-rank budget run takes 8 CPU min, and past 1,024 ranks the
# simulation grows as N^3 (bench/results/sim_budget.md, "This run").
#   bench/sim_budget.sh [SWEEP_BINARY]
# Shorter: SIM_BUDGET_TRIALS (default 10: 3 healthy fabrics, 7 faults),
# SIM_BUDGET_FULL_ONLY (the trials the full sweep runs, faults.py --only;
# default all), SIM_BUDGET_SCALE and SIM_BUDGET_FULL (rank counts).
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_budget "${1:-}"
TRIALS=${SIM_BUDGET_TRIALS:-10}
SCALE=${SIM_BUDGET_SCALE:-128 256 512 1024}
FULL=${SIM_BUDGET_FULL:-128 256}
res=bench/results/sim_budget

# the same single-fault trials twice: under the budget, then the full sweep
for mode in budget full; do
	args="--sweep-args=--budget 10"
	[ "$mode" = full ] && args=${SIM_BUDGET_FULL_ONLY:+--only=$SIM_BUDGET_FULL_ONLY}
	python3 sim/faults.py --single --machine 1024 --ranks 512 --links \
		--sweep "$SWEEP" --seed 1 --trials "$TRIALS" --clean 3 --jobs 2 \
		--timeout 7200 --out "$OUT/$mode" ${args:+"$args"} \
		--json "$OUT/faults_$mode.json"
done

# healthy whole machines, one at a time (memory): the suite's dragonfly
scale() { # scale MODE RANKS [SWEEP-ARGS]
	python3 sim/scenarios.py --sweep "$SWEEP" --ranks "$2" --only 1 --links \
		--sweep-args "${3:-}" --timeout 7200 --out "$OUT/$1_$2" \
		--json "$OUT/scale_$1_$2.json" >/dev/null
}
for n in $SCALE; do scale budget "$n" "--budget 120"; done
# 10,240 ranks only when the largest run's peak memory (scenarios.py reads
# it with /usr/bin/time), grown as N^2 to be safe (it grew about as N up
# to 1,024), stays under 80 % of what the host has free
last=$(for n in $SCALE; do echo "$n"; done | sort -n | tail -1)
fits=$(python3 -c 'import json, sys
peak = json.load(open(sys.argv[1]))["rows"][0]["rss_mb"] * 2**20
free = [int(l.split()[1]) * 1024 for l in open("/proc/meminfo") if l.startswith("MemAvailable")][0]
print(int(peak * (10240 / int(sys.argv[2])) ** 2 < 0.8 * free))' \
	"$OUT/scale_budget_$last.json" "$last" 2>/dev/null || echo 0)
if [ "$fits" = 1 ]; then
	scale budget 10240 "--budget 120"
else
	echo "sim_budget: 10,240 ranks not run (memory): projected instead"
fi
for n in $FULL; do scale full "$n"; done

# the planner alone on the suite's dragonfly past what simulates here
# (scenario 1's platform, as scenarios.py makes it), the full weighing
# beside it up to 4,096 (at 10,240 it took 516 CPU s before the lazy
# pick)
plans=()
for n in ${SIM_BUDGET_PLANS:-2048 4096 10240}; do
	geo=$(python3 -c 'import sys; sys.path.insert(0, "sim")
import scenario_table as t
g, s, h = t.geometry(int(sys.argv[1])); print(g, s, h, t.bundle_width(g, s, h))' "$n") || continue
	set -- $geo
	python3 sim/platgen.py dragonfly --groups "$1" --switches "$2" --hosts "$3" \
		--bundle "$4" --links -o "$OUT/plan_$n" >/dev/null || continue
	full=; [ "$n" -le 4096 ] && full=--full
	"${COVER_PLAN_TIME:-build/cover_plan_time}" "$OUT/plan_$n.topo" "$OUT/plan_$n.hosts" \
		$full >"$OUT/plan_$n.json" && plans+=("$OUT/plan_$n.json")
done

# the system Python: it has matplotlib (scripts/deps.sh)
/usr/bin/python3 bench/sim_budget.py --budget "$OUT/faults_budget.json" \
	--full "$OUT/faults_full.json" --scale "$OUT"/scale_budget_*.json \
	--full-scale "$OUT"/scale_full_*.json --plans "${plans[@]}" \
	--md "$res.md" --json "$res.json" --png "$res.png"

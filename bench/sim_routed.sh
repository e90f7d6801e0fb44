#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The routed main pass (issue 50, docs/sim-narrow.md): each narrow
# simulated dragonfly swept twice by the simulated cxi_sweep (make sim),
# with --topology's places only (the schedule without routes: bandwidth
# dealt, a group's pairs across capped by its switch links) and with its
# link lines (routed), every other option the default; the main plan's
# simulated seconds of each (the JSON's schedule.main_s) against the
# routes' bound (bench/sim_routed.py says how it is computed). The table
# goes to bench/results/sim_routed.md. Skipped without SimGrid or the
# simulated build. Each platform is "RANKS:platgen dragonfly words";
# SIM_ROUTED_ONLY=1 sweeps the routed one alone (1,024 ranks: docs/
# sim-narrow.md gives the schedule without routes, 657 s of wall time).
#   bench/sim_routed.sh [SWEEP_BINARY] [PLATFORM...]
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_routed "${1:-}"
shift $(($# > 0 ? 1 : 0))
if [ $# -eq 0 ]; then
	set -- "128:--groups 8 --switches 4 --hosts 4 --bundle 2" \
		"256:--groups 16 --switches 4 --hosts 4 --bundle 1"
fi
CFG=(--cfg=smpi/test:0 --cfg=smpi/grow-injected-times:no
	--cfg=smpi/host-speed:1Gf --cfg=smpi/display-timing:yes)
RES=bench/results/sim_routed${SIM_ROUTED_ONLY:+_only}.md
{
	echo "| platform | without routes, s | routed, s | bound, s | rounds | bound rounds | latency rounds, s | routed / bound | verdicts |"
	echo "|---|---|---|---|---|---|---|---|---|"
} >"$RES"
for p in "$@"; do
	n=${p%%:*}
	words=${p#*:}
	pre="$OUT/p$n"
	# shellcheck disable=SC2086 # words: platgen's
	python3 sim/platgen.py dragonfly $words --links -o "$pre" >/dev/null || exit 1
	grep -v -E '^(link|route) ' "$pre.topo" >"$pre.places.topo"
	modes="places routed"
	[ -n "${SIM_ROUTED_ONLY:-}" ] && modes=routed
	for mode in $modes; do
		topo="$pre.topo"
		[ "$mode" = places ] && topo="$pre.places.topo"
		smpirun -np "$n" -platform "$pre.xml" -hostfile "$pre.hosts" \
			"${CFG[@]}" "$SWEEP" --engine mpi --json "$pre.$mode.json" \
			--topology "$topo" >"$pre.$mode.out" 2>"$pre.$mode.err" ||
			[ -s "$pre.$mode.json" ] || {
			echo "sim_routed: $n ranks, $mode: no JSON ($pre.$mode.err)"
			tail -5 "$pre.$mode.err"
			exit 1
		}
	done
	python3 bench/sim_routed.py "$n ranks: $words" "$pre.places.json" \
		"$pre.routed.json" | tee -a "$RES"
done

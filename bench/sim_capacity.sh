#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Capacity lost behind redundancy (issue 42, docs/sim-down.md) at scale: the
# simulated cxi_sweep (make sim) over fabrics of RANKS simulated nodes,
# default 1024, in the scenarios with links down (a bundle, a switch's L1
# links, a fat tree leaf's uplinks, a NIC beside a bundle) and the healthy
# shapes they are judged beside (sim/scenarios.py --suite capacity). The
# topology files state the designed widths (--state-widths), so that the
# capacity pass expects width x a pair's rate; bench/sim_scenarios.sh runs
# the same scenarios without them (expected: the typical unit). Two
# simulations at once; the table and the checks of tests/sim/
# scenarios_check.py (each verdict as the table says) and the capacity
# table (bench/capacity_table.py: what each kind of unit carried) go to
# bench/results/sim_capacity_RANKS.md. Skipped without SimGrid or the
# simulated build. About as long as six scenarios of sim_scenarios.sh.
#   bench/sim_capacity.sh [SWEEP_BINARY] [RANKS] [SWEEP_ARGS]
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_capacity "${1:-}"
RANKS=${2:-1024}
ARGS=${3:-}
case $RANKS in
'' | *[!0-9]*)
	echo "sim_capacity: RANKS '$RANKS' is not a number of ranks" >&2
	exit 2
	;;
esac
MD=bench/results/sim_capacity_$RANKS.md
python3 sim/scenarios.py --links --sweep "$SWEEP" --ranks "$RANKS" --out "$OUT" --suite capacity \
	--state-widths --sweep-args "$ARGS" --jobs 2 --timeout 7200 \
	--json "bench/results/sim_capacity_$RANKS.json" | tee "$MD"
rc=${PIPESTATUS[0]}
{
	echo
	echo '```'
	python3 tests/sim/scenarios_check.py "bench/results/sim_capacity_$RANKS.json"
	echo '```'
	echo
	python3 bench/capacity_table.py "bench/results/sim_capacity_$RANKS.json"
} | tee -a "$MD"
exit "$rc"

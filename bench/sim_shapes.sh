#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Healthy fabrics of drawn shapes at scale (sim/shapes.py, docs/simulation.md,
# issue 49): COUNT dragonflies and fat trees drawn from seed 1 (where global
# links land, L1 and bundle widths, tapers, partly filled switches, hashed
# fat tree routes, jobs on part of a machine), each job of RANKS ranks,
# default 200 of 128, swept by the simulated cxi_sweep (make sim) with the
# default options and --topology from platgen --links, two simulations at
# once. Every one should PASS with no suspect and no outlier; the table and
# the fabrics that do not go to bench/results/sim_shapes_RANKS.md, the rows
# to .json. No floor here: the figures are the result (e2e.test_sim_shapes
# holds the property at 32-64 ranks). Skipped without SimGrid or the
# simulated build. A 128-rank fabric costs about 5-15 s of CPU.
#   bench/sim_shapes.sh [SWEEP_BINARY] [COUNT] [RANKS] [SHAPES_ARGS]
set -u
. "$(dirname "$0")/sim_lib.sh"
sim_start sim_shapes "${1:-}"
COUNT=${2:-200}
RANKS=${3:-128}
ARGS=${4:-}
# shellcheck disable=SC2086 # ARGS: words
python3 sim/shapes.py --sweep "$SWEEP" --count "$COUNT" --seed 1 --ranks "$RANKS" \
	--jobs 2 --timeout 3600 --out "$OUT" --json "bench/results/sim_shapes_$RANKS.json" $ARGS |
	tee "bench/results/sim_shapes_$RANKS.md"

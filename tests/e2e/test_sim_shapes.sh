#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# test-timeout: 900 (40 simulations of 32-64 ranks, about 1 min on 2 idle cores: room for a loaded host)
# Healthy fabrics of any shape must PASS (issue 49; sim/shapes.py,
# docs/simulation.md): 40 dragonflies and fat trees drawn from seed 1
# (global links landing on one, K or all switches of a group, L1 of 1-3
# links, bundles of 1-4 links and of fractional width, globals at 1/4 to
# full, partly filled and empty switches, fat trees 1:1 to 3:1 with
# d-mod-k or hashed routes, jobs on a random part of the machine), each
# with 32-64 ranks, written by sim/platgen.py --links and swept by the
# simulated cxi_sweep of `make sim` (build-sim/cxi_sweep, or
# CXD_SIM_SWEEP) with the default options and --topology, two at once.
# Checks that every one says PASS with no suspect and no outlier (a
# failure lists the fabric's verdict line, suspects, flagged links and
# the platgen and smpirun commands that make it again), and that the
# link lines of every topology file are its platform's
# (tests/sim/check_links.py). SIM_SHAPES_COUNT, SIM_SHAPES_SEED,
# SIM_SHAPES_RANKS and SIM_JOBS change the draw, SIM_SHAPES_ARGS adds
# shapes.py options (--no-links: host lines only). The runner's bad input
# is tests/sim/test_shapes.py's (in test_sim_platforms). Skipped (77)
# without SimGrid or the simulated build.
#   bash tests/e2e/test_sim_shapes.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=${CXD_SIM_SWEEP:-$SRC/build-sim/cxi_sweep}
COUNT=${SIM_SHAPES_COUNT:-40}
SEED=${SIM_SHAPES_SEED:-1}
RANKS=${SIM_SHAPES_RANKS:-32-64}
JOBS=${SIM_JOBS:-2}
ARGS=${SIM_SHAPES_ARGS:-}
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$SWEEP" ] || skip "$SWEEP not built (make sim)"

section "$COUNT healthy fabrics of drawn shapes, $RANKS ranks, seed $SEED"
# shellcheck disable=SC2086 # ARGS: words
python3 "$SRC/sim/shapes.py" --sweep "$SWEEP" --count "$COUNT" --seed "$SEED" \
	--ranks "$RANKS" --jobs "$JOBS" --timeout 600 --out "$TMPD/sh" \
	--json "$TMPD/rows.json" $ARGS >"$TMPD/sh.out" 2>&1
rc=$?
cat "$TMPD/sh.out"
expect_rc 0 $rc "every fabric PASS with no suspect and no outlier"

section "link lines against the platforms"
case " $ARGS " in *" --no-links "*) finish ;; esac
bad=0
for k in $(seq 1 "$COUNT"); do
	[ -f "$TMPD/sh/s$k.xml" ] || { fail "shape $k: no platform written"; continue; }
	python3 "$SRC/tests/sim/check_links.py" "$TMPD/sh/s$k" >"$TMPD/cl.out" ||
		{ bad=$((bad + 1)); fail "shape $k: $(head -1 "$TMPD/cl.out")"; show "$TMPD/cl.out"; }
done
[ "$bad" -eq 0 ] && pass "the link lines of all $COUNT topology files are their platforms'"
finish

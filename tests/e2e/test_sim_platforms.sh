#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# The simulated fabrics of sim/platgen.py (SimGrid SMPI, docs/simulation.md):
#   1. the generator's outputs and bad input (tests/sim/test_platgen.py),
#      and the scenario runner's parts that need no simulation
#      (tests/sim/test_scenarios.py);
#   2. SimGrid's route for every host pair equals the intended one (minimal
#      for the dragonfly, d-mod-k for the fat tree), on several shapes
#      (tests/sim/routes.cpp prints them, tests/sim/check_routes.py compares),
#      also with links down (--down: rerouted onto the survivors);
#   3. what the simulator must show (tests/sim/probe.c under smpirun, one
#      pair at a time): a healthy pair gets the platform's rate (1 %) and
#      latency (2 %), a slowed link (node at 75 %, a switch's uplinks, a
#      global bundle, a spine at 50 %, the whole fabric at 1/2) is slower
#      by the factor set for a pair crossing it, and a pair that does not
#      cross it is unchanged; with links down (--down) a pair alone keeps
#      its rate, and several at once (probe -a) over a bundle, an L1
#      connection or a leaf's uplinks carry less than over healthy ones.
#      A few seconds. Skipped (77) without SimGrid.
#   bash tests/e2e/test_sim_platforms.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SIM=$SRC/tests/sim
for t in smpicc smpirun g++; do
	command -v "$t" >/dev/null || skip "$t not found (scripts/deps.sh installs libsimgrid-dev)"
done

section "generator"
py_ok() { python3 "$@" >"$TMPD/py.out" 2>&1 || { show "$TMPD/py.out"; return 1; }; }
check "platgen.py outputs and bad input (test_platgen.py)" py_ok "$SIM/test_platgen.py"
check "scenarios.py: shapes, scenarios, summaries, bad input (test_scenarios.py)" \
	py_ok "$SIM/test_scenarios.py"

section "routes"
check "routes.cpp builds" g++ -O1 -o "$TMPD/routes" "$SIM/routes.cpp" -lsimgrid
shapes=(
	"dragonfly --groups 4 --switches 3 --hosts 2 --bundle 2"
	"dragonfly --groups 5 --switches 4 --hosts 3 --bundle 3"
	"dragonfly --groups 3 --switches 2 --hosts 2 --bundle 5"
	"dragonfly --groups 8 --switches 4 --hosts 4 --bundle 2"
	"fattree --leaves 4 --hosts 5 --spines 3"
	"fattree --leaves 3 --hosts 2 --spines 4"
	"fattree --leaves 8 --hosts 16 --spines 4"
	"dragonfly --groups 4 --switches 3 --hosts 2 --bundle 3 --down bundle:g1-g0=2 --down bundle:g2-g3=1"
	"dragonfly --groups 3 --switches 4 --hosts 2 --bundle 4 --local 3 --down switch:g1s1=1"
	"fattree --leaves 4 --hosts 4 --spines 4 --down leaf:leaf1=2 --down leaf:leaf3=1"
)
for s in "${shapes[@]}"; do
	# shellcheck disable=SC2086
	python3 "$SRC/sim/platgen.py" $s -o "$TMPD/shape" >/dev/null &&
		"$TMPD/routes" "$TMPD/shape.xml" >"$TMPD/shape.routes" 2>"$TMPD/shape.err" ||
		{ fail "$s: no routes"; show "$TMPD/shape.err"; continue; }
	# shellcheck disable=SC2086
	if python3 "$SIM/check_routes.py" "$TMPD/shape.routes" $s -o "$TMPD/x" >"$TMPD/cr.out"; then
		pass "$s: $(head -1 "$TMPD/cr.out")"
	else
		fail "$s: $(head -1 "$TMPD/cr.out")"
		show "$TMPD/cr.out"
	fi
done

section "probe: isolated pairs on healthy and slowed links"
check "probe.c builds with smpicc" smpicc -O2 -o "$TMPD/probe" "$SIM/probe.c"
mkdir -p "$TMPD/probe.d"
if python3 "$SIM/probe_test.py" "$TMPD/probe" "$TMPD/probe.d" >"$TMPD/probe.out" 2>&1; then
	pass "$(grep -c '^ok' "$TMPD/probe.out") probe checks: $(tail -1 "$TMPD/probe.out")"
	grep -E 'bandwidth [0-9.e+]* B/s|^ok   aggregate' "$TMPD/probe.out" | sed 's/^ok  /      /'
else
	fail "probe checks: $(tail -1 "$TMPD/probe.out")"
	grep -v '^ok' "$TMPD/probe.out" | head -40
fi
finish

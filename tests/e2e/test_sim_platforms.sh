#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# The simulated fabrics of sim/platgen.py (SimGrid SMPI, docs/simulation.md):
#   1. the generator's outputs and bad input (tests/sim/test_platgen.py,
#      test_platgen_shapes.py), and the scenario and shape runners' parts
#      that need no simulation (tests/sim/test_scenarios.py, test_shapes.py);
#   2. SimGrid's route for every host pair equals the intended one (minimal
#      for the dragonfly, d-mod-k or hashed for the fat tree), on several
#      shapes (tests/sim/routes.cpp prints them, tests/sim/check_routes.py
#      compares), also with links down (--down: rerouted onto the
#      survivors), partly filled switches, global links landing on one or
#      K switches, and on 8 shapes drawn by sim/shapes.py; and the link
#      lines of --links are the platform's (tests/sim/check_links.py);
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
check "platgen.py shape options and link lines, bad input (test_platgen_shapes.py)" \
	py_ok "$SIM/test_platgen_shapes.py"
check "shapes.py: draws, table, bad input (test_shapes.py)" py_ok "$SIM/test_shapes.py"

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
	"dragonfly --groups 5 --switches 4 --hosts 3 --bundle 4 --global-landing one --local 2 --fill g0s1=0 --fill g2s3=1"
	"dragonfly --groups 4 --switches 4 --hosts 2 --bundle 3 --global-landing 2 --fill g1s0=0 --fill g1s1=0 --job 20"
	"dragonfly --groups 3 --switches 2 --hosts 4 --bundle 4 --global-landing one --global-bw 2 --down bundle:g0-g2=2"
	"fattree --leaves 4 --hosts 5 --spines 3 --ft-routes hashed --fill leaf2=2"
	"fattree --leaves 4 --hosts 4 --spines 4 --ft-routes hashed --down leaf:leaf1=2"
)
# routes SHAPE NAME: SimGrid's routes are the intended ones and, without
# --down (the link lines list the design), the --links lines are the
# platform's links
routes() {
	local s=$1 lk=""
	# shellcheck disable=SC2086
	python3 "$SRC/sim/platgen.py" $s --links -o "$TMPD/shape" >/dev/null &&
		"$TMPD/routes" "$TMPD/shape.xml" >"$TMPD/shape.routes" 2>"$TMPD/shape.err" ||
		{ fail "$2: no routes"; show "$TMPD/shape.err"; return; }
	case " $s " in
	*" --down "*) ;;
	*) python3 "$SIM/check_links.py" "$TMPD/shape" >"$TMPD/cl.out" || lk=bad ;;
	esac
	# shellcheck disable=SC2086
	if python3 "$SIM/check_routes.py" "$TMPD/shape.routes" $s -o "$TMPD/x" >"$TMPD/cr.out" &&
		[ -z "$lk" ]; then
		pass "$2: $(head -1 "$TMPD/cr.out")"
	else
		fail "$2: $(head -1 "$TMPD/cr.out")"
		show "$TMPD/cr.out"
		[ -z "$lk" ] || show "$TMPD/cl.out"
	fi
}
for s in "${shapes[@]}"; do
	routes "$s" "$s"
done

section "routes and links of drawn shapes (sim/shapes.py --list)"
python3 "$SRC/sim/shapes.py" --list --count 8 --seed 1 --ranks 32-64 >"$TMPD/drawn" ||
	fail "shapes.py --list"
while read -r k n words; do
	routes "$words" "drawn shape $k ($n ranks)"
done <"$TMPD/drawn"

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

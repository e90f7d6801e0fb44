#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# cxi_sweep --budget (docs/sweep.md, "Within a time budget") under SimGrid
# with the simulated cxi_sweep of `make sim` (build-sim/cxi_sweep, or
# CXD_SIM_SWEEP): 64 ranks on sim/platgen.py's 4 x 4 x 4 dragonfly whose
# topology file has the fabric's link lines. Checks (py/sweep_budget.py)
# that a healthy fabric PASSes with no suspect and only the covering
# plan's pairs measured (at most a tenth of the 2016, read from the JSON
# and its matrix, in rounds with no rank twice, within the budget); a
# NIC at 75 % FAILs naming that rank alone; a switch's links at 50 %
# FAIL naming that switch alone; the same topology without its link
# lines runs ring shifts that name the slow NIC. A job of 32 of the 64
# hosts (platgen --job; the topology file lists the whole machine) PASSes
# healthy with no suspect, and names a NIC of the job at 75 % alone. On a
# fat tree (8 leaves of 8 hosts, 4 spines, each uplink one node link wide,
# d-mod-k: no pair crosses a spine for sure), a spine at 50 % FAILs naming
# that spine as a way, among the spines it cannot be told from, and no
# NIC, though every bad pair's sure crossings are NICs and leaves. A
# narrow healthy fabric (one switch a group, three global cables carrying
# a node link and a half) PASSes: under --budget bandwidth is judged by
# class. A budget too small is
# refused before measuring (exit 2, no report, no JSON) naming the
# budget it needs, and that budget then runs; a budget that is not a
# positive number, or --budget with --health, exits 2 naming them. With
# the widths stated the capacity pass follows the plan within the budget,
# and where the budget leaves it too little time it says so and does not
# run.
# About 20 s on 2 cores (the job of 32 adds 2, the fat tree 3). Skipped (77) without
# SimGrid or the simulated build.
#   bash tests/e2e/test_sweep_budget.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SWEEP=${CXD_SIM_SWEEP:-$SRC/build-sim/cxi_sweep}
BUDGET=${SIM_BUDGET:-60}
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$SWEEP" ] || skip "$SWEEP not built (make sim)"

# plat NAME [platgen options]: a 4 x 4 x 4 dragonfly with link lines
plat() {
	local name=$1; shift
	python3 "$SRC/sim/platgen.py" dragonfly --groups 4 --switches 4 --hosts 4 --links \
		"$@" -o "$TMPD/$name" >"$TMPD/$name.gen" 2>&1 || { show "$TMPD/$name.gen"; return 1; }
}
# sim NP PLATFORM OUT [cxi_sweep options]: one simulated run, its exit status
sim() {
	local np=$1 p=$2 out=$3; shift 3
	smpirun -np "$np" -platform "$TMPD/$p.xml" -hostfile "$TMPD/$p.hosts" \
		--cfg=smpi/test:0 --cfg=smpi/grow-injected-times:no --cfg=smpi/host-speed:1Gf \
		"$SWEEP" --engine mpi "$@" >"$TMPD/$out.out" 2>"$TMPD/$out.err"
}
# judged NAME PLATFORM TOPO CHECK...: a --budget run of NP ranks (64 unless
# set) and its JSON's checks
judged() {
	local name=$1 p=$2 topo=$3 rc; shift 3
	sim "${NP:-64}" "$p" "$name" --topology "$TMPD/$topo.topo" --budget "$BUDGET" \
		--json "$TMPD/$name.json"
	rc=$?
	case "$*" in *PASS*) want=0 ;; *) want=3 ;; esac
	expect_rc "$want" "$rc" "$name: cxi_sweep --budget $BUDGET" || show "$TMPD/$name.err"
	if python3 "$SRC/tests/e2e/py/sweep_budget.py" "$TMPD/$name.json" "$@" \
		>"$TMPD/$name.chk" 2>&1; then
		pass "$name: $(head -1 "$TMPD/$name.chk")"
	else
		fail "$name: the JSON's checks"; show "$TMPD/$name.chk" "$TMPD/$name.out"
	fi
}

section "platforms"
check "healthy, nid0021 at 75 %, switch g1s1's links at 50 %" eval \
	'plat ok && plat nic --slow node:nid0021=0.75 && plat sw --slow switch:g1s1=0.5'
grep -v '^\(link\|route\|switch\) ' "$TMPD/nic.topo" >"$TMPD/places.topo"

section "within the budget"
judged healthy ok ok --verdict PASS --no-suspect
judged nic nic nic --verdict FAIL --suspect rank:21
judged switch sw sw --verdict FAIL --suspect switch:g1s1
judged ring nic places --verdict FAIL --plan ring --max-share 0.5 --suspect rank:21
expect_line "$TMPD/ring.out" "cannot localize beyond NICs" "the ring's report says it names NICs only"

section "a fat tree's slow spine"
if python3 "$SRC/sim/platgen.py" fattree --leaves 8 --hosts 8 --spines 4 --uplink 1 --links \
	--slow spine:spine1=0.5 -o "$TMPD/spine" >"$TMPD/spine.gen" 2>&1; then
	judged spine spine spine --verdict FAIL --way switch:spine1
	expect_line "$TMPD/spine.out" "the fabric's hash picks the way" "the report says why the spines are alike"
else
	fail "platgen fattree: no platform"; show "$TMPD/spine.gen"
fi

section "a narrow healthy fabric"
# 5 groups of one switch, 3 global cables between two groups carrying a
# node link and a half together: a pair between groups runs far below
# one on a switch by design, and the full sweep says PASS; the plan,
# with far more pairs on one switch than the job, judges each pair by
# its own class, and must too (a false FAIL before)
if python3 "$SRC/sim/platgen.py" dragonfly --groups 5 --switches 1 --hosts 16 --bundle 3 \
	--global-bw 1.5 --fill g0s0=11 --fill g1s0=15 --fill g4s0=8 --links -o "$TMPD/narrow" \
	>"$TMPD/narrow.gen" 2>&1; then
	NP=66 judged narrow narrow narrow --verdict PASS --no-suspect --max-share 0.1
	expect_line "$TMPD/narrow.out" "bandwidth by class" "the report gives each class's typical link"
else
	fail "platgen narrow: no platform"; show "$TMPD/narrow.gen"
fi

section "a job of 32 of the 64 hosts"
# rank 5 runs on the hostfile's sixth host: slow that one, a host of the job
if plat job --job 32 --job-seed 3 && job5=$(sed -n 6p "$TMPD/job.hosts") &&
	plat jobnic --job 32 --job-seed 3 --slow "node:$job5=0.75"; then
	NP=32 judged job-healthy job job --verdict PASS --no-suspect --max-share 0.5
	NP=32 judged job-nic jobnic jobnic --verdict FAIL --suspect rank:5 --max-share 0.5
else
	fail "platgen --job 32: no platforms"
fi

section "a budget too small, refused before measuring"
sim 64 ok small --topology "$TMPD/ok.topo" --budget 0.001 --json "$TMPD/small.json"
expect_rc 2 $? "--budget 0.001"
expect_line "$TMPD/small.err" "budget 0.001 s is too short.*give --budget [0-9.]+ or more" \
	"the refusal names the budget it needs"
check "nothing measured past the timed pair: no report, no JSON" \
	eval '! grep -q "^Verdict" "$TMPD/small.out" && [ ! -e "$TMPD/small.json" ]'
need=$(sed -n 's/.*give --budget \([0-9.]*\) or more.*/\1/p' "$TMPD/small.err")
if [ -n "$need" ]; then
	sim 64 ok need --topology "$TMPD/ok.topo" --budget "$need"
	expect_rc 0 $? "--budget $need, the budget it named, runs" || show "$TMPD/need.err"
fi

section "the capacity pass within the budget"
# With the widths stated (platgen --state-widths) the capacity pass loads
# every bundle and switch pair after the plan; with the budget only just
# enough for the plan, it does not run, and says so (the job is never held
# past the budget for it)
if plat okw --state-widths; then
	sim 64 okw okw --topology "$TMPD/okw.topo" --budget "$BUDGET" --json "$TMPD/okw.json"
	expect_rc 0 $? "--budget $BUDGET, widths stated" || show "$TMPD/okw.err"
	check "the capacity pass ran, its bundles loaded with more than one pair" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]
load = {k["scope"]: k["load_pairs"] for k in c["classes"]}
sys.exit(0 if c["ran"] and load.get("bundle", 0) >= 2 else 1)' "$TMPD/okw.json"
	sim 64 okw okw-small --topology "$TMPD/okw.topo" --budget 0.001
	need=$(sed -n 's/.*give --budget \([0-9.]*\) or more.*/\1/p' "$TMPD/okw-small.err")
	if [ -n "$need" ]; then
		sim 64 okw okw-need --topology "$TMPD/okw.topo" --budget "$need"
		expect_rc 0 $? "--budget $need, widths stated" || show "$TMPD/okw-need.err"
		expect_line "$TMPD/okw-need.out" "^Capacity: not run: the budget's time left" \
			"the pass that would not fit says so"
	else
		fail "--budget 0.001, widths stated: no budget named"; show "$TMPD/okw-small.err"
	fi
else
	fail "platgen --state-widths: no platform"
fi

section "bad values"
for v in abc 0 -5; do
	sim 2 ok "bad$v" --budget "$v"
	expect_rc 2 $? "--budget $v"
	expect_line "$TMPD/bad$v.err" "Invalid time budget: '$v'" "--budget $v named"
done
sim 2 ok health --budget 10 --health
expect_rc 2 $? "--budget with --health"
expect_line "$TMPD/health.err" "budget and --health do not go together" "both named"
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (no traffic, no timing: the plans only)
# cxi_sweep --budget's planner alone (bench/src/cover_plan_time.c, the
# program bench/sim_budget.sh times at scales too large to simulate) on
# sim/platgen.py's machines with link lines: a dragonfly of 128 hosts, a
# job of 96 of its 256 hosts, and fat trees (d-mod-k, with a job of 48
# of 128 hosts, and hashed). On each, the lazy pick's plan must be the
# full weighing's pair for pair (exit 0, "same": true), with pairs in
# rounds; a missing hostfile and a usage error exit 2. About 2 s.
#   bash tests/e2e/test_cover_plan.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PROG=$BUILD/cover_plan_time
[ -x "$PROG" ] || fail "$PROG not built"

# same NAME PLATGEN-ARGS...: the machine made, its plan compared
same() {
	local name=$1; shift
	if ! python3 "$SRC/sim/platgen.py" "$@" --links -o "$TMPD/$name" >"$TMPD/$name.gen" 2>&1; then
		fail "$name: platgen"; show "$TMPD/$name.gen"; return
	fi
	if "$PROG" "$TMPD/$name.topo" "$TMPD/$name.hosts" --full >"$TMPD/$name.json" 2>"$TMPD/$name.err" &&
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["same"] and d["pairs"] > 0 and d["rounds"] > 0 else 1)' "$TMPD/$name.json"; then
		pass "$name: the lazy plan is the full one: $(cat "$TMPD/$name.json")"
	else
		fail "$name: the plans differ or none"; show "$TMPD/$name.json" "$TMPD/$name.err"
	fi
}

section "lazy pick = full weighing"
same df128 dragonfly --groups 8 --switches 4 --hosts 4
same dfjob dragonfly --groups 8 --switches 4 --hosts 8 --job 96 --job-seed 2
same ft fattree --leaves 8 --hosts 16 --spines 4
same ftjob fattree --leaves 8 --hosts 16 --spines 4 --job 48 --job-seed 5
same fthash fattree --leaves 6 --hosts 8 --spines 3 --ft-routes hashed

section "bad input"
"$PROG" "$TMPD/df128.topo" "$TMPD/none.hosts" >/dev/null 2>"$TMPD/nohosts.err"
expect_rc 2 $? "a missing hostfile"
"$PROG" "$TMPD/df128.topo" >/dev/null 2>"$TMPD/usage.err"
expect_rc 2 $? "one argument"
finish

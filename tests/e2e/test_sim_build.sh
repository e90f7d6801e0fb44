#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# The simulated build of cxi_sweep (make sim: build-sim/, or CXD_SIM_DIR)
# on a small dragonfly from sim/platgen.py (16 hosts):
#   1. no libfabric inside (readelf -d), and its -h says what differs;
#   2. bad input, exit 2 and the value named: --engine fabric, an
#      unknown engine, a topology that names no host of the platform,
#      --matrix, a window (-s x -l, sent as one message) over an MPI count;
#   3. the MPI engine under plain smpirun: complete matrices, the report
#      naming SMPI; a deterministic simulator gives almost no noise, and the
#      test copy's CXD_TEST_JITTER=8 gives noise near 8 % and an
#      INCONCLUSIVE verdict (the noise rules at work), the same figures
#      on a second run with the same seed;
#   4. the shared links' widths: measured on narrow platforms (a group's
#      L1 links 1 and 3 node links wide, a 2:1 fat tree's 4 uplinks), and
#      a width the topology file states shown as stated, not measured.
# Skipped (77) without SimGrid or the simulated build.
#   bash tests/e2e/test_sim_build.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${CXD_SIM_DIR:-$SRC/build-sim}
BIN=$SIM/cxi_sweep
TBIN=$SIM/standin/cxi_sweep
PY=/usr/bin/python3
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$BIN" ] || skip "$BIN not built (make sim)"
[ -x "$TBIN" ] || die "$TBIN (the test copy) not built"
P=$TMPD/df
"$PY" "$SRC/sim/platgen.py" dragonfly --groups 2 --switches 2 --hosts 4 -o "$P" \
	>/dev/null || die "platgen.py failed"
SMPI=(smpirun -np 16 -platform "$P.xml" -hostfile "$P.hosts"
      --cfg=smpi/simulate-computation:no)
SMALL=(--lat-iters 8 --repeat 3)

section "the build"
check "no libfabric among its libraries" \
	bash -c "! readelf -d '$BIN' | grep -q 'Shared library: \[libfabric'"
check "it needs SimGrid" bash -c "readelf -d '$BIN' | grep -q 'libsimgrid'"
run_capture help 60 "${SMPI[@]}" "$BIN" -h
check "-h says it is the simulated build" grep -q "This is the simulated build" "$OUT"
check "-h says --matrix is refused" grep -q -- "--matrix is refused" "$OUT"
check "-h says a window is one message" grep -q "a bandwidth window travels as one" "$OUT"

section "bad input"
refused() { # NAME MESSAGE ARGS...
	local name=$1 msg=$2
	shift 2
	run_capture "$name" 60 "${SMPI[@]}" "$BIN" "$@"
	check "$name: exit 2 (got $RC)" test "$RC" = 2
	check "$name: names '$msg'" grep -qF -- "$msg" "$ERR"
}
refused fabric "--engine fabric: this is the simulated build" --engine fabric
refused unknown "Invalid engine 'verbs': this build has mpi" --engine verbs
printf 'x1000c0r0n0 x1000c0r0 g0\nx1000c0r0n1 x1000c0r0 g0\n' >"$TMPD/other.topo"
refused topology "no line places rank 0 (host nid0000" --topology "$TMPD/other.topo"
printf 'width local 0\n' | cat - "$P.topo" >"$TMPD/zero.topo"
refused width "zero.topo:1: width local '0': expected a positive integer" \
	--topology "$TMPD/zero.topo"
refused matrix "--matrix: the simulated build cannot write it" --matrix "$TMPD/m.bin"
# it sends a window as one message, whose size is an MPI count
refused window "-s 1073741824 with -l 4: a window of 4294967296 bytes" \
	--engine mpi -s 1073741824 -l 4

section "a sweep, deterministic and with jitter"
run_capture plain 120 "${SMPI[@]}" "$BIN" --engine mpi "${SMALL[@]}" \
	--topology "$P.topo" --json "$TMPD/plain.json"
check "plain: exit 0 (PASS)" grep -q "^Verdict: PASS" "$OUT"
if out=$("$PY" "$E2E_PY/sweep_matrices.py" "$TMPD/plain.json" 16); then
	pass "plain: 16x16 matrices complete and positive"
else
	fail "plain: $out"
fi
check "plain: the report names SMPI" grep -q "engine mpi (SMPI Version 3" "$OUT"
noise() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["resolution"]["bw"]["noise_pct"])' "$1"; }
n=$(noise "$TMPD/plain.json")
# Only the other pairs' phases move a figure between repeats.
check "plain: noise $n %, under 0.1 (a simulator repeats itself)" awk -v n="$n" 'BEGIN { exit !(n < 0.1) }'
for k in 1 2; do
	run_capture "jitter$k" 120 env CXD_TEST_JITTER=8:5 "${SMPI[@]}" "$TBIN" \
		--engine mpi "${SMALL[@]}" --json "$TMPD/jitter$k.json"
done
n=$(noise "$TMPD/jitter1.json")
check "jitter 8 %: bandwidth noise $n %, between 4 and 16" \
	awk -v n="$n" 'BEGIN { exit !(n >= 4 && n <= 16) }'
check "jitter: INCONCLUSIVE (the noise hides what the rules can see)" \
	grep -q "^Verdict: INCONCLUSIVE" "$OUT"
check "jitter: the same seed gives the same matrices" \
	"$PY" -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(a["bw_mb_s"] != b["bw_mb_s"] or a["lat_us"] != b["lat_us"])' \
	"$TMPD/jitter1.json" "$TMPD/jitter2.json"

section "link widths"
width() { # JSON KIND FIELD: the widths' field, or "none"
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))["widths"]
print(d.get(sys.argv[2], {}).get(sys.argv[3], "none"))' "$@"; }
widths() { # NAME PLATGEN-ARGS...: a sweep on that platform, its JSON
	"$PY" "$SRC/sim/platgen.py" "${@:2}" -o "$TMPD/$1" >/dev/null ||
		die "platgen.py $* failed"
	run_capture "$1" 120 smpirun -np 16 -platform "$TMPD/$1.xml" \
		-hostfile "$TMPD/$1.hosts" --cfg=smpi/simulate-computation:no \
		"$BIN" --engine mpi "${SMALL[@]}" --topology "$TMPD/$1.topo" \
		--json "$TMPD/$1.json"
}
for l in 1 3; do
	widths "l1x$l" dragonfly --groups 2 --switches 2 --hosts 4 --local $l
	check "L1 $l node link(s) wide: local width $l, measured" test \
		"$(width "$TMPD/l1x$l.json" local pairs) $(width \
		"$TMPD/l1x$l.json" local source)" = "$l measured"
done
check "the report says it" grep -q "^Widths: between two switches of a group 3 pairs (measured: g0s0-g0s1, 4 at once ran at" "$OUT"
widths tree fattree --leaves 2 --hosts 8 --spines 4 --taper 0.5
check "fat tree 2:1, 4 uplinks: uplink width 4" \
	test "$(width "$TMPD/tree.json" uplink pairs)" = 4
check "fat tree: no local width" test "$(width "$TMPD/tree.json" local pairs)" = none
echo "width local 2" >>"$TMPD/l1x1.topo"
run_capture stated 120 smpirun -np 16 -platform "$TMPD/l1x1.xml" \
	-hostfile "$TMPD/l1x1.hosts" --cfg=smpi/simulate-computation:no \
	"$BIN" --engine mpi "${SMALL[@]}" --topology "$TMPD/l1x1.topo" \
	--json "$TMPD/stated.json"
check "stated: local width 2, stated, no sample" test "$(width \
	"$TMPD/stated.json" local pairs) $(width "$TMPD/stated.json" local \
	source) $(width "$TMPD/stated.json" local between)" = "2 stated none"
check "stated: the report says so" grep -q "^Widths: between two switches of a group 2 pairs (stated);" "$OUT"
finish

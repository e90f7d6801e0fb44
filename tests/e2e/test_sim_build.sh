#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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
#      on a second run with the same seed.
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
finish

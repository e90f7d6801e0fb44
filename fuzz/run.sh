#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the libFuzzer harnesses and run each for a bounded time, all at
# once with the Python one of cxi_archive's documents (they share the
# cores: five on two take SECONDS of wall time, as two did), on a scratch
# copy of its seed corpus (the source tree is never written). Prints "skipped" and succeeds when clang or its libFuzzer
# runtime is missing; fails when a harness finds a crash, a leak, a
# timeout or an out-of-memory, and keeps the scratch dir with the input.
#   bash fuzz/run.sh [BUILD_DIR [SECONDS]]      (`make fuzz` runs this)
# Environment: FUZZ_CC (clang), CMAKE, JOBS, CMAKE_FLAGS, FUZZ_ARGS (extra
# libFuzzer flags, e.g. -jobs=2 -workers=2 for a long local run).
set -uo pipefail

BUILD=${1:-build-fuzz}
SECS=${2:-45}
CC_FUZZ=${FUZZ_CC:-clang}
SRC=$(cd "$(dirname "$0")/.." && pwd)
HARNESSES=("fuzz_proto:corpus:" "fuzz_handshake:corpus-handshake:handshake.dict"
	"fuzz_topo:corpus-topo:topo.dict" "fuzz_baseline:corpus-baseline:baseline.dict"
	"fuzz_archive.py:corpus-archive:")
# fuzz_archive.py (cxi_archive's documents) needs Debian's python3 with
# numpy and matplotlib, as cxi_archive does; without them it is skipped.
PY=/usr/bin/python3

skip() {
	echo "fuzz: skipped: $*"
	exit 0
}

command -v "$CC_FUZZ" >/dev/null 2>&1 || skip "$CC_FUZZ not found (the harnesses need clang with libFuzzer)"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/cxd-fuzz.XXXXXX")
KEEP=0
trap '[ $KEEP = 1 ] || rm -rf "$SCRATCH"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\n%s\n' \
	'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void) d; (void) n; return 0; }' \
	>"$SCRATCH/probe.c"
"$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$SCRATCH/probe.c" -o "$SCRATCH/probe" >/dev/null 2>&1 ||
	skip "$CC_FUZZ cannot link -fsanitize=fuzzer (install libclang-rt-dev / compiler-rt)"

# shellcheck disable=SC2086
${CMAKE:-cmake} -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCXD_FUZZ=ON -DCMAKE_C_COMPILER="$CC_FUZZ" ${CMAKE_FLAGS:-} >"$SCRATCH/configure.log" 2>&1 ||
	{ cat "$SCRATCH/configure.log"; echo "fuzz: configure failed"; exit 1; }
${CMAKE:-cmake} --build "$BUILD" -j"${JOBS:-2}" --target fuzz_proto fuzz_handshake \
	fuzz_topo fuzz_baseline \
	>"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log"; echo "fuzz: build failed"; exit 1; }

# fuzz_one NAME CORPUS DICT: one bounded run; its log in $SCRATCH/NAME.log.
fuzz_one() {
	local name=$1 corpus=$2 dict=$3 work=$SCRATCH/$1
	local -a args=(-max_total_time="$SECS" -rss_limit_mb=1024
		-malloc_limit_mb=256 -timeout=10 -print_final_stats=1
		-artifact_prefix="$work-")
	mkdir -p "$work"
	cp "$SRC/fuzz/$corpus"/* "$work/"
	if [[ $name == *.py ]]; then
		"$PY" "$SRC/fuzz/$name" "$SECS" "$work" "$work"/*.json >"$SCRATCH/$name.log" 2>&1
		return
	fi
	[ -n "$dict" ] && args+=(-dict="$SRC/fuzz/$dict")
	# shellcheck disable=SC2086
	"$BUILD/$name" "${args[@]}" ${FUZZ_ARGS:-} "$work" >"$SCRATCH/$name.log" 2>&1
}

if ! "$PY" -c 'import numpy, matplotlib' 2>/dev/null; then
	echo "fuzz: fuzz_archive.py: skipped: $PY with numpy and matplotlib not found"
	HARNESSES=("${HARNESSES[@]:0:4}")
fi
pids=()
for h in "${HARNESSES[@]}"; do
	IFS=: read -r name corpus dict <<<"$h"
	fuzz_one "$name" "$corpus" "$dict" &
	pids+=("$!")
done

# Report each: executions, speed, coverage, corpus; any finding in full.
status=0
i=0
for h in "${HARNESSES[@]}"; do
	IFS=: read -r name _ _ <<<"$h"
	wait "${pids[$i]}"
	rc=$?
	i=$((i + 1))
	log=$SCRATCH/$name.log
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz: $name: ${runs:-?} runs in ${SECS}s (${rate:-?}/s), ${cov:-no stats}: no findings"
		continue
	fi
	status=1
	KEEP=1
	echo "fuzz: $name: FAILED (exit $rc) after ${runs:-?} runs; log and inputs kept in $SCRATCH"
	grep -E 'ERROR|SUMMARY|Test unit written|archive-finding|^    #[0-9]' "$log" | head -40
	for a in "$SCRATCH/$name"-* "$SCRATCH/$name"/archive-finding-*; do
		[ -f "$a" ] || continue
		echo "--- $a ($(stat -c %s "$a") bytes):"
		od -An -tx1 "$a" | head -8
	done
done
exit $status

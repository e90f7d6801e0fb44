#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cxi_sweep's coordination cost against the rank count: the test copy
# with CXD_TEST_COORD_ONLY=1 (a pair swaps one MPI message instead of
# measuring), every circle round whole (--max-pairs N), N ranks
# oversubscribed on this host. Rank 0 prints its wall and CPU time over
# the main pass; the median of REPS runs per N is kept (the host is
# shared, so single runs scatter). -D 120 only widens the bootstrap's
# bounds (nothing is measured): hundreds of ranks starting on 2 shared
# cores take longer than the default 30 s to meet in a collective.
#   bench/sweep_cost.sh [BUILD_DIR] [REPS] [OUT.tsv] [N...]
# SWEEP_BIN overrides the binary (e.g. a copy of an older build).
# Columns: ranks rounds wall_s per_round_ms per_rank_us rank0_cpu_ms_per_round
set -u
BUILD=${1:-build}
REPS=${2:-3}
OUT=${3:-}
shift $(($# < 3 ? $# : 3))
NS=${*:-8 16 32 64 128 256}
BIN=${SWEEP_BIN:-$BUILD/standin/cxi_sweep}
command -v mpirun >/dev/null || { echo "sweep_cost: no mpirun: skipped"; exit 0; }
[ -x "$BIN" ] || { echo "sweep_cost: $BIN not built: skipped"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export CXD_TEST_COORD_ONLY=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "nan"; exit} m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# one N: "wall_s rank0_cpu_s rounds" per run, one line each
runs() {
	local n=$1 i
	for i in $(seq "$REPS"); do
		timeout 600 mpirun --oversubscribe --mca btl self,vader \
			-x CXD_TEST_COORD_ONLY -np "$n" "$BIN" --provider tcp \
			--max-pairs "$n" -n 1 -l 1 --lat-iters 1 -D 120 \
			>/dev/null 2>"$TMP/err"
		awk '/coordination only:/ {
			for (k = 1; k < NF; k++) v[$k] = $(k + 1)
			print v["wall_s"], v["rank0_cpu_s"], v["rounds"] }' \
			"$TMP/err"
	done
}

printf '%6s %6s %9s %13s %12s %20s\n' ranks rounds wall_s \
	per_round_ms per_rank_us rank0_cpu_ms_round
[ -n "$OUT" ] && printf '# ranks rounds wall_s per_round_ms per_rank_us rank0_cpu_ms_per_round (median of %s)\n' "$REPS" >"$OUT"
for n in $NS; do
	runs "$n" >"$TMP/$n"
	[ -s "$TMP/$n" ] || { echo "sweep_cost: $n ranks: no result: $(tail -2 "$TMP/err")"; continue; }
	wall=$(awk '{print $1}' "$TMP/$n" | median)
	cpu=$(awk '{print $2}' "$TMP/$n" | median)
	rounds=$(awk '{print $3; exit}' "$TMP/$n")
	line=$(awk -v n="$n" -v r="$rounds" -v w="$wall" -v c="$cpu" 'BEGIN {
		printf "%6d %6d %9.4f %13.4f %12.3f %20.4f", n, r, w,
		       w / r * 1e3, w / r / n * 1e6, c / r * 1e3 }')
	echo "$line"
	[ -n "$OUT" ] && echo "$line" >>"$OUT"
done
exit 0

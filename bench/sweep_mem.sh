#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What rank 0 holds beyond any other rank, against the rank count: the
# test copy with CXD_TEST_COORD_ONLY=1 (pairs swap one message instead of
# measuring, so the run is all bootstrap, schedule and verdict), N ranks
# oversubscribed here, each under /usr/bin/time for its peak resident
# memory. Rank 0's peak less the median of the others' is its own share:
# the summaries it reduces, and the matrices and document that --json
# makes it gather (MPI's and libfabric's share is the same on every rank).
#   bench/sweep_mem.sh [BUILD_DIR] [N...]
# SWEEP_BIN overrides the binary (e.g. an older build); EXTRA adds options.
# Columns: ranks json rank0_peak_mb others_median_mb rank0_extra_mb
set -u
BUILD=${1:-build}
shift $(($# < 1 ? $# : 1))
NS=${*:-64 128 256}
BIN=${SWEEP_BIN:-$BUILD/standin/cxi_sweep}
command -v mpirun >/dev/null || { echo "sweep_mem: no mpirun: skipped"; exit 0; }
[ -x /usr/bin/time ] || { echo "sweep_mem: no /usr/bin/time: skipped"; exit 0; }
[ -x "$BIN" ] || { echo "sweep_mem: $BIN not built: skipped"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export CXD_TEST_COORD_ONLY=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%6s %5s %14s %17s %15s\n' ranks json rank0_peak_mb others_median_mb rank0_extra_mb
for n in $NS; do
	for json in no yes; do
		rm -f "$TMP"/rss.*
		files=()
		[ "$json" = yes ] && files=(--json "$TMP/s.json")
		# shellcheck disable=SC2016
		timeout 900 mpirun --oversubscribe --mca btl self,vader \
			-x CXD_TEST_COORD_ONLY -np "$n" sh -c \
			'exec /usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' \
			"$TMP" "$BIN" --provider tcp --max-pairs "$n" -n 1 -l 1 \
			--lat-iters 1 -D 120 ${EXTRA:-} "${files[@]}" >/dev/null 2>"$TMP/err"
		[ -s "$TMP/rss.0" ] || { echo "sweep_mem: $n ranks: no result: $(tail -2 "$TMP/err")"; continue; }
		r0=$(tail -1 "$TMP/rss.0")
		med=$(for f in "$TMP"/rss.*; do [ "$f" = "$TMP/rss.0" ] || tail -1 "$f"; done |
			sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
		awk -v n="$n" -v j="$json" -v a="$r0" -v b="$med" 'BEGIN {
			printf "%6d %5s %14.1f %17.1f %15.1f\n", n, j, a / 1024,
			       b / 1024, (a - b) / 1024 }'
	done
done
exit 0

# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# The simulated benchmarks' common start (bench/sim_*.sh): source it, then
#   sim_start NAME [SWEEP] goes to the tree's top; SWEEP is the simulated
#                          binary (build-sim/cxi_sweep when empty); exits 0
#                          with "NAME: skipped (...)" without smpirun or that
#                          build; else OUT is a fresh work directory (removed
#                          at exit) and bench/results/ is there.
sim_start() {
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	SWEEP=${2:-build-sim/cxi_sweep}
	if ! command -v smpirun >/dev/null || [ ! -x "$SWEEP" ]; then
		echo "$1: skipped (no smpirun, or $SWEEP not built: make sim)"
		exit 0
	fi
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/cxd-$1.XXXXXX")
	trap 'rm -rf "$OUT"' EXIT
	mkdir -p bench/results
}

#   sim_faults_twice N TRIALS CLEAN JOBS RESULT PLACES LINKS [options]
# runs sim/faults.py's trials at N ranks twice with SWEEP, places only
# (faults.py given the word PLACES, "" none) and then with the fabric's
# links (the word LINKS); the trials go to RESULT_places.json
# and RESULT_links.json, what each printed (its tables) to standard output
# and RESULT_places.md, RESULT_links.md.
sim_faults_twice() {
	local n=$1 trials=$2 clean=$3 jobs=$4 res=$5 mode links
	local -A flag=([places]=$6 [links]=$7)
	shift 7
	for mode in places links; do
		links=${flag[$mode]}
		python3 sim/faults.py "$@" --sweep "$SWEEP" --ranks "$n" \
			--seed 1 --trials "$trials" --clean "$clean" \
			--jobs "$jobs" --timeout 7200 --out "$OUT/$n-$mode" \
			${links:+"$links"} --json "${res}_$mode.json" |
			tee "${res}_$mode.md"
	done
}

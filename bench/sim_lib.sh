# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# The simulated benchmarks' common start (bench/sim_*.sh): source it, then
#   sim_start NAME SWEEP   exits 0 with "NAME: skipped (...)" without smpirun
#                          or the simulated build; else OUT is a fresh work
#                          directory (removed at exit) and bench/results/ is there.
sim_start() {
	if ! command -v smpirun >/dev/null || [ ! -x "$2" ]; then
		echo "$1: skipped (no smpirun, or $2 not built: make sim)"
		exit 0
	fi
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/cxd-$1.XXXXXX")
	trap 'rm -rf "$OUT"' EXIT
	mkdir -p bench/results
}

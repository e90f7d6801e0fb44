#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cxi_archive at 1,024 ranks (make bench; docs/history.md has the figures):
# a simulated 1,024-rank sweep (tens of CPU minutes), or a synthetic
# document of that size with SYNTHETIC=1; then bench/archive_scale.py (a
# year of weekly copies ingested, queried, reported), and the report opened
# in headless chromium, timed.
#   bench/archive_scale.sh [SIM_DIR] [N]
set -u
SIM=${1:-build-sim}
N=${2:-1024}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$(mktemp -d)}
PY=/usr/bin/python3
if [ "${SYNTHETIC:-0}" = 1 ]; then
	SRC=$N
else
	command -v smpirun >/dev/null || { echo "archive_scale: no smpirun: skipped"; exit 0; }
	[ -x "$SIM/cxi_sweep" ] || { echo "archive_scale: $SIM/cxi_sweep not built (make sim): skipped"; exit 0; }
	g=$((N / 128)); [ "$g" -ge 1 ] || g=1
	"$PY" "$HERE/../sim/platgen.py" dragonfly --groups "$g" --switches 8 \
		--hosts $((N / g / 8)) -o "$OUT/p" >/dev/null || exit 1
	smpirun -np "$N" -platform "$OUT/p.xml" -hostfile "$OUT/p.hosts" \
		--cfg=smpi/test:0 --cfg=smpi/grow-injected-times:no \
		--cfg=smpi/host-speed:1Gf "$SIM/cxi_sweep" --engine mpi \
		--topology "$OUT/p.topo" --json "$OUT/sweep.json" >"$OUT/sweep.out" 2>&1
	SRC=$OUT/sweep.json
fi
"$PY" "$HERE/archive_scale.py" "$SRC" "$OUT" "${WEEKS:-52}" || exit 1
CHROME=$(command -v chromium || true)
if [ -n "$CHROME" ]; then
	t0=$(date +%s.%N)
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$OUT/chrome" --window-size=1200,1400 \
		--virtual-time-budget=60000 \
		--screenshot="$OUT/report.png" "file://$OUT/report.html" >/dev/null 2>&1
	echo "report_open_and_screenshot $(echo "$(date +%s.%N) - $t0" | bc) s"
fi
echo "(files in $OUT)"

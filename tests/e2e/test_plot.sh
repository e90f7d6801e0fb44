#!/usr/bin/env bash
# cxi_plot: charts drawn from the --json of real runs made here, synthetic
# cxi_sweep documents (plain; against a baseline with a suspect rank), the
# layout (legends inside the figure, readable ticks), and bad inputs
# refused with exit 2. About 20 s.
#   bash tests/e2e/test_plot.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
PLOT=$(cd "$(dirname "$0")/../../tools" && pwd)/cxi_plot.py
PY=/usr/bin/python3
[ -x "$PY" ] || skip "no $PY (Debian's python3)"
"$PY" -c 'import matplotlib' 2>/dev/null ||
	skip "matplotlib missing: apt-get install python3-matplotlib"
for t in cxi_write_bw cxi_send_lat; do
	tool_exists "$t" || skip "$t not built"
done

# png_ok FILE MIN_KB MIN_W MIN_H: PNG signature, size and dimensions (IHDR).
png_ok() { "$PY" "$E2E_PY/png_ok.py" "$@"; }
# svg_has FILE TEXT...: the SVG parses as XML and has each TEXT in a text node.
svg_has() { "$PY" "$E2E_PY/svg_has.py" "$@"; }

# layout_ok ARGS...: cxi_plot ARGS in-process; every legend, title and axis
# label inside the figure, >= 3 tick labels on each log value axis.
layout_ok() { "$PY" "$E2E_PY/plot_layout.py" "$PLOT" "$@"; }
# frames FILE COLOUR: how many shapes the SVG strokes in COLOUR.
frames() { grep -o "stroke: $2;" "$1" | wc -l; }

# plot NAME ARGS...: runs cxi_plot (30 s bound); sets RC, output in $TMPD/NAME.*
plot() { local n=$1; shift; run_capture "$n" 30 "$PLOT" "$@"; }

section "real runs"
run_capture bw_tcp 60 "$BUILD/cxi_write_bw" --local --provider tcp --json -s 1:4096 -n 20
expect_rc 0 "$RC" "cxi_write_bw over tcp"
cp "$OUT" "$TMPD/bw_tcp.json"
run_capture bw_shm 60 "$BUILD/cxi_write_bw" --local --provider shm --json -s 1:4096 -n 20
expect_rc 0 "$RC" "cxi_write_bw over shm"
cp "$OUT" "$TMPD/bw_shm.json"
run_capture lat 60 "$BUILD/cxi_send_lat" --local --json -s 1:64 -n 300 \
	--latency-gap 0 --report-all
expect_rc 0 "$RC" "cxi_send_lat --report-all"
cp "$OUT" "$TMPD/lat.json"

section "bandwidth: two runs on one chart"
plot bw_png "$TMPD/bw_tcp.json" "$TMPD/bw_shm.json" -o "$TMPD/bw.png"
expect_rc 0 "$RC" "bandwidth PNG"
check "PNG >= 20 KB, >= 800x600" png_ok "$TMPD/bw.png" 20 800 600
plot bw_svg "$TMPD/bw_tcp.json" "$TMPD/bw_shm.json" -o "$TMPD/bw.svg" \
	--title "before and after"
expect_rc 0 "$RC" "bandwidth SVG"
check "SVG: axis labels, both runs in the legend by provider, the title" \
	svg_has "$TMPD/bw.svg" "BW [MB/s]" "PktRate [Mpkt/s]" "Message size [bytes]" \
	"tcp;ofi_rxm" "shm" "before and after"
check "bandwidth: the legend inside the figure, readable rate ticks" \
	layout_ok "$TMPD/bw_tcp.json" "$TMPD/bw_shm.json" -o "$TMPD/bw2.png"
plot bw_title "$TMPD/bw_tcp.json" "$TMPD/bw_shm.json" -o "$TMPD/bw3.svg"
check "SVG: the title says what the runs share (tool, peer)" svg_has \
	"$TMPD/bw3.svg" "cxi_write_bw to 127.0.0.1"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
for i, r in enumerate(d["results"]): r["pkt_rate_mpkt_s"] = 0.045 + 0.001 * i
json.dump(d, open(sys.argv[2], "w"))' "$TMPD/bw_tcp.json" "$TMPD/narrow.json"
check "a rate within one step of the scale still gets >= 3 tick labels" \
	layout_ok "$TMPD/narrow.json" -o "$TMPD/narrow.png"
cp "$TMPD/bw_tcp.json" "$TMPD/bw_again.json"
plot bw_same "$TMPD/bw_tcp.json" "$TMPD/bw_again.json" -o "$TMPD/bw4.svg"
check "SVG: runs alike in all else are told apart by file name" svg_has \
	"$TMPD/bw4.svg" "bw_tcp" "bw_again"

section "latency: percentiles and the --report-all histogram"
plot lat_png "$TMPD/lat.json" -o "$TMPD/lat.png"
expect_rc 0 "$RC" "latency PNG"
check "PNG >= 20 KB, >= 800x800 (two charts)" png_ok "$TMPD/lat.png" 20 800 800
plot lat_svg "$TMPD/lat.json" -o "$TMPD/lat.SVG"
expect_rc 0 "$RC" "latency SVG (upper-case extension)"
check "SVG: percentiles, histogram of the 1-byte size with all 300 samples" \
	svg_has "$TMPD/lat.SVG" "Latency [us]" "p50" "p99.9" "max" \
	"Latency histogram (--report-all)" "1 B, 300 samples"
plot lat_hist "$TMPD/lat.json" -o "$TMPD/lat64.svg" --hist-size 64
expect_rc 0 "$RC" "--hist-size 64"
check "SVG: histogram of 64 B" svg_has "$TMPD/lat64.svg" "64 B, 300 samples"
check "latency: both legends inside the figure" layout_ok "$TMPD/lat.json" \
	-o "$TMPD/lat2.svg"

section "sweep heatmaps"
"$PY" "$E2E_PY/sweep_doc.py" "$TMPD/sweep.json"
plot sweep_png "$TMPD/sweep.json" -o "$TMPD/sweep.png"
expect_rc 0 "$RC" "sweep PNG"
check "PNG >= 20 KB, >= 1000x500" png_ok "$TMPD/sweep.png" 20 1000 500
plot sweep_svg "$TMPD/sweep.json" -o "$TMPD/sweep.svg"
expect_rc 0 "$RC" "sweep SVG"
check "SVG: rank+host labels, both matrices, the outlier marked" svg_has \
	"$TMPD/sweep.svg" "0 nodeA" "2 nodeB" "3 nodeC" "source rank" \
	"destination rank" "Bandwidth [MB/s]: 1 outlier" "Latency [us]: 0 outliers" \
	"red boxes" "2500" "10010"
check "plain sweep: no suspect frame, no ratio chart" test "$(frames "$TMPD/sweep.svg" '#ff8c00')" = 0 -a \
	"$(grep -c 'ratio' "$TMPD/sweep.svg")" = 0

section "sweep against a baseline, with a suspect rank"
"$PY" "$E2E_PY/sweep_doc.py" "$TMPD/suspect.json" --suspect
plot suspect_svg "$TMPD/suspect.json" -o "$TMPD/suspect.svg"
expect_rc 0 "$RC" "suspect sweep SVG"
check "SVG: host:nic labels, the suspect named, the ratio charts" svg_has \
	"$TMPD/suspect.svg" "2 vm2:swp0" "5 vm3:swp1" \
	"suspect (dashed frame): rank 2 (vm2:swp0) in bw_mb_s, 10 of 10 links bad" \
	"Bandwidth now / in baseline sweep-baseline.json (grey: no match)" \
	"Latency now / in baseline sweep-baseline.json" "ratio (1 = unchanged)" "0.05"
check "SVG: rank 2's row and column framed in each of the 4 heatmaps" \
	test "$(frames "$TMPD/suspect.svg" '#ff8c00')" = 8
check "SVG: its 10 slow links outlined" test "$(frames "$TMPD/suspect.svg" '#ff0000')" = 10
check "suspect sweep: nothing sticks out" layout_ok "$TMPD/suspect.json" -o "$TMPD/suspect.png"

section "bad input: exit 2 with a message naming it, no chart written"
# bad NAME WANT_TEXT ARGS...
bad() {
	local n=$1 want=$2; shift 2
	plot "$n" "$@" -o "$TMPD/$n.png"
	if [ "$RC" -eq 2 ] && grep -qF -- "$want" "$ERR" && [ ! -e "$TMPD/$n.png" ]; then
		pass "$n: exit 2, '$want'"
	else
		fail "$n: rc $RC, want 2 and '$want' (png: $(ls "$TMPD/$n.png" 2>&1))"
		show "$ERR"
	fi
}
echo '{"tool": "cxi_write_bw", ' > "$TMPD/trunc.json"
echo '{"name": "not ours"}' > "$TMPD/other.json"
echo '{"tool": "cxi_sweep", "ranks": [{"rank":0},{"rank":1}], "bw_mb_s": [[null]], "lat_us": []}' \
	> "$TMPD/badsweep.json"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["suspects"]=[{"rank":9}]; json.dump(d,open(sys.argv[2],"w"))' \
	"$TMPD/suspect.json" "$TMPD/badsuspect.json"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["baseline"]["bw_ratio"]=[[1]]; json.dump(d,open(sys.argv[2],"w"))' \
	"$TMPD/suspect.json" "$TMPD/badbase.json"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"]=[{"size":1,"see_client":True}]; json.dump(d,open(sys.argv[2],"w"))' \
	"$TMPD/lat.json" "$TMPD/latserver.json"
bad missing "cannot read $TMPD/nosuch.json" "$TMPD/nosuch.json"
bad notjson "trunc.json is not JSON" "$TMPD/trunc.json"
bad notours "other.json is not the --json output of a cxd tool" "$TMPD/other.json"
bad mixed "cannot share a chart" "$TMPD/bw_tcp.json" "$TMPD/lat.json"
bad badsweep "\"bw_mb_s\" is not a 2 x 2 matrix" "$TMPD/badsweep.json"
bad badsuspect "\"suspects\" must list objects with a \"rank\" below 6" "$TMPD/badsuspect.json"
bad badbase "\"bw_ratio\" is not a 6 x 6 matrix" "$TMPD/badbase.json"
bad server "nothing to plot: a latency server's report" "$TMPD/latserver.json"
bad nohist "no run has --report-all latencies for size 3" "$TMPD/lat.json" --hist-size 3
plot ext "$TMPD/bw_tcp.json" -o "$TMPD/bw.jpg"
[ "$RC" -eq 2 ] && grep -qF "unknown output format '.jpg'" "$ERR" &&
	pass "ext: .jpg refused with exit 2" || { fail "ext: rc $RC"; show "$ERR"; }
plot noout "$TMPD/bw_tcp.json"
[ "$RC" -eq 2 ] && grep -qF -- "-o/--output" "$ERR" &&
	pass "no -o: exit 2 naming -o" || { fail "no -o: rc $RC"; show "$ERR"; }

finish

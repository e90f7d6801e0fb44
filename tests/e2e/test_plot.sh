#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# cxi_plot: charts drawn from the --json of real runs made here, synthetic
# cxi_sweep documents (plain; against a baseline with a suspect rank),
# synthetic cxi_sweep --matrix files (4 ranks a cell each; 600 in blocks),
# the layout (legends inside the figure, readable ticks), and bad inputs
# (damaged --matrix files too) refused with exit 2. About 25 s.
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

section "cxi_sweep --matrix file: 4 ranks, one cell a link"
# matrix OUT N [SRC DST] [--cut B] [--magic M] [--version V] [--mark X]:
# a synthetic --matrix file, the SRC->DST link slow (default 3->1).
matrix() { "$PY" "$E2E_PY/sweep_matrix.py" "$@"; }
matrix "$TMPD/m4.bin" 4
plot m4_svg "$TMPD/m4.bin" -o "$TMPD/m4.svg"
expect_rc 0 "$RC" "--matrix SVG"
check "SVG: the title names the file's kind, ranks, provider; host:nic labels; the slow link's values" \
	svg_has "$TMPD/m4.svg" "cxi_sweep --matrix file: 4 ranks over tcp;ofi_rxm" \
	"0 node0:cxi0" "3 node1:cxi1" "source rank" "destination rank" \
	"Bandwidth [MB/s]" "Latency [us]" "2500" "10032" "50"
check "SVG: no outlier, suspect or ratio words (the file has none)" \
	test "$(grep -c 'outlier\|suspect\|ratio\|blocks of' "$TMPD/m4.svg")" = 0
cp "$TMPD/m4.bin" "$TMPD/m4-named.json"
plot m4_png "$TMPD/m4-named.json" -o "$TMPD/m4.png"
expect_rc 0 "$RC" "--matrix file named .json: told by its magic"
check "PNG >= 20 KB, >= 1000x500" png_ok "$TMPD/m4.png" 20 1000 500
check "--matrix: nothing sticks out" layout_ok "$TMPD/m4.bin" -o "$TMPD/m4b.png"

section "cxi_sweep --matrix file: 100 ranks, a cell each, ticks thinned"
# Beyond 40 ranks every rank's label would overprint into a black band:
# every third rank's number only (0, 3, ... 99: 34 a side).
matrix "$TMPD/m100.bin" 100 7 5
plot m100_svg "$TMPD/m100.bin" -o "$TMPD/m100.svg"
expect_rc 0 "$RC" "100-rank --matrix SVG"
check "100 ranks: rank numbers 0, 3 ... 99 as ticks, no host labels" \
	svg_has "$TMPD/m100.svg" "0" "3" "99" "source rank" "destination rank"
check "100 ranks: at most 40 tick labels a side (texts: $(grep -c '<text' "$TMPD/m100.svg"))" \
	test "$(grep -c '<text' "$TMPD/m100.svg")" -lt 180

section "cxi_sweep --matrix file: 600 ranks in blocks"
matrix "$TMPD/m600.bin" 600 437 91
check "the file is 128 + 512 n + 16 n^2 bytes" \
	test "$(stat -c %s "$TMPD/m600.bin")" = $((128 + 512 * 600 + 16 * 600 * 600))
plot m600_svg "$TMPD/m600.bin" -o "$TMPD/m600.svg"
expect_rc 0 "$RC" "600-rank --matrix SVG"
check "SVG: blocks of 2 on both axes, the worst link of each block named" \
	svg_has "$TMPD/m600.svg" "cxi_sweep --matrix file: 600 ranks" \
	"source rank (blocks of 2)" "destination rank (blocks of 2)" \
	"Bandwidth [MB/s]: the slowest (lowest) link of each 2 x 2 block" \
	"Latency [us]: the slowest (highest) link of each 2 x 2 block"
check "SVG: no per-cell text or rank labels (under 100 text nodes)" \
	test "$(grep -c '<text' "$TMPD/m600.svg")" -lt 100
check "blocks as numpy reduces them, read in any chunk size; link 437->91's block the worst" \
	"$PY" "$E2E_PY/matrix_blocks.py" "$(dirname "$PLOT")/cxi_plot_sweep.py" \
	"$TMPD/m600.bin" 2 437 91
plot m600_png "$TMPD/m600.bin" -o "$TMPD/m600.png"
expect_rc 0 "$RC" "600-rank --matrix PNG"
check "PNG >= 20 KB, >= 1000x500" png_ok "$TMPD/m600.png" 20 1000 500

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
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["suspects"][0]["rank"]=9; json.dump(d,open(sys.argv[2],"w"))' \
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
matrix "$TMPD/mcut.bin" 2 1 0 --cut 900
matrix "$TMPD/mhead.bin" 2 1 0 --cut 60
matrix "$TMPD/mlong.bin" 2 1 0 && echo >> "$TMPD/mlong.bin"
matrix "$TMPD/mmagic.bin" 2 1 0 --magic CXDSWMAX
matrix "$TMPD/mver.bin" 2 1 0 --version 2
matrix "$TMPD/mmark.bin" 2 1 0 --mark 0x04030201
matrix "$TMPD/mone.bin" 1 0 0
bad mcut "mcut.bin: cut short: 2 ranks need 1216 bytes, the file has 900" "$TMPD/mcut.bin"
bad mhead "mhead.bin: cut short: the --matrix head needs 128 bytes, the file has 60" "$TMPD/mhead.bin"
bad mlong "mlong.bin: too long: 2 ranks need 1216 bytes, the file has 1217" "$TMPD/mlong.bin"
bad mmagic "mmagic.bin is neither JSON nor a cxi_sweep --matrix file (it starts with b'CXDSWMAX'" "$TMPD/mmagic.bin"
bad mver "mver.bin: --matrix version 2, cxi_plot reads version 1" "$TMPD/mver.bin"
bad mmark "mmark.bin: endian mark 0x04030201, not 0x01020304" "$TMPD/mmark.bin"
bad mone "mone.bin: a --matrix file of 1 ranks (2 to 1048576)" "$TMPD/mone.bin"
bad mtwo "one cxi_sweep document per chart (got 2)" "$TMPD/m4.bin" "$TMPD/m4.bin"
bad mmixed "cannot share a chart" "$TMPD/m4.bin" "$TMPD/sweep.json"
for f in mcut mmagic; do
	check "$f: the error is one line" test "$(wc -l < "$(ls "$TMPD"/*."$f".err)")" = 1
done
plot ext "$TMPD/bw_tcp.json" -o "$TMPD/bw.jpg"
[ "$RC" -eq 2 ] && grep -qF "unknown output format '.jpg'" "$ERR" &&
	pass "ext: .jpg refused with exit 2" || { fail "ext: rc $RC"; show "$ERR"; }
plot noout "$TMPD/bw_tcp.json"
[ "$RC" -eq 2 ] && grep -qF -- "-o/--output" "$ERR" &&
	pass "no -o: exit 2 naming -o" || { fail "no -o: rc $RC"; show "$ERR"; }

finish

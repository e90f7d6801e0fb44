#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (a gate met and a real sweep's verdict in the metrics)
# The files cxd writes for Prometheus (docs/site.md), with the real tools:
#   1. --metrics of a bandwidth and a latency pair tool (--local) and of
#      cxi_sweep (mpirun -np 2): `promtool check metrics` passes each;
#      with --expect-bw/--expect-lat the gate's outcome (cxd_pair_gate_pass
#      0 on a miss, 1 when met) and its bound, none without;
#   2. written whole: an existing file is replaced by rename (a new inode),
#      no temporary is left; a directory that does not exist: exit 1, the
#      file named, nothing written;
#   3. a real prometheus-node-exporter, its textfile collector on a temp
#      directory, on a free loopback port, serves them:
#      node_textfile_scrape_error 0 and the families present; a broken
#      file there makes it 1 (the check can fail);
#   4. contrib/prometheus/cxd-alerts.yml: `promtool check rules` and
#      `promtool test rules` with its fixtures.
# Skipped (77) without promtool or node_exporter (Debian: prometheus,
# prometheus-node-exporter; scripts/deps.sh). About 10 s.
#   bash tests/e2e/test_prometheus.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
command -v promtool >/dev/null ||
	skip "promtool not found (Debian: prometheus; scripts/deps.sh)"
[ -n "$NE" ] ||
	skip "node_exporter not found (Debian: prometheus-node-exporter)"
TF=$TMPD/textfile
mkdir -p "$TF"
PAIR=(--local --provider tcp -d lo -n 20)

section "--metrics of the pair tools and the sweep"
echo "# an older file" >"$TF/cxd_write_bw.prom"
inode0=$(stat -c %i "$TF/cxd_write_bw.prom")
run_capture write_bw 60 "$BUILD/cxi_write_bw" "${PAIR[@]}" -s 1:4096 \
	--metrics "$TF/cxd_write_bw.prom"
expect_rc 0 "$RC" "cxi_write_bw --local --metrics"
run_capture send_lat 60 "$BUILD/cxi_send_lat" "${PAIR[@]}" -s 8:64 \
	--metrics "$TF/cxd_send_lat.prom"
expect_rc 0 "$RC" "cxi_send_lat --local --metrics"
# The gate's outcome as a metric: a bound no loopback meets (10^6 MB/s)
# fails all 3 sizes (exit 3), one every run meets (10 s) passes.
run_capture gate_bw 60 "$BUILD/cxi_write_bw" "${PAIR[@]}" -s 1:4 \
	--expect-bw 1000000 --metrics "$TF/cxd_gate_bw.prom"
expect_rc 3 "$RC" "cxi_write_bw --expect-bw 1000000 --metrics"
run_capture gate_lat 60 "$BUILD/cxi_send_lat" "${PAIR[@]}" -s 8 \
	--expect-lat 10000000 --metrics "$TF/cxd_gate_lat.prom"
expect_rc 0 "$RC" "cxi_send_lat --expect-lat 10000000 --metrics"
L='{tool="cxi_write_bw",provider="[^"]*",peer="127.0.0.1"}'
check "a missed gate: cxd_pair_gate_pass 0, its bound, 3 sizes missed" \
	test "$(grep -c -e "^cxd_pair_gate_pass$L 0\$" \
		-e "^cxd_pair_gate_min_bandwidth_bytes_per_second$L 1e+12\$" \
		-e "^cxd_pair_gate_sizes_missed$L 3\$" "$TF/cxd_gate_bw.prom")" = 3
L='{tool="cxi_send_lat",provider="[^"]*",peer="127.0.0.1"}'
check "a gate met: cxd_pair_gate_pass 1, its bound (10 s), none missed" \
	test "$(grep -c -e "^cxd_pair_gate_pass$L 1\$" \
		-e "^cxd_pair_gate_max_latency_seconds$L 10\$" \
		-e "^cxd_pair_gate_sizes_missed$L 0\$" "$TF/cxd_gate_lat.prom")" = 3
check "no gate given: no gate families" \
	test "$(cat "$TF/cxd_write_bw.prom" "$TF/cxd_send_lat.prom" | grep -c gate)" = 0
check "bandwidth: one line per size (13)" test "$(grep -c \
	'^cxd_pair_bandwidth_bytes_per_second{tool="cxi_write_bw",.*peer="127.0.0.1",size=' \
	"$TF/cxd_write_bw.prom")" = 13
check "latency: 8 figures for each of 4 sizes" test "$(grep -c \
	'^cxd_pair_latency_seconds{tool="cxi_send_lat",.*stat=' \
	"$TF/cxd_send_lat.prom")" = 32
check "the file was replaced (new inode), not written in place" \
	test "$(stat -c %i "$TF/cxd_write_bw.prom")" != "$inode0"
if [ -x "$BUILD/cxi_sweep" ] && command -v mpirun >/dev/null; then
	mpi_setup
	run_capture sweep 120 "${MPIRUN[@]}" -np 2 "$BUILD/cxi_sweep" \
		--provider tcp -d lo -n 2 -l 4 --lat-iters 20 \
		--metrics "$TF/cxi_sweep.prom" --suspects "$TMPD/sus"
	case $RC in
	0 | 3 | 4) pass "cxi_sweep -np 2 --metrics: exit $RC" ;;
	*) fail "cxi_sweep: exit $RC"; show "$ERR" ;;
	esac
else
	skip_part "the sweep's metrics: cxi_sweep or mpirun missing"
fi
for f in "$TF"/*.prom; do
	if out=$(promtool check metrics <"$f" 2>&1); then
		pass "promtool check metrics $(basename "$f"): clean"
	else
		fail "promtool check metrics $(basename "$f"): $out"
	fi
done
left=$(find "$TF" "$TMPD" -maxdepth 1 -name '.*.tmp')
check "no temporary left${left:+: $left}" test -z "$left"

section "a file that cannot be written"
run_capture nodir 60 "$BUILD/cxi_write_bw" "${PAIR[@]}" -s 8 \
	--metrics "$TMPD/nodir/x.prom"
expect_rc 1 "$RC" "--metrics into a missing directory"
check "the message names the file" \
	grep -q "cannot write the metrics file '$TMPD/nodir/x.prom'" "$ERR"

section "node_exporter's textfile collector serves them"
# A port found free may be taken before the exporter binds it: retried.
scrape() { "$SYSPY" -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
	"http://127.0.0.1:$PORT/metrics" >"$TMPD/scrape.txt" 2>/dev/null; }
SYSPY=/usr/bin/python3
[ -x "$SYSPY" ] || SYSPY=python3
up=
for try in 1 2 3; do
	PORT=$(free_port)
	start_bg node_exporter "$NE" --web.listen-address="127.0.0.1:$PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TF"
	NE_PID=$BG_PID
	if wait_until 10 scrape; then up=1; break; fi
	kill "$NE_PID" 2>/dev/null
	wait_pid "$NE_PID" 5
done
if [ -z "$up" ]; then
	fail "node_exporter did not answer on 127.0.0.1:$PORT within 10 s"
	show "$BG_ERR"
	finish
fi
pass "node_exporter up on 127.0.0.1:$PORT"
check "node_textfile_scrape_error 0" grep -qx 'node_textfile_scrape_error 0' "$TMPD/scrape.txt"
for fam in cxd_pair_bandwidth_bytes_per_second cxd_pair_rate_per_second \
	cxd_pair_latency_seconds cxd_pair_end_time_seconds cxd_pair_gate_pass; do
	check "family $fam served" grep -q "^$fam{" "$TMPD/scrape.txt"
done
if [ -s "$TF/cxi_sweep.prom" ]; then
	for fam in cxi_sweep_verdict cxi_sweep_rank_suspect cxi_sweep_end_time_seconds; do
		check "family $fam served" grep -q "^$fam[{ ]" "$TMPD/scrape.txt"
	done
fi
grep -E '^(node_textfile_scrape_error|cxd_pair_bandwidth_bytes_per_second.*size="4096"|cxi_sweep_verdict)' \
	"$TMPD/scrape.txt" | sed 's/^/       /'
echo "cxd_broken{" >"$TF/broken.prom"
scrape_err1() { scrape && grep -qx 'node_textfile_scrape_error 1' "$TMPD/scrape.txt"; }
check "a broken file: node_textfile_scrape_error 1" wait_until 10 scrape_err1
kill "$NE_PID" 2>/dev/null

section "alert rules (contrib/prometheus)"
cd "$SRC/contrib/prometheus" || die "no contrib/prometheus"
if out=$(promtool check rules cxd-alerts.yml 2>&1); then
	pass "promtool check rules: $(echo "$out" | grep -o 'SUCCESS.*')"
else
	fail "promtool check rules: $out"
fi
if out=$(promtool test rules cxd-alerts.test.yml 2>&1); then
	pass "promtool test rules: $(echo "$out" | tr -s ' \n' ' ')"
else
	fail "promtool test rules: $out"
fi
finish

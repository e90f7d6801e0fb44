#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Speed check against peers measured in the same run, on the same provider.
# Prints ratios (ours / peer); no pass/fail on absolute numbers.
#   bench/run.sh [BUILD_DIR] [ROUNDS]
set -u
BUILD=${1:-build}
ROUNDS=${2:-5}
TMP=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "nan"; exit} m=(NR+1)/2; if (NR%2) print a[m]; else print (a[NR/2]+a[NR/2+1])/2}'; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Our latency (µs, half round trip): the JSON mean of cxi_send_lat, like
# fi_pingpong's usec/xfer (total time / 2 / iterations).
ours_lat() {
	"$BUILD/cxi_send_lat" --local --provider "$1" -s 8 -n 20000 --warmup 100 \
		--latency-gap 0 --json >"$TMP/lat.json" 2>"$TMP/lat.err" || { echo nan; return; }
	json "$TMP/lat.json" 'd["results"][0]["mean_us"]'
}

# fi_pingpong prints "usec/xfer" for the half round trip.
peer_lat() {
	local p; p=$(port)
	# Bounded: a server whose client never came must not hold the bench.
	timeout 60 fi_pingpong -p "$1" -e rdm -S 8 -I 20000 -B "$p" >"$TMP/pp_srv.txt" 2>&1 &
	local spid=$!
	for _ in $(seq 100); do grep -q . "$TMP/pp_srv.txt" 2>/dev/null && break; ss -ltn | grep -q ":$p " && break; sleep 0.05; done
	timeout 60 fi_pingpong -p "$1" -e rdm -S 8 -I 20000 -P "$p" 127.0.0.1 >"$TMP/pp.txt" 2>&1
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	awk '/^[0-9]/ && NF>=6 {print $(NF-1)}' "$TMP/pp.txt" | tail -1
}

ours_bw() {
	"$BUILD/cxi_write_bw" --local --provider "$1" -s 65536 -D 2 --json \
		>"$TMP/bw.json" 2>"$TMP/bw.err" || { echo nan; return; }
	json "$TMP/bw.json" 'd["results"][0]["bw_mb_s"]'
}

# iperf3 one TCP stream on loopback: the ceiling for the tcp provider.
peer_bw() {
	local p; p=$(port)
	timeout 30 iperf3 -s -1 -p "$p" >/dev/null 2>&1 &
	for _ in $(seq 100); do ss -ltn | grep -q ":$p " && break; sleep 0.05; done
	timeout 30 iperf3 -c 127.0.0.1 -p "$p" -t 2 -J >"$TMP/iperf.json" 2>/dev/null
	json "$TMP/iperf.json" 'd["end"]["sum_received"]["bits_per_second"]/8/1e6'
}

# compare LABEL OURS_FN PEER_FN [ARG]: rounds alternate ours and the peer's,
# so a drift in the machine's state hits both alike; medians, then ratio.
compare() {
	local label=$1 ours=$2 peer=$3 arg=${4:-} i
	: >"$TMP/o" ; : >"$TMP/p"
	for i in $(seq "$ROUNDS"); do
		$ours $arg >>"$TMP/o"
		$peer $arg >>"$TMP/p"
	done
	local o p
	o=$(median <"$TMP/o")
	p=$(median <"$TMP/p")
	printf '%-38s %10.3f %10.3f %8s\n' "$label" "$o" "$p" \
		"$(awk -v a="$o" -v b="$p" 'BEGIN{printf (b>0 ? "%.2f" : "nan"), a/b}')"
}
none() { echo nan; }

printf '%-38s %10s %10s %8s\n' "comparison (median of $ROUNDS)" ours peer ratio
for prov in shm tcp; do
	compare "send_lat 8 B mean vs fi_pingpong ($prov) us" ours_lat peer_lat $prov
done
compare "write_bw 64K tcp vs iperf3 MB/s" ours_bw peer_bw tcp
printf '%-38s %10.3f %10s %8s\n' "write_bw 64K shm MB/s (no peer)" \
	"$(for _ in $(seq "$ROUNDS"); do ours_bw shm; done | median)" - -

# Our share of the instructions in the timed loop (callgrind: counts, not
# time, so one run each is enough); the provider's work is the rest.
if command -v valgrind >/dev/null; then
	for t in cxi_write_bw cxi_send_bw cxi_write_lat; do
		/usr/bin/python3 "$(dirname "$0")/callgrind_share.py" --build "$BUILD" \
			--tool "$t" --provider shm --size 8
	done
else
	echo "callgrind: skipped (valgrind missing: scripts/deps.sh installs it)"
fi

#!/usr/bin/env bash
# cxi_read_bw, cxi_send_bw and cxi_gpu_loopback_bw end to end: real
# binaries over tcp and shm, server and client as two processes (the
# loopback tool as one). test_write_bw.sh covers cxi_write_bw, test_atomic.sh
# cxi_atomic_bw. Checks the seed table header and separators, counts
# (iterations x list size), the uni-directional server's "-" and copied
# figures, bidirectional sums, PktRate against BW, the summary lines the
# man pages show, --json and --csv; then cxi_send_bw with a peer killed
# or frozen in its timed loop (tcp).
#   bash tests/e2e/test_bw_family.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
[ ${#PROVIDERS[@]} -gt 0 ] || PROVIDERS=(tcp shm)
T0=$(now)
for t in cxi_read_bw cxi_send_bw cxi_gpu_loopback_bw; do
	[ -x "$BUILD/$t" ] || skip "$BUILD/$t not built"
done
HDR_READ='RDMA Size[B]       Reads  BW[MB/s]  PktRate[Mpkt/s]'
HDR_SEND='Send Size[B]       Sends  BW[MB/s]  PktRate[Mpkt/s]'
HDR_LOOP='RDMA Size[B]      Writes  BW[Gb/s]  PktRate[Mpkt/s]'

# The table checker: header line exactly once, the separator above it as
# long as the header, one row per expected size in order, the count
# column, PktRate against BW (within the printed rounding), and, given a
# peer's output, the same BW and PktRate on every row.
cat >"$TMPD/tcheck.py" <<'PY'
import math, re, sys
# FILE HEADER SIZES COUNT [PEER] ; COUNT: a number, "-", or "*N" (a
# positive multiple of N); SIZES: comma list; GBITS=1 for a Gb/s column.
f, header, sizes, count = sys.argv[1:5]
peer = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
gbits = len(sys.argv) > 6 and sys.argv[6] == "1"
row_re = re.compile(r"^\s*(\d+)\s+(-|\d+)\s+(\d+\.\d{2})\s+(\d+\.\d{6})\s*$")

def rows(path):
    return [m.groups() for m in map(row_re.match, open(path).read().splitlines()) if m]

lines = open(f).read().splitlines()
errs = []
n = lines.count(header)
if n != 1:
    errs.append(f"header line {header!r} appears {n} times, want 1")
else:
    i = lines.index(header)
    if i == 0 or lines[i - 1] != "-" * len(header):
        errs.append(f"line above the header is {lines[i - 1] if i else None!r}, want {len(header)} dashes")
    if lines[-1] != "-" * len(header):
        errs.append(f"last line {lines[-1]!r}, want the separator")
got = rows(f)
want_sizes = [int(s) for s in sizes.split(",")]
if [int(r[0]) for r in got] != want_sizes:
    errs.append(f"sizes {[r[0] for r in got]}, want {want_sizes}")
for size, cnt, bw, pkt in got:
    size, bw, pkt = int(size), float(bw), float(pkt)
    if count.startswith("*"):
        if cnt == "-" or int(cnt) <= 0 or int(cnt) % int(count[1:]):
            errs.append(f"size {size}: count {cnt} not a positive multiple of {count[1:]}")
    elif cnt != count:
        errs.append(f"size {size}: count {cnt}, want {count}")
    if bw <= 0 or pkt <= 0:
        errs.append(f"size {size}: BW {bw} / PktRate {pkt} not > 0")
    # PktRate = count*ceil(size/2048)/elapsed and BW = size*count/elapsed
    # (MB/s; Gb/s = MB/s*8/1000): BW/size*pk = PktRate. BW has 2 decimals,
    # PktRate 6: allow half a unit of each.
    pk = math.ceil(size / 2048)
    scale = 8 / 1000 if gbits else 1
    want_bw = pkt * size / pk * scale
    tol = 0.005 + 0.5e-6 * size / pk * scale + 1e-9 * want_bw
    if abs(bw - want_bw) > tol:
        errs.append(f"size {size}: BW {bw} vs PktRate*size/ceil(size/2048) = {want_bw:.4f}")
if peer:
    prow = rows(peer)
    if [(r[0], r[2], r[3]) for r in prow] != [(r[0], r[2], r[3]) for r in got]:
        errs.append(f"BW/PktRate differ from the peer's: {[r[2:] for r in got][:3]} vs {[r[2:] for r in prow][:3]}")
if errs:
    sys.exit("; ".join(errs[:5]))
print(f"{len(got)} rows, header and separators ok" + (", same BW/PktRate as the peer" if peer else ""))
PY

# table FILE WHO HEADER SIZES COUNT [PEER] [GBITS]
table() {
	local f=$1 who=$2; shift 2
	if python3 "$TMPD/tcheck.py" "$f" "$@" >"$TMPD/tcheck" 2>&1; then
		pass "$who table: $(cat "$TMPD/tcheck")"
	else
		fail "$who table: $(tail -1 "$TMPD/tcheck")"
		show "$f"
	fi
}

# summary FILE WHO LINE...: each "Key : value" line present (regex on the
# value); LINE "!Key" must be absent. Also checks the listed keys appear in
# the given order.
summary() {
	local f=$1 who=$2 l key val miss=() extra=() order=()
	shift 2
	for l in "$@"; do
		if [ "${l#!}" != "$l" ]; then
			grep -Eq "^${l#!} +: " "$f" && extra+=("${l#!}")
			continue
		fi
		key=${l%%=*} val=${l#*=}
		[ "$key" = "$l" ] && val='.*'
		if grep -Eq "^$key +: $val\$" "$f"; then
			order+=("$(grep -En "^$key +: " "$f" | head -1 | cut -d: -f1)")
		else
			miss+=("$key: $val")
		fi
	done
	if [ ${#miss[@]} -eq 0 ] && [ ${#extra[@]} -eq 0 ] &&
		printf '%s\n' "${order[@]}" | sort -nc 2>/dev/null; then
		pass "$who summary: $(($# - ${#extra[@]})) lines checked, in order"
	else
		fail "$who summary: missing [${miss[*]}], unexpected [${extra[*]}], order [${order[*]}]"
		show "$f"
	fi
}

# JSON checker: FILE TOOL PROV SIZES COUNT [CLIENT_JSON]: keys, sizes,
# count (null on a uni-directional server), bw and pkt rate from count,
# size and elapsed; a server's figures equal the client's.
cat >"$TMPD/jcheck.py" <<'PY'
import json, math, sys
f, tool, prov, sizes, count = sys.argv[1:6]
client = sys.argv[6] if len(sys.argv) > 6 else ""
try:
    d = json.load(open(f))
except Exception as e:
    sys.exit(f"not one JSON document: {e}")
errs = []
for k in ("tool", "provider", "results"):
    if k not in d:
        errs.append(f"key {k!r} missing")
if d.get("tool") != tool:
    errs.append(f"tool {d.get('tool')!r}")
if prov not in str(d.get("provider")):
    errs.append(f"provider {d.get('provider')!r}, want {prov}")
res = d.get("results") or []
if [r.get("size") for r in res] != [int(s) for s in sizes.split(",")]:
    errs.append(f"sizes {[r.get('size') for r in res]}")
peer = {r["size"]: r for r in json.load(open(client))["results"]} if client else {}
for r in res:
    try:
        for k in ("size", "count", "bw_mb_s", "pkt_rate_mpkt_s", "elapsed_us"):
            if k not in r:
                raise KeyError(k)
        s = r["size"]
        if client:
            if r["count"] is not None:
                errs.append(f"size {s}: server count {r['count']!r}, want null")
            if (r["bw_mb_s"], r["pkt_rate_mpkt_s"]) != (peer[s]["bw_mb_s"], peer[s]["pkt_rate_mpkt_s"]):
                errs.append(f"size {s}: server figures differ from the client's")
            continue
        if r["count"] != int(count):
            errs.append(f"size {s}: count {r['count']}, want {count}")
        el = r["elapsed_us"]
        for key, want in (("bw_mb_s", s * r["count"] / el),
                          ("pkt_rate_mpkt_s", r["count"] * math.ceil(s / 2048) / el)):
            if not (r[key] > 0 and abs(r[key] - want) <= 1e-6 * want):
                errs.append(f"size {s}: {key} {r[key]} vs {want}")
        if "bw_gb_s" in r and abs(r["bw_gb_s"] - r["bw_mb_s"] * 8 / 1000) > 1e-9 * r["bw_gb_s"]:
            errs.append(f"size {s}: bw_gb_s {r['bw_gb_s']} != bw_mb_s*8/1000")
    except (KeyError, TypeError, ZeroDivisionError) as e:
        errs.append(f"size {r.get('size')}: {e!r}")
if errs:
    sys.exit("; ".join(errs[:5]))
print(f"{len(res)} results: keys, sizes" + (", count null, figures = client's" if client else ", count, bw and pkt rate from elapsed_us"))
PY

# json FILE WHO TOOL PROV SIZES COUNT [CLIENT_JSON]
json() {
	local f=$1 who=$2; shift 2
	if python3 "$TMPD/jcheck.py" "$f" "$@" >"$TMPD/jcheck" 2>&1; then
		pass "$who JSON: $(cat "$TMPD/jcheck")"
	else
		fail "$who JSON: $(tail -1 "$TMPD/jcheck")"
		show "$f"
	fi
}

# csv FILE WHO SIZES COUNT [PEER_CSV]: header + one row per size, fields as
# the header; bw and pkt rate from count, size and elapsed_us (plus the
# peer's figures: bidirectional runs report the sum).
csv() {
	if python3 - "$@" >"$TMPD/ccheck" 2>&1 <<'PY'; then
import csv, sys
f, who, sizes, count = sys.argv[1:5]
peer = sys.argv[5] if len(sys.argv) > 5 else None

def load(path):
    rows = [r for r in csv.reader(open(path)) if r]
    hdr = rows[0] if rows else []
    for k in ("size", "count", "elapsed_us", "bw_mb_s", "pkt_rate_mpkt_s"):
        if k not in hdr:
            sys.exit(f"{path}: header {hdr} lacks {k}")
    if any(len(r) != len(hdr) for r in rows[1:]):
        sys.exit("rows with another field count than the header")
    return hdr, [dict(zip(hdr, r)) for r in rows[1:]]

def own(r):
    s, c, el = int(r["size"]), int(r["count"]), float(r["elapsed_us"])
    if el <= 0:
        sys.exit(f"size {s}: elapsed_us {el} not > 0")
    return s * c / el, c * -(-s // 2048) / el

hdr, data = load(f)
if [int(r["size"]) for r in data] != [int(s) for s in sizes.split(",")]:
    sys.exit(f"sizes {[r['size'] for r in data]}, want {sizes}")
if any(r["count"] != count for r in data):
    sys.exit(f"counts {[r['count'] for r in data]}, want {count}")
others = load(peer)[1] if peer else [None] * len(data)
for r, o in zip(data, others):
    # bw_mb_s has 2 decimals, pkt_rate_mpkt_s 6: half a unit of each
    bw, pkt = own(r)
    if o is not None:
        pbw, ppkt = own(o)
        bw, pkt = bw + pbw, pkt + ppkt
    for key, want, tol in (("bw_mb_s", bw, 0.005), ("pkt_rate_mpkt_s", pkt, 0.5e-6)):
        if abs(float(r[key]) - want) > tol + 2e-5 * want:
            sys.exit(f"size {r['size']}: {key} {r[key]} vs {want:.6f} from count, size, elapsed_us")
print(f"{len(data)} rows, header {','.join(hdr)}, figures from count/size/elapsed" + (" summed with the peer's" if peer else ""))
PY
		pass "$2 CSV: $(cat "$TMPD/ccheck")"
	else
		fail "$2 CSV: $(tail -1 "$TMPD/ccheck")"
		show "$1"
	fi
}

csvl() { pow2_range "$1" "$2" | paste -sd, -; }

# ------------------------------------------------------------ cxi_read_bw
bw_read() {
	local P=$1 T=cxi_read_bw
	section "[$P] $T uni-directional -s 4096 -n 20"
	if run_pair $T "$P-read-uni" --provider "$P" -- --provider "$P" -s 4096 -n 20; then
		table "$C_OUT" client "$HDR_READ" 4096 5120
		table "$S_OUT" server "$HDR_READ" 4096 - "$C_OUT"
		summary "$C_OUT" client "Client TX Mem=System" "Server RX Mem=System" \
			"Test Type=Iteration" "Iterations=20" "Read Size=4096" "List Size=256" \
			"Bidirectional=Disabled" "Max RDMA Buf" "RDMA Buf Align=64" "Hugepages=Disabled" \
			'!HRP' '!IDC' '!Client RX Mem' '!Server TX Mem' '!Min Read Size'
		grep -qx '    CXI RDMA Read Bandwidth Test' "$S_OUT" && pass "server title line" \
			|| fail "server: no '    CXI RDMA Read Bandwidth Test' line"
	fi

	section "[$P] $T bidirectional -b -s 1:4096 -n 10"
	if run_pair $T "$P-read-bidir" --provider "$P" -- --provider "$P" -b -s 1:4096 -n 10; then
		table "$C_OUT" client "$HDR_READ" "$(csvl 1 4096)" 2560
		table "$S_OUT" server "$HDR_READ" "$(csvl 1 4096)" 2560 "$C_OUT"
		summary "$S_OUT" server "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Min Read Size=1" \
			"Max Read Size=4096" "Bidirectional=Enabled" '!HRP' '!IDC'
	fi

	section "[$P] $T duration -D 1 -s 8192 -l 64"
	if run_pair $T "$P-read-dur" --provider "$P" -- --provider "$P" -D 1 -s 8192 -l 64; then
		table "$C_OUT" client "$HDR_READ" 8192 '*64'
		table "$S_OUT" server "$HDR_READ" 8192 - "$C_OUT"
		summary "$C_OUT" client "Test Type=Duration" "Duration=1 seconds" "List Size=64" '!Iterations'
	fi

	section "[$P] $T --json -s 64:256 -n 10 (both sides), --csv"
	if run_pair $T "$P-read-json" --provider "$P" --json -- --provider "$P" -s 64:256 -n 10 --json; then
		json "$C_OUT" client $T "$P" 64,128,256 2560
		json "$S_OUT" server $T "$P" 64,128,256 2560 "$C_OUT"
	fi
	if run_pair $T "$P-read-csv" --provider "$P" -- --provider "$P" -s 1:8 -n 5 -l 8 --csv; then
		csv "$C_OUT" client 1,2,4,8 40
	fi
}

# ------------------------------------------------------------ cxi_send_bw
bw_send() {
	local P=$1 T=cxi_send_bw
	section "[$P] $T eager -s 64 -n 20 (inject where the provider allows)"
	if run_pair $T "$P-send-eager" --provider "$P" -- --provider "$P" -s 64 -n 20; then
		table "$C_OUT" client "$HDR_SEND" 64 5120
		table "$S_OUT" server "$HDR_SEND" 64 - "$C_OUT"
		summary "$C_OUT" client "Client TX Mem=System" "Server RX Mem=System" "Send Size=64" \
			"List Size=256" "IDC=Enabled" "Rendezvous PUTs" "Bidirectional=Disabled" \
			"Max RDMA Buf" "RDMA Buf Align=64" "Hugepages=Disabled" '!HRP' '!Client RX Mem'
	fi

	section "[$P] $T rendezvous -R -s 4096:16384 -n 10 -l 32"
	if run_pair $T "$P-send-rdzv" --provider "$P" -- --provider "$P" -R -s 4096:16384 -n 10 -l 32; then
		table "$C_OUT" client "$HDR_SEND" 4096,8192,16384 320
		table "$S_OUT" server "$HDR_SEND" 4096,8192,16384 - "$C_OUT"
		# -R turns IDC off (the originals' rule)
		summary "$C_OUT" client "Min Send Size=4096" "Max Send Size=16384" "IDC=Disabled"
	fi

	section "[$P] $T --no-idc -s 1:64 -n 10"
	if run_pair $T "$P-send-noidc" --provider "$P" -- --provider "$P" --no-idc -s 1:64 -n 10; then
		table "$C_OUT" client "$HDR_SEND" "$(csvl 1 64)" 2560
		table "$S_OUT" server "$HDR_SEND" "$(csvl 1 64)" - "$C_OUT"
		summary "$S_OUT" server "IDC=Disabled"
	fi

	# Sends inject up to 192 B at most, whatever the provider allows (shm
	# allows more): the IDC line must say so, in the originals' words.
	section "[$P] $T -s 256 -n 5: no inject past the 192-byte cap"
	if run_pair $T "$P-send-cap" --provider "$P" -- --provider "$P" -s 256 -n 5; then
		summary "$C_OUT" client "Send Size=256" "IDC=Disabled"
	fi

	section "[$P] $T bidirectional -b -s 1:4096 -n 10"
	if run_pair $T "$P-send-bidir" --provider "$P" -- --provider "$P" -b -s 1:4096 -n 10; then
		table "$C_OUT" client "$HDR_SEND" "$(csvl 1 4096)" 2560
		table "$S_OUT" server "$HDR_SEND" "$(csvl 1 4096)" 2560 "$C_OUT"
		summary "$C_OUT" client "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Min Send Size=1" \
			"Max Send Size=4096" "Bidirectional=Enabled"
		summary "$S_OUT" server "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Bidirectional=Enabled"
	fi

	section "[$P] $T duration -D 1 -s 4096"
	if run_pair $T "$P-send-dur" --provider "$P" -- --provider "$P" -D 1 -s 4096; then
		table "$C_OUT" client "$HDR_SEND" 4096 '*256'
		table "$S_OUT" server "$HDR_SEND" 4096 - "$C_OUT"
		summary "$S_OUT" server "Test Type=Duration" "Duration=1 seconds"
	fi

	section "[$P] $T --json -s 1:1024 -n 10 (both sides), --csv -b"
	if run_pair $T "$P-send-json" --provider "$P" --json -- --provider "$P" -s 1:1024 -n 10 --json; then
		json "$C_OUT" client $T "$P" "$(csvl 1 1024)" 2560
		json "$S_OUT" server $T "$P" "$(csvl 1 1024)" 2560 "$C_OUT"
	fi
	if run_pair $T "$P-send-csv" --provider "$P" --csv -- --provider "$P" -s 16:64 -n 5 -l 8 -b --csv; then
		csv "$C_OUT" client 16,32,64 40 "$S_OUT"
		csv "$S_OUT" server 16,32,64 40 "$C_OUT"
	fi
}

# ---------------------------------------------------- cxi_gpu_loopback_bw
# capture NAME CMD...: run_capture with a 30 s bound.
capture() {
	local name=$1; shift
	run_capture "$name" 30 "$@"
}

bw_loop() {
	local P=$1 T=cxi_gpu_loopback_bw B=$BUILD/cxi_gpu_loopback_bw
	section "[$P] $T system memory -i 5 -n 16 -s 4096"
	capture "$P-loop" "$B" --provider "$P" -i 5 -n 16 -s 4096
	if expect_rc 0 "$RC" "$T -i 5 -n 16 -s 4096"; then
		table "$OUT" "$T" "$HDR_LOOP" 4096 80 "" 1
		summary "$OUT" "$T" "TX Mem=System" "RX Mem=System" "Test Type=Iteration" \
			"Iterations=5" "Write Size \(B\)=4096" "Cmds per iter=16" "Hugepages=Disabled" \
			'!Client TX Mem' '!Server RX Mem' '!List Size' '!Bidirectional' '!Local \(client\)'
		grep -qx '    CXI Loopback Bandwidth Test' "$OUT" && pass "title line" \
			|| fail "no '    CXI Loopback Bandwidth Test' line"
		grep -q 'Listening' "$OUT" "$ERR" && fail "$T listens for a peer" || pass "$T runs alone (no Listening line)"
	else
		show "$OUT" "$ERR"
	fi

	section "[$P] $T duration -D 1 -n 16 -s 65536"
	t0=$(now)
	capture "$P-loop-dur" "$B" --provider "$P" -D 1 -n 16 -s 65536
	t=$(elapsed_since "$t0")
	if expect_rc 0 "$RC" "$T -D 1"; then
		table "$OUT" "$T" "$HDR_LOOP" 65536 '*16' "" 1
		summary "$OUT" "$T" "Test Type=Duration" "Duration=1 seconds" "Write Size \(B\)=65536" '!Iterations'
		awk -v t="$t" 'BEGIN { exit !(t >= 1.0) }' && pass "-D 1 ran ${t}s (>= 1 s)" || fail "-D 1 ended after ${t}s"
	else
		show "$OUT" "$ERR"
	fi

	section "[$P] $T --json -i 3 -n 8 -s 65536 and --csv"
	capture "$P-loop-json" "$B" --provider "$P" --json -i 3 -n 8 -s 65536
	if expect_rc 0 "$RC" "$T --json"; then
		json "$OUT" "$T" $T "$P" 65536 24
	fi
	capture "$P-loop-csv" "$B" --provider "$P" --csv -i 2 -n 8 -s 3000
	if expect_rc 0 "$RC" "$T --csv"; then
		csv "$OUT" "$T" 3000 16
		head -1 "$OUT" | grep -q 'bw_gb_s' && pass "CSV has bw_gb_s" || fail "CSV header lacks bw_gb_s"
	fi
}

loop_rules() {
	section "cxi_gpu_loopback_bw option rules"
	run_capture loop-range 10 "$BUILD/cxi_gpu_loopback_bw" -s 1:8
	expect_rc 2 "$RC" "-s 1:8 (one size only)"
	grep -q "Invalid transfer size: '1:8'" "$ERR" && pass "message names the transfer size" \
		|| { fail "no \"Invalid transfer size: '1:8'\""; show "$ERR"; }
	run_capture loop-port 10 "$BUILD/cxi_gpu_loopback_bw" -p 5000
	expect_rc 2 "$RC" "-p (no peer, no port)"
}

# ------------------------------------------------ faults: cxi_send_bw, tcp
# As test_faults.sh: a peer killed or frozen while the other runs its timed
# loop. Each case must end within 10 s (15 s frozen), exit non-zero with a
# message on stderr and leave no process behind.
FT=cxi_send_bw

start_long_run() {
	start_server $FT --provider tcp || return 1
	start_bg client "$BUILD/$FT" "$LOOPBACK" -p "$SERVER_PORT" --provider tcp -D 30 -s 4096
	CLI_PID=$BG_PID CLI_ERR=$BG_ERR
	if ! wait_running "$BG_PID" "$BG_OUT" "$SERVER_OUT"; then
		fail "long run did not start within 10 s"
		show "$BG_OUT" "$CLI_ERR" "$SERVER_OUT" "$SERVER_ERR"
		return 1
	fi
}

# judge_left NAME RC SECS BOUND ERRFILE PGID...: lib.sh's judge, then no
# process of the groups left behind.
judge_left() {
	judge "$1" "$2" "$3" "$4" "$5"
	no_leftovers "$1" "${@:6}"
}

faults() {
	section "[tcp] $FT: server SIGKILL during the timed loop"
	if start_long_run; then
		kill -9 "$SERVER_PID"
		t0=$(now)
		wait_pid "$CLI_PID" 10
		judge_left "server SIGKILL" "$WAIT_RC" "$(elapsed_since "$t0")" 10 "$CLI_ERR" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[tcp] $FT: client SIGKILL during the timed loop"
	if start_long_run; then
		kill -9 "$CLI_PID"
		t0=$(now)
		wait_server 10
		judge_left "client SIGKILL" "$SERVER_RC" "$(elapsed_since "$t0")" 10 "$SERVER_ERR" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[tcp] $FT: client SIGSTOP during the timed loop"
	if start_long_run; then
		kill -STOP "$CLI_PID"
		t0=$(now)
		wait_server 15
		s=$(elapsed_since "$t0")
		kill -CONT "$CLI_PID"
		wait_pid "$CLI_PID" 10 || kill -9 "$CLI_PID"
		judge_left "client SIGSTOP" "$SERVER_RC" "$s" 15 "$SERVER_ERR" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[tcp] $FT: server SIGSTOP during the timed loop"
	if start_long_run; then
		kill -STOP "$SERVER_PID"
		t0=$(now)
		wait_pid "$CLI_PID" 15
		rc=$WAIT_RC s=$(elapsed_since "$t0")
		[ "$rc" = 124 ] && kill -9 "$CLI_PID"
		kill -CONT "$SERVER_PID"
		wait_server 10 || kill -9 "$SERVER_PID"
		judge_left "server SIGSTOP" "$rc" "$s" 15 "$CLI_ERR" "$SERVER_PGID" "$CLI_PID"
	fi
}

# Parts run as separate copies of this script, at the same time: each
# provider's runs and the fault cases (mostly waiting out a 5 s stall).
# A part has its own temp dir and cleanup; this copy collects their logs.
# BW_FAMILY_PART=tcp|shm|faults runs one part alone.
run_part() {
	case $1 in
	faults) faults ;;
	*) bw_read "$1"; bw_send "$1"; bw_loop "$1" ;;
	esac
}

if [ -n "${BW_FAMILY_PART:-}" ]; then
	run_part "$BW_FAMILY_PART"
	finish
fi
PARTS=("${PROVIDERS[@]}" faults)
PART_PIDS=()
for part in "${PARTS[@]}"; do
	start_bg "part-$part" env BW_FAMILY_PART="$part" bash "$0" "$BUILD"
	PART_PIDS+=("$BG_PID:$BG_OUT:$BG_ERR")
done
collect_parts 240
loop_rules
note "whole script: $(elapsed_since "$T0") s"
finish

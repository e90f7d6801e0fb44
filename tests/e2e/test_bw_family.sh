#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
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
# E2E_PROVIDERS: the providers when none is given (make lf2: tcp alone;
# 2.x's shm runs there in test_write_bw, test_robust and test_sweep).
[ ${#PROVIDERS[@]} -gt 0 ] || read -ra PROVIDERS <<<"${E2E_PROVIDERS:-tcp shm}"
T0=$(now)
for t in cxi_read_bw cxi_send_bw cxi_gpu_loopback_bw; do
	[ -x "$BUILD/$t" ] || skip "$BUILD/$t not built"
done
HDR_READ='RDMA Size[B]       Reads  BW[MB/s]  PktRate[Mpkt/s]'
HDR_SEND='Send Size[B]       Sends  BW[MB/s]  PktRate[Mpkt/s]'
HDR_LOOP='RDMA Size[B]      Writes  BW[Gb/s]  PktRate[Mpkt/s]'

# The checkers (tests/e2e/py/bw_*.py; their usage is in each file):
# table FILE WHO HEADER SIZES COUNT [PEER] [GBITS]: the text table;
# json FILE WHO TOOL PROV SIZES COUNT [CLIENT_JSON]: --json;
# csv FILE WHO SIZES COUNT [PEER_CSV]: --csv.
table() { py_check "$2 table" "$1" bw_table.py "$1" "${@:3}"; }
json() { py_check "$2 JSON" "$1" bw_json.py "$1" "${@:3}"; }
csv() { py_check "$2 CSV" "$1" bw_csv.py "$@"; }

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

csvl() { pow2_range "$1" "$2" | paste -sd, -; }

# pair_tables PROV TOOL NAME HEADER SIZES COUNT SERVER_COUNT CLIENT_ARGS...:
# run_pair on PROV (the client with CLIENT_ARGS), then both tables: the
# client's with COUNT, the server's with SERVER_COUNT ("-": a one-way
# server) and the client's figures. 1 if the pair did not run.
pair_tables() {
	local prov=$1 tool=$2 name=$3 hdr=$4 sizes=$5 count=$6 scount=$7
	shift 7
	run_pair "$tool" "$name" --provider "$prov" -- --provider "$prov" "$@" || return 1
	table "$C_OUT" client "$hdr" "$sizes" "$count"
	table "$S_OUT" server "$hdr" "$sizes" "$scount" "$C_OUT"
}

# ------------------------------------------------------------ cxi_read_bw
bw_read() {
	local P=$1 T=cxi_read_bw
	section "[$P] $T uni-directional -s 4096 -n 20"
	if pair_tables "$P" $T "$P-read-uni" "$HDR_READ" 4096 5120 - -s 4096 -n 20; then
		summary "$C_OUT" client "Client TX Mem=System" "Server RX Mem=System" \
			"Test Type=Iteration" "Iterations=20" "Read Size=4096" "List Size=256" \
			"Bidirectional=Disabled" "Max RDMA Buf" "RDMA Buf Align=64" "Hugepages=Disabled" \
			'!HRP' '!IDC' '!Client RX Mem' '!Server TX Mem' '!Min Read Size'
		grep -qx '    CXI RDMA Read Bandwidth Test' "$S_OUT" && pass "server title line" \
			|| fail "server: no '    CXI RDMA Read Bandwidth Test' line"
	fi

	section "[$P] $T bidirectional -b -s 1:4096 -n 10"
	if pair_tables "$P" $T "$P-read-bidir" "$HDR_READ" "$(csvl 1 4096)" 2560 2560 -b -s 1:4096 -n 10; then
		summary "$S_OUT" server "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Min Read Size=1" \
			"Max Read Size=4096" "Bidirectional=Enabled" '!HRP' '!IDC'
	fi

	section "[$P] $T duration -D 1 -s 8192 -l 64"
	if pair_tables "$P" $T "$P-read-dur" "$HDR_READ" 8192 '*64' - -D 1 -s 8192 -l 64; then
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
	if pair_tables "$P" $T "$P-send-eager" "$HDR_SEND" 64 5120 - -s 64 -n 20; then
		summary "$C_OUT" client "Client TX Mem=System" "Server RX Mem=System" "Send Size=64" \
			"List Size=256" "IDC=Enabled" "Rendezvous PUTs" "Bidirectional=Disabled" \
			"Max RDMA Buf" "RDMA Buf Align=64" "Hugepages=Disabled" '!HRP' '!Client RX Mem'
	fi

	section "[$P] $T rendezvous -R -s 4096:16384 -n 10 -l 32"
	if pair_tables "$P" $T "$P-send-rdzv" "$HDR_SEND" 4096,8192,16384 320 - -R -s 4096:16384 -n 10 -l 32; then
		# -R turns IDC off (the originals' rule)
		summary "$C_OUT" client "Min Send Size=4096" "Max Send Size=16384" "IDC=Disabled"
	fi

	section "[$P] $T --no-idc -s 1:64 -n 10"
	if pair_tables "$P" $T "$P-send-noidc" "$HDR_SEND" "$(csvl 1 64)" 2560 - --no-idc -s 1:64 -n 10; then
		summary "$S_OUT" server "IDC=Disabled"
	fi

	# Sends inject up to 192 B at most, whatever the provider allows (shm
	# allows more): the IDC line must say so, in the originals' words.
	section "[$P] $T -s 256 -n 5: no inject past the 192-byte cap"
	if run_pair $T "$P-send-cap" --provider "$P" -- --provider "$P" -s 256 -n 5; then
		summary "$C_OUT" client "Send Size=256" "IDC=Disabled"
	fi

	section "[$P] $T bidirectional -b -s 1:4096 -n 10"
	if pair_tables "$P" $T "$P-send-bidir" "$HDR_SEND" "$(csvl 1 4096)" 2560 2560 -b -s 1:4096 -n 10; then
		summary "$C_OUT" client "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Min Send Size=1" \
			"Max Send Size=4096" "Bidirectional=Enabled"
		summary "$S_OUT" server "Client TX Mem=System" "Client RX Mem=System" \
			"Server TX Mem=System" "Server RX Mem=System" "Bidirectional=Enabled"
	fi

	section "[$P] $T duration -D 1 -s 4096"
	if pair_tables "$P" $T "$P-send-dur" "$HDR_SEND" 4096 '*256' - -D 1 -s 4096; then
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

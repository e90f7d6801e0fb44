#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# cxi_write_bw end to end: server and client as two processes over tcp and shm.
#   bash tests/e2e/test_write_bw.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
[ ${#PROVIDERS[@]} -gt 0 ] || PROVIDERS=(tcp shm)
TOOL=cxi_write_bw
BIN=$BUILD/$TOOL
[ -x "$BIN" ] || skip "$BIN not built"
HEADER='RDMA Size[B]      Writes  BW[MB/s]  PktRate[Mpkt/s]'

# field FILE ROW COL: column COL (1-based) of data row ROW of the table in FILE.
field() { table_rows "$1" | sed -n "${2}p" | awk -v c="$3" '{ print $c }'; }
nrows() { table_rows "$1" | wc -l; }
gt0() { awk -v x="$1" 'BEGIN { exit !(x + 0 > 0) }'; }

check_header() {
	local f=$1 who=$2
	if grep -qF "$HEADER" "$f"; then pass "$who prints the header '$HEADER'"
	else fail "$who: header '$HEADER' missing"; show "$f"; fi
}

for PROV in "${PROVIDERS[@]}"; do
	section "[$PROV] uni-directional, default size, -n 50"
	if run_pair "$TOOL" "$PROV-uni" --provider "$PROV" -- --provider "$PROV" -n 50; then
		check_header "$C_OUT" client
		check_header "$S_OUT" server
		r=$(nrows "$C_OUT"); [ "$r" -eq 1 ] && pass "client: 1 row" || fail "client: $r rows, want 1"
		r=$(nrows "$S_OUT"); [ "$r" -eq 1 ] && pass "server: 1 row" || fail "server: $r rows, want 1"
		s=$(field "$C_OUT" 1 1); [ "$s" = 65536 ] && pass "size column 65536" || fail "size column '$s', want 65536"
		c=$(field "$C_OUT" 1 2); [ "$c" = 12800 ] && pass "client count 12800 (50 x 256)" || fail "client count '$c', want 12800"
		c=$(field "$S_OUT" 1 2); [ "$c" = - ] && pass "server count column '-'" || fail "server count '$c', want '-'"
		cb=$(field "$C_OUT" 1 3); sb=$(field "$S_OUT" 1 3)
		[ -n "$cb" ] && [ "$cb" = "$sb" ] && pass "client and server BW equal ($cb MB/s)" || fail "BW differ: client '$cb' server '$sb'"
		gt0 "$cb" && pass "BW > 0" || fail "BW '$cb' not > 0"
		cp=$(field "$C_OUT" 1 4); sp=$(field "$S_OUT" 1 4)
		[ -n "$cp" ] && [ "$cp" = "$sp" ] && pass "PktRate equal ($cp)" || fail "PktRate differ: client '$cp' server '$sp'"
		# PktRate = BW/size * ceil(size/2048) (Mpkt/s, MB/s): 65536 -> BW*32/65536
		awk -v b="$cb" -v p="$cp" 'BEGIN { e = b / 65536 * 32; exit !(e > 0 && (p - e) / e < 0.001 && (e - p) / e < 0.001) }' \
			&& pass "PktRate = BW/size*ceil(size/2048)" || fail "PktRate $cp inconsistent with BW $cb"
	fi

	section "[$PROV] bidirectional -b -n 50"
	if run_pair "$TOOL" "$PROV-bidir" --provider "$PROV" -- --provider "$PROV" -n 50 -b; then
		c=$(field "$C_OUT" 1 2); s=$(field "$S_OUT" 1 2)
		[ "$c" = 12800 ] && pass "client count 12800" || fail "client count '$c', want 12800"
		[ "$s" = 12800 ] && pass "server shows its own count 12800" || fail "server count '$s', want 12800"
		cb=$(field "$C_OUT" 1 3); sb=$(field "$S_OUT" 1 3)
		[ -n "$cb" ] && [ "$cb" = "$sb" ] && pass "summed BW equal on both sides ($cb MB/s)" || fail "BW differ: client '$cb' server '$sb'"
		gt0 "$cb" && pass "BW > 0" || fail "BW '$cb' not > 0"
		grep -Eq 'Bidirectional +: Enabled' "$C_OUT" && pass "summary says Bidirectional: Enabled" \
			|| fail "summary lacks 'Bidirectional : Enabled'"
	fi

	section "[$PROV] duration -D 1 -s 4096"
	t0=$(now)
	if run_pair "$TOOL" "$PROV-dur" --provider "$PROV" -- --provider "$PROV" -D 1 -s 4096; then
		t=$(elapsed_since "$t0")
		c=$(field "$C_OUT" 1 2)
		if [ -n "$c" ] && [ "$c" -gt 0 ] 2>/dev/null; then pass "count $c > 0"; else fail "count '$c' not > 0"; fi
		if [ -n "$c" ] && [ $((c % 256)) -eq 0 ] 2>/dev/null; then pass "count multiple of list size 256"; else fail "count '$c' not a multiple of 256"; fi
		grep -Eq 'Duration +: 1 seconds?' "$C_OUT" && pass "summary says Duration: 1 second(s)" || fail "summary lacks 'Duration : 1 seconds'"
		awk -v t="$t" 'BEGIN { exit !(t >= 1.0 && t < 20) }' && pass "run took ${t}s (>= 1 s)" || fail "run took ${t}s, want >= 1 s"
	fi

	section "[$PROV] range -s 1:4096 -n 20"
	if run_pair "$TOOL" "$PROV-range" --provider "$PROV" -- --provider "$PROV" -s 1:4096 -n 20; then
		r=$(nrows "$C_OUT"); [ "$r" -eq 13 ] && pass "client: 13 rows" || fail "client: $r rows, want 13"
		r=$(nrows "$S_OUT"); [ "$r" -eq 13 ] && pass "server: 13 rows" || fail "server: $r rows, want 13"
		got=$(table_rows "$C_OUT" | awk '{ print $1 }' | tr '\n' ' ')
		want=$(pow2_range 1 4096 | tr '\n' ' ')
		[ "$got" = "$want" ] && pass "sizes 1..4096 in order" || fail "sizes '$got', want '$want'"
		bad=$(table_rows "$C_OUT" | awk '$2 != 5120' | wc -l)
		[ "$bad" -eq 0 ] && pass "every count 5120 (20 x 256)" || fail "$bad rows with count != 5120"
		grep -Eq 'Min Write Size +: 1$' "$C_OUT" && grep -Eq 'Max Write Size +: 4096$' "$C_OUT" \
			&& pass "summary shows Min/Max Write Size" || fail "summary lacks 'Min Write Size : 1' / 'Max Write Size : 4096'"
	fi

	section "[$PROV] --json on both sides, -s 1:1024 -n 20"
	if run_pair "$TOOL" "$PROV-json" --provider "$PROV" --json -- --provider "$PROV" -s 1:1024 -n 20 --json; then
		for side in client server; do
			if [ $side = client ]; then f=$C_OUT; else f=$S_OUT; fi
			py_check "$side JSON" "$f" write_bw_json.py "$f" "$PROV" "$side" "$C_OUT"
		done
		grep -q 'Listening on port' "$S_OUT" && fail "server --json: Listening line on stdout (want stderr)" \
			|| pass "server --json: Listening line not on stdout"
	fi

	section "[$PROV] --csv -s 64:256 -n 10"
	if run_pair "$TOOL" "$PROV-csv" --provider "$PROV" -- --provider "$PROV" -s 64:256 -n 10 --csv; then
		py_check "client CSV" "$C_OUT" write_bw_csv.py "$C_OUT"
	fi

	section "[$PROV] --local -s 1:64 -n 20"
	run_capture "$PROV-local" 60 "$BIN" --local --provider "$PROV" -s 1:64 -n 20
	if expect_rc 0 "$RC" "--local"; then
		r=$(nrows "$OUT"); [ "$r" -eq 7 ] && pass "7 rows (1..64)" || fail "$r rows, want 7"
		bad=$(table_rows "$OUT" | awk '$2 != 5120' | wc -l)
		[ "$bad" -eq 0 ] && pass "every count 5120 (client's view)" || fail "$bad rows with count != 5120"
	else
		show "$OUT" "$ERR"
	fi
done

section "server with -p 0"
start_server "$TOOL" -p 0 && {
	first=$(head -1 "$SERVER_OUT")
	[[ $first =~ ^Listening\ on\ port\ ([0-9]+)\ for\ client\ to\ connect\.\.\.$ ]] \
		&& pass "first stdout line: '$first'" || fail "first stdout line '$first'"
	if [ -n "$SERVER_PORT" ] && [ "$SERVER_PORT" -gt 0 ] && [ "$SERVER_PORT" -ne 49194 ]; then
		pass "picked port $SERVER_PORT (not 0, not the default)"
	else
		fail "port '$SERVER_PORT'"
	fi
	run_capture p0-client 30 "$BIN" "$LOOPBACK" -p "$SERVER_PORT" -n 5 -s 8
	expect_rc 0 "$RC" "client to the picked port" || show "$OUT" "$ERR"
	wait_server 10
	expect_rc 0 "$SERVER_RC" "server" || show "$SERVER_OUT" "$SERVER_ERR"
}

finish

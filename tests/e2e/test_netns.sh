#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# Two "hosts": network namespaces joined by a veth pair (169.254.77.1/30 and
# .2/30, link-local, never routed). Server in A, client in B, provider tcp.
# The payload the client claims must agree with the kernel's byte counters:
#   0.8 * tx_bytes(veth B) <= size*count <= tx_bytes(veth B)
# Root only; exits 77 (skipped) with the reason otherwise.
#   bash tests/e2e/test_netns.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
TOOL=cxi_write_bw
BIN=$BUILD/$TOOL
[ -x "$BIN" ] || skip "$BIN not built"
[ "$(id -u)" -eq 0 ] || skip "needs root (ip netns)"
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"

NSA=cxdA$$ NSB=cxdB$$
VA=cxva$$ VB=cxvb$$
ADDR_A=169.254.77.1 ADDR_B=169.254.77.2

ip netns add "$NSA" 2>"$TMPD/netns.err" || skip "ip netns add failed: $(cat "$TMPD/netns.err")"
on_exit "ip netns del $NSA"
ip netns add "$NSB" 2>"$TMPD/netns.err" || skip "ip netns add failed: $(cat "$TMPD/netns.err")"
on_exit "ip netns del $NSB"
setup() {
	ip link add "$VA" netns "$NSA" type veth peer name "$VB" netns "$NSB" &&
		ip -n "$NSA" addr add "$ADDR_A/30" dev "$VA" &&
		ip -n "$NSB" addr add "$ADDR_B/30" dev "$VB" &&
		ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
		ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up
}
setup 2>"$TMPD/veth.err" || skip "veth setup failed: $(cat "$TMPD/veth.err")"
# Reachable = a TCP connect to port 9 of A from B is answered (refused counts).
reach() {
	ip netns exec "$NSB" python3 "$E2E_PY/tcp_reach.py" "$ADDR_A" 2>/dev/null
}
for ((n = 0; n < 100; n++)); do reach && break; sleep 0.05; done
reach && pass "namespaces $NSA/$NSB up, $ADDR_A reachable from $NSB" \
	|| die "veth $VA/$VB: $ADDR_A not reachable from $NSB"

txb() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"; }

# payload_check NAME JSON TX_BYTES_DELTA WHO: 0.8 * tx <= size * count <= tx
payload_check() { py_check "$1: ${4%:}" "" netns_payload.py "$2" "$3"; }

# ------------------------------------------------------------------ uni
section "write over tcp, server in $NSA, client in $NSB, -s 65536 -n 200"
SERVER_PREFIX=(ip netns exec "$NSA")
if start_server "$TOOL" --provider tcp --json; then
	a0=$(txb "$NSA" "$VA"); b0=$(txb "$NSB" "$VB")
	run_capture ns-client 60 ip netns exec "$NSB" "$BIN" "$ADDR_A" -p "$SERVER_PORT" \
		--provider tcp -s 65536 -n 200 --json
	wait_server 15
	a1=$(txb "$NSA" "$VA"); b1=$(txb "$NSB" "$VB")
	note "tx_bytes: $VB (client) +$((b1 - b0)), $VA (server) +$((a1 - a0))"
	if expect_rc 0 "$RC" "client" && expect_rc 0 "$SERVER_RC" "server"; then
		c=$(json_get "$OUT" results.0.count)
		[ "$c" = 51200 ] && pass "client count 51200 (200 x 256)" || fail "client count '$c', want 51200"
		py_check "bw_mb_s*elapsed_us = size*count" "" netns_bw.py "$OUT"
		payload_check "uni" "$OUT" $((b1 - b0)) "client veth:"
		sp=$(json_get "$SERVER_OUT" provider 2>/dev/null)
		cp=$(json_get "$OUT" provider 2>/dev/null)
		[[ $cp == *tcp* ]] && pass "client provider '$cp'" || fail "client provider '$cp', want tcp"
		[[ $sp == *tcp* ]] && pass "server provider '$sp'" || fail "server provider '$sp', want tcp"
	else
		show "$OUT" "$ERR" "$SERVER_OUT" "$SERVER_ERR"
	fi
fi

# ------------------------------------------------------------------ bidir
section "bidirectional -b over tcp between the namespaces, -s 65536 -n 100"
if start_server "$TOOL" --provider tcp --json; then
	a0=$(txb "$NSA" "$VA"); b0=$(txb "$NSB" "$VB")
	run_capture ns-bidir 60 ip netns exec "$NSB" "$BIN" "$ADDR_A" -p "$SERVER_PORT" \
		--provider tcp -s 65536 -n 100 -b --json
	wait_server 15
	a1=$(txb "$NSA" "$VA"); b1=$(txb "$NSB" "$VB")
	note "tx_bytes: $VB (client) +$((b1 - b0)), $VA (server) +$((a1 - a0))"
	if expect_rc 0 "$RC" "client -b" && expect_rc 0 "$SERVER_RC" "server -b"; then
		payload_check "bidir" "$OUT" $((b1 - b0)) "client veth:"
		payload_check "bidir" "$SERVER_OUT" $((a1 - a0)) "server veth:"
		py_check "bidir" "" netns_bidir.py "$OUT" "$SERVER_OUT"
	else
		show "$OUT" "$ERR" "$SERVER_OUT" "$SERVER_ERR"
	fi
fi

# ------------------------------------------------------------------ slow
# A healthy but slow link (issue 10): 20 Mbit/s = 2.5 MB/s on the client's
# side; one 16 MiB write takes ~6.7 s, longer than any fixed 5 s limit. It
# must complete and report about the shaped rate (0.5x to 1.05x of it).
section "slow link: tbf 20mbit on $VB, -s 16M -l 1 -n 2"
if ! command -v tc >/dev/null; then
	skip_part "slow link: no 'tc' command (iproute2)"
elif ! ip netns exec "$NSB" tc qdisc add dev "$VB" root tbf rate 20mbit burst 32kbit latency 400ms 2>"$TMPD/tc.err"; then
	skip_part "slow link: tc tbf: $(cat "$TMPD/tc.err")"
elif start_server "$TOOL" --provider tcp; then
	t0=$(now)
	run_capture ns-slow 90 ip netns exec "$NSB" "$BIN" "$ADDR_A" -p "$SERVER_PORT" \
		--provider tcp -s 16777216 -l 1 -n 2 --json
	secs=$(elapsed_since "$t0")
	wait_server 15
	if expect_rc 0 "$RC" "slow link: client ($secs s)" && expect_rc 0 "$SERVER_RC" "slow link: server"; then
		bw=$(json_get "$OUT" results.0.bw_mb_s)
		awk -v b="$bw" 'BEGIN { exit !(b >= 1.25 && b <= 2.625) }' \
			&& pass "slow link: $bw MB/s, within 0.5x-1.05x of the 2.5 MB/s shaped rate" \
			|| fail "slow link: $bw MB/s, want 1.25 to 2.625 (tbf 20mbit = 2.5 MB/s)"
	else
		show "$ERR" "$SERVER_ERR"
	fi
	ip netns exec "$NSB" tc qdisc del dev "$VB" root 2>/dev/null
fi

finish

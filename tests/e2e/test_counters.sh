#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (cxi_sweep --health under mpirun on the real fabric)
# Link error counters and --interval windows, on real kernel counters: two
# network namespaces joined by a veth pair (as test_netns.sh), tcp.
#   clean link        -> "Link errors : none", TCP retransmits under 5 %
#   lossy link        -> tc tbf with a small queue drops, TCP retransmits:
#                        "TCP retransmits : +N of M segments" in the
#                        summary, and in JSON
#   reshaped link     -> -D 12 --interval 1, the rate cut to a tenth for 3 s:
#                        the worst window is named where it happened
#   unreadable        -> counters this user may not read are named
#                        unavailable, never 0 (a non-root user, a test root)
#   cxi_sweep --health -> a NIC whose link is down is named, exit 3
# Bad --interval values exit 2 naming the option. Root only (77 otherwise).
#   bash tests/e2e/test_counters.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
TOOL=cxi_write_bw
BIN=$BUILD/$TOOL
[ -x "$BIN" ] || skip "$BIN not built"

section "bad --interval: exit 2 naming the option"
for args in "-D 2 --interval 0" "-D 2 --interval 3" "--interval 1"; do
	# shellcheck disable=SC2086
	run_capture badiv 10 "$BIN" --local $args
	if [ "$RC" = 2 ] && grep -q -- "interval" "$ERR"; then
		pass "$args: exit 2, $(head -1 "$ERR")"
	else
		fail "$args: exit $RC, want 2 naming --interval"; show "$ERR"
	fi
done

[ "$(id -u)" -eq 0 ] || skip "needs root (ip netns)"
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"
command -v tc >/dev/null || skip "no 'tc' command (iproute2)"

NSA=cxcA$$ NSB=cxcB$$ VA=cxca$$ VB=cxcb$$
ADDR_A=169.254.79.1 ADDR_B=169.254.79.2
ip netns add "$NSA" 2>"$TMPD/netns.err" || skip "ip netns add failed: $(cat "$TMPD/netns.err")"
on_exit "ip netns del $NSA"
ip netns add "$NSB" 2>"$TMPD/netns.err" || skip "ip netns add failed: $(cat "$TMPD/netns.err")"
on_exit "ip netns del $NSB"
{ ip link add "$VA" netns "$NSA" type veth peer name "$VB" netns "$NSB" &&
	ip -n "$NSA" addr add "$ADDR_A/30" dev "$VA" &&
	ip -n "$NSB" addr add "$ADDR_B/30" dev "$VB" &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
	ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up; } \
	2>"$TMPD/veth.err" || skip "veth setup failed: $(cat "$TMPD/veth.err")"
reach() { ip netns exec "$NSB" python3 "$E2E_PY/tcp_reach.py" "$ADDR_A" 2>/dev/null; }
for ((n = 0; n < 100; n++)); do reach && break; sleep 0.05; done
reach || die "veth $VA/$VB: $ADDR_A not reachable from $NSB"
SERVER_PREFIX=(ip netns exec "$NSA")
shape() { ip netns exec "$NSB" tc qdisc replace dev "$VB" root tbf "$@"; }

# client NAME SECS ARGS...: the client in B against a fresh server in A.
client() {
	local name=$1 secs=$2; shift 2
	start_server "$TOOL" --provider tcp || return 1
	run_capture "$name" "$secs" ip netns exec "$NSB" "$BIN" "$ADDR_A" \
		-p "$SERVER_PORT" --provider tcp "$@"
	wait_server 15
	expect_rc 0 "$RC" "$name client" || { show "$OUT" "$ERR"; return 1; }
}

section "clean link: -D 2, nothing may move"
client clean 30 -s 65536 -D 2 --json &&
	py_check "clean veth" "$OUT" counters_check.py clean "$OUT"

section "lossy link: tbf 500mbit, a 100 kB queue drops; TCP retransmits"
if shape rate 500mbit burst 64kb limit 100kb 2>"$TMPD/tc.err"; then
	client lossy 30 -s 65536 -D 3 --json &&
		py_check "lossy veth" "$OUT" counters_check.py moved "$OUT" \
			"tcp retransmits"
	note "qdisc: $(ip netns exec "$NSB" tc -s qdisc show dev "$VB" | grep -o 'dropped [0-9]*')"
else
	skip_part "lossy link: tc tbf: $(cat "$TMPD/tc.err")"
fi

section "reshaped link: -D 12 --interval 1, 400 -> 40 mbit for 3 s at ~5 s"
if shape rate 400mbit burst 256kb limit 4mb 2>"$TMPD/tc.err" &&
	start_server "$TOOL" --provider tcp; then
	E2E_SEQ=$((E2E_SEQ + 1))
	OUT=$TMPD/$E2E_SEQ.reshape.out
	t0=$(now)
	timeout -k 2 40 ip netns exec "$NSB" "$BIN" "$ADDR_A" -p "$SERVER_PORT" \
		--provider tcp -s 65536 -l 16 -D 12 --interval 1 --json >"$OUT" \
		2>"$TMPD/reshape.err" &
	cpid=$!
	sleep 5
	t1=$(elapsed_since "$t0")
	shape rate 40mbit burst 256kb limit 4mb
	sleep 3
	t2=$(elapsed_since "$t0")
	shape rate 400mbit burst 256kb limit 4mb
	wait "$cpid"; RC=$?
	wait_server 15
	note "rate cut from $t1 s to $t2 s after the client started"
	if expect_rc 0 "$RC" "reshaped client"; then
		python3 -c 'import json,sys
for w in json.load(open(sys.argv[1]))["results"][0]["windows"]:
    print("       window %5.1f-%5.1f s %8.2f MB/s" % (w["start_s"], w["end_s"], w["bw_mb_s"]))' "$OUT"
		# Loop time runs behind the shell's by the setup: one window.
		py_check "reshaped veth" "$OUT" counters_check.py worst "$OUT" \
			"$(awk -v t="$t1" 'BEGIN { print t - 2 }')" \
			"$(awk -v t="$t2" 'BEGIN { print t + 1 }')"
	else
		show "$OUT" "$TMPD/reshape.err"
	fi
else
	skip_part "reshaped link: tc tbf or server: $(cat "$TMPD/tc.err")"
fi

section "unreadable counters: a non-root user, files of mode 0400"
STANDIN=$BUILD/standin/$TOOL
ROOTD=$(mktemp -d /tmp/cxd-sysroot.XXXXXX)
on_exit "rm -rf $ROOTD"
chmod 755 "$ROOTD"
mkdir -p "$ROOTD/proc/net" "$ROOTD/sys/class/net/lo/statistics"
cp /proc/net/snmp /proc/net/netstat "$ROOTD/proc/net/"
cp /sys/class/net/lo/statistics/* "$ROOTD/sys/class/net/lo/statistics/" 2>/dev/null
cp /sys/class/net/lo/carrier_changes "$ROOTD/sys/class/net/lo/"
chmod 0400 "$ROOTD/proc/net/snmp" "$ROOTD/sys/class/net/lo/statistics/rx_errors"
if ! command -v setpriv >/dev/null || [ ! -x "$STANDIN" ]; then
	skip_part "unreadable counters: no setpriv (util-linux) or no $STANDIN"
else
	run_capture nobody 30 env CXD_TEST_SYSROOT="$ROOTD" setpriv --reuid=65534 \
		--regid=65534 --clear-groups "$STANDIN" --local --provider tcp \
		-s 4096 -n 20 --json
	expect_rc 0 "$RC" "client as uid 65534" &&
		py_check "unreadable as uid 65534" "$OUT" counters_check.py \
			unavailable "$OUT"
fi

section "cxi_sweep --health: every rank's NIC down (a test root says so)"
SWEEP=$BUILD/standin/cxi_sweep
if ! command -v mpirun >/dev/null || [ ! -x "$SWEEP" ]; then
	skip_part "cxi_sweep --health: no mpirun or no $SWEEP"
else
	for i in /sys/class/net/*; do
		mkdir -p "$ROOTD/sys/class/net/${i##*/}"
		echo down >"$ROOTD/sys/class/net/${i##*/}/operstate"
	done
	run_capture health 60 env CXD_TEST_SYSROOT="$ROOTD" \
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		mpirun --oversubscribe --mca btl self,vader -np 2 "$SWEEP" \
		--health --provider tcp -d lo
	n=$(grep -c 'Health: .* (rank [01]): NIC .* is down' "$OUT")
	# 3: a FAIL verdict, as cxi_node_health's (1 is a check that failed)
	if [ "$RC" = 3 ] && [ "$n" = 2 ]; then
		pass "exit 3, both ranks named: $(grep -m1 'is down' "$OUT")"
	else
		fail "exit $RC, $n ranks named down, want 3 and 2"
		show "$OUT" "$ERR"
	fi
fi
finish

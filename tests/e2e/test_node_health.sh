#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (a link toggled during the check's timed wait)
# cxi_node_health, the node check without MPI:
#   this host's sysfs  -> every NIC's line agrees with sysfs; the exit
#                         status with the verdict lines
#   a real veth pair   -> (root) both up: ok; its peer down: DOWN, exit 3;
#                         the peer toggled during the wait: FLAPPING
#   a stand-in root    -> four Cassini NICs that cannot exist here, as
#                         files (CXD_TEST_SYSROOT, the test copy in
#                         build/standin/): healthy, PCIe x8 of x16, a
#                         slower link than its siblings, a telemetry error
#                         counter that moves during the wait, a named NIC
#                         missing
#   bad input          -> exit 2 naming the value
# About 15 s.
#   bash tests/e2e/test_node_health.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
BIN=$BUILD/cxi_node_health
STANDIN=$BUILD/standin/cxi_node_health
[ -x "$BIN" ] || skip "$BIN not built"

# The row of NIC in a run's output: NAME KIND LINK SPEED PCIe... VERDICT
row() { awk -v n="$2" '$1 == n' "$1"; }

section "this host's NICs, as sysfs has them"
run_capture host 30 "$BIN" --interval 1
n=0
for d in /sys/class/net/*; do
	[ -e "$d/device" ] || continue
	i=${d##*/}
	n=$((n + 1))
	r=$(row "$OUT" "$i")
	if [ -n "$r" ] && [ "$(echo "$r" | awk '{ print $3 }')" = "$(cat "$d/operstate")" ]; then
		pass "$i: listed, link '$(cat "$d/operstate")' as sysfs says"
	else
		fail "$i: row '$r', sysfs operstate '$(cat "$d/operstate")'"
	fi
done
virt=$(for d in /sys/class/net/*; do [ -e "$d/device" ] || echo "${d##*/}"; done | head -1)
[ -z "$virt" ] || [ -z "$(row "$OUT" "$virt")" ] && pass "virtual netdevs ($virt...) left out" || fail "virtual $virt listed"
if [ "$n" -eq 0 ]; then
	expect_rc 1 "$RC" "no NIC backed by a device"
elif grep -q '^Health: PASS' "$OUT"; then
	expect_rc 0 "$RC" "PASS line"
else
	expect_rc 3 "$RC" "a NIC named bad ($(grep -m1 '^Health: NIC' "$OUT"))"
fi
run_capture lo 30 "$BIN" -d lo --interval 1
expect_rc 0 "$RC" "-d lo (named, so checked though virtual)"
expect_line "$OUT" '^lo +net +unknown .* ok$' "lo: link 'unknown' (loopback), ok"
expect_line "$OUT" '^Health: PASS: 1 NIC up' "the PASS line"

if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null; then
	section "a real veth pair: down and flapping"
	A=cxh$$a B=cxh$$b
	if ip link add "$A" type veth peer name "$B" 2>"$TMPD/veth.err"; then
		on_exit "ip link del $A"
		ip link set "$A" up; ip link set "$B" up
		wait_until 5 '[ "$(cat /sys/class/net/'"$A"'/operstate)" = up ]' 2>/dev/null ||
			sleep 1
		run_capture vup 30 "$BIN" -d "$A,$B" --interval 1
		expect_rc 0 "$RC" "both ends up"
		ip link set "$B" down
		run_capture vdown 30 "$BIN" -d "$A,$B" --interval 1
		expect_rc 3 "$RC" "peer down"
		expect_line "$OUT" "^$A +net +(lowerlayerdown|down) .* DOWN \\(link (lowerlayerdown|down)\\)" "$A: DOWN, the link state named"
		expect_line "$OUT" "^$B +net +down .* unused$" "$B (taken down on purpose): unused, not a failure"
		expect_line "$OUT" "^Health: NIC $A is down: link " "the verdict line names $A"
		ip link set "$B" up
		sleep 0.5
		( sleep 0.7; ip link set "$B" down; sleep 0.2; ip link set "$B" up ) &
		run_capture vflap 30 "$BIN" -d "$A" --interval 2
		wait
		expect_rc 3 "$RC" "the peer toggled during the wait"
		expect_line "$OUT" "^$A .* FLAPPING \\(link flapped [0-9]+ times\\)" "$A: FLAPPING"
	else
		skip_part "veth pair: $(cat "$TMPD/veth.err")"
	fi
fi

section "stand-in Cassini NICs (files under a test root)"
[ -x "$STANDIN" ] || die "$STANDIN not built"
R=$TMPD/root
cxi() { # NAME WIDTH MAXWIDTH SPEED
	local d=$R/sys/class/cxi/$1/device
	mkdir -p "$d/port/0/link" "$d/telemetry" "$d/net/hsn${1#cxi}"
	echo up >"$d/port/0/link/state"
	echo "$4" >"$d/port/0/link/speed"
	echo "$2" >"$d/current_link_width"; echo "$3" >"$d/max_link_width"
	echo "16.0 GT/s PCIe" >"$d/current_link_speed"
	echo "16.0 GT/s PCIe" >"$d/max_link_speed"
	echo "0@1.0" >"$d/telemetry/hni_pcs_uncorrected_cw"
	echo "9@1.0" >"$d/telemetry/hni_pcs_good_cw"
	echo 2 >"$d/net/hsn${1#cxi}/carrier_changes"
}
cxi cxi0 16 16 BS_200G
cxi cxi1 8 16 BS_200G
cxi cxi2 16 16 BS_100G
cxi cxi3 16 16 BS_200G
mkdir -p "$R/sys/class/net" "$R/proc/net"
# Each value replaces the file whole (a rename), as sysfs shows a value:
# a read between a truncation and its write would find it empty. The new
# value is written outside the counters' directory, which is listed.
CW=$R/sys/class/cxi/cxi3/device/telemetry/hni_pcs_uncorrected_cw
( for i in $(seq 1 40); do echo "$i@2.0" >"$R/cw.new" && mv "$R/cw.new" "$CW"; sleep 0.1; done ) &
run_capture fake 30 env CXD_TEST_SYSROOT="$R" "$STANDIN" --interval 1
wait
expect_rc 3 "$RC" "stand-in NICs"
expect_line "$OUT" '^cxi0 +cxi +up +BS_200G +x16 16.0 GT/s PCIe +2 +ok$' "cxi0: ok, flaps from hsn0's carrier_changes"
expect_line "$OUT" '^cxi1 .* DEGRADED \(PCIe x8 of x16\)$' "cxi1: PCIe x8 of x16"
expect_line "$OUT" '^cxi2 .* DEGRADED \(speed BS_100G where cxi0 has BS_200G\)$' "cxi2: slower than its siblings"
expect_line "$OUT" '^cxi3 .* ERRORING \(in 1 s: cxi3 hni_pcs_uncorrected_cw \+[0-9]+\)$' "cxi3: the error counter that moved"
grep -q 'good_cw' "$OUT" && fail "a good-codeword count shown as an error" || pass "good counts not taken for errors"
expect_line "$OUT" '^Health: NIC cxi1 is degraded: PCIe x8 of x16$' "verdict line for cxi1"
expect_line "$OUT" '^Health: FAIL: 3 of 4 NICs$' "3 of 4 NICs named"
run_capture fake1 30 env CXD_TEST_SYSROOT="$R" "$STANDIN" -d cxi0,cxi7 --interval 1
expect_rc 3 "$RC" "-d cxi0,cxi7"
expect_line "$OUT" '^Health: NIC cxi7 is missing' "a named NIC that is not there"
run_capture fake2 30 env CXD_TEST_SYSROOT="$R" "$STANDIN" -d cxi0 --interval 1
expect_rc 0 "$RC" "-d cxi0 alone"
run_capture empty 30 env CXD_TEST_SYSROOT="$TMPD/nothing" "$STANDIN" --interval 1
expect_rc 1 "$RC" "a root with no NIC"
expect_line "$OUT" '^Health: no NIC found' "says so"

section "bad input"
for args in "--interval 0" "--interval x" "--interval 601" "-d ../etc" "-s 8" "--expect-bw 5"; do
	# shellcheck disable=SC2086
	run_capture bad 10 "$BIN" $args
	v=${args#* }
	case $args in -s* | --expect*) v=${args%% *} ;; esac
	if [ "$RC" -eq 2 ] && grep -qF -- "$v" "$ERR"; then pass "$args: exit 2, $(head -1 "$ERR")"
	else fail "$args: exit $RC, want 2 naming '$v'"; show "$ERR"; fi
done
finish

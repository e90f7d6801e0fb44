# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# The sweep's e2e scripts' common start and fabric, once. Source it after
# lib.sh:
#     . "$(dirname "$0")/lib.sh" "$@"
#     . "$(dirname "$0")/sweep_lib.sh"
#
#   sweep_bins            BIN (cxi_sweep), TBIN (its test copy, with
#                         CXD_TEST_STOP_AT and CXD_TEST_NETNS), PY (Debian's
#                         python3, else the first on PATH); skips (77) when
#                         cxi_sweep is not built (CMake found no MPI), fails
#                         when its test copy is not.
#   sweep_setup           mpi_setup (MPIRUN; skips without mpirun), then
#                         sweep_bins: the start of a script run by mpirun.
#   fabric_ok CMD...      root, and every CMD found: a fabric of network
#                         namespaces can be built.
#   two_bridges A B UA UB bridges A and B, up, joined by the veth pair UA (on
#                         A) and UB (on B); all removed at exit. 1 when no
#                         bridge can be made (the reason in $TMPD/br.err).
#   ns_host NS HDEV BRIDGE DEV ADDR [lo]  a namespace NS (removed at exit)
#                         on BRIDGE by a veth pair: HDEV on the bridge, DEV
#                         in NS with ADDR, up (and NS's lo too, given "lo").
#   shaped_fabric P N SLOW  N ranks' namespaces P"n0".. on the bridge P"br",
#                         each with swp0 (169.254.77.<i+1>/24), both ends
#                         of every link shaped (tc tbf) to 80 Mbit/s, rank
#                         SLOW's to a quarter of that (none: SLOW -1): a
#                         real slow rank for CXD_TEST_NETNS=P"n"; all
#                         removed at exit. 1 with FABRIC_WHY when it cannot
#                         be made (skip_part) or FABRIC_FAIL set when it
#                         broke half-way (fail).
#   shape_rank P I MBIT   rank I's link of that fabric shaped to MBIT, both
#                         ends (tc tbf).
#   killed_rank_ends NAME PID  the rank stopped in its timed loop (a function
#                         `ranks` prints the candidates' pids) is killed:
#                         the launcher PID (NAME in messages) must end
#                         within 30 s, non-zero, and no rank be left.

sweep_bins() {
	BIN=$BUILD/cxi_sweep
	TBIN=$BUILD/standin/cxi_sweep
	PY=/usr/bin/python3
	[ -x "$BIN" ] || skip "$BIN not built (CMake found no MPI)"
	[ -x "$TBIN" ] || die "$TBIN (the test copy) not built"
	[ -x "$PY" ] || PY=python3
}

sweep_setup() {
	mpi_setup
	sweep_bins
}

fabric_ok() {
	local c
	[ "$(id -u)" -eq 0 ] || return 1
	for c in "$@"; do command -v "$c" >/dev/null || return 1; done
}

two_bridges() {
	local b
	for b in "$1" "$2"; do
		ip link add "$b" type bridge 2>"$TMPD/br.err" || return 1
		on_exit "ip link del $b"
		ip link set "$b" up
	done
	ip link add "$3" type veth peer name "$4"
	# Both ends are here, in the root namespace: deleting one deletes the pair.
	on_exit "ip link del $3"
	ip link set "$3" master "$1" up
	ip link set "$4" master "$2" up
}

ns_host() {
	ip netns add "$1" || return 1
	on_exit "ip netns del $1"
	ip link add "$2" type veth peer name "$4" netns "$1" &&
		ip link set "$2" master "$3" up &&
		ip -n "$1" addr add "$5" dev "$4" &&
		ip -n "$1" link set "$4" up &&
		{ [ "${6:-}" != lo ] || ip -n "$1" link set lo up; }
}

shaped_fabric() {
	local P=$1 n=$2 slow=$3 i r
	FABRIC_WHY= FABRIC_FAIL=
	if ! fabric_ok ip tc; then
		FABRIC_WHY="needs root, ip and tc (iproute2)"
		return 1
	fi
	ip link add "${P}br" type bridge 2>"$TMPD/br.err" &&
		ip link set "${P}br" up || {
		FABRIC_WHY="no bridge: $(cat "$TMPD/br.err")"
		return 1
	}
	on_exit "ip link del ${P}br"
	for ((i = 0; i < n; i++)); do
		r=80
		[ "$i" = "$slow" ] && r=20
		ns_host "${P}n$i" "${P}h$i" "${P}br" swp0 \
			"169.254.77.$((i + 1))/24" lo &&
			shape_rank "$P" "$i" "$r" || {
			FABRIC_FAIL="the shaped fabric could not be made"
			return 1
		}
	done
}

shape_rank() {
	tc -n "$1n$2" qdisc replace dev swp0 root tbf rate "$3mbit" \
		burst 32kb latency 50ms &&
		tc qdisc replace dev "$1h$2" root tbf rate "$3mbit" \
			burst 32kb latency 50ms
}

# The rank that stopped itself: sets victim.
_sweep_find_stopped() {
	local p
	for p in $(ranks); do
		pid_stopped "$p" && { victim=$p; return 0; }
	done
	return 1
}
_sweep_no_rank() { [ -z "$(ranks)" ]; }

killed_rank_ends() {
	local name=$1 pid=$2 t0
	victim=""
	if ! wait_until 30 _sweep_find_stopped; then
		fail "no rank stopped in its timed loop within 30 s: $(tail -1 "$BG_ERR")"
		show "$BG_OUT" "$BG_ERR"
		leftovers "$pid" >/dev/null
		return 1
	fi
	kill -9 "$victim"
	t0=$(now)
	wait_pid "$pid" 30
	if [ "$WAIT_RC" = 124 ]; then
		fail "$name still running 30 s after a rank was killed"
	else
		pass "$name ended $(elapsed_since "$t0") s after the kill (exit $WAIT_RC)"
		[ "$WAIT_RC" != 0 ] && pass "exit status non-zero" || fail "exit 0"
	fi
	wait_until 5 _sweep_no_rank
	check "no rank left running" _sweep_no_rank
}

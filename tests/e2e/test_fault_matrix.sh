#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (its bounds are hang bounds, not speed checks)
# test-timeout: 900 (224 bounded cases, most waiting out a 2 s timeout)
# Fault matrix: every networked tool x every phase x every fault.
#   bash tests/e2e/test_fault_matrix.sh BUILD_DIR [TOOL...]
#
# A fault lands at a known point: the faulted side runs with
# CXD_TEST_STOP_AT=PHASE and stops itself (SIGSTOP) on entering it. Then:
#   kill    SIGKILL the stopped side; the peer must end.
#   freeze  leave it stopped; the peer must end; after SIGCONT it must end too.
#   cut     (two network namespaces, root) take the veth link down, SIGCONT
#           the stopped side; both must end.
# Each survivor must exit non-zero within its bound (10 s; 15 s when the peer
# is frozen), with a message naming a phase ("during the ...") and the peer's
# role, and leave no process behind. Times are hang bounds, not speed checks.
# Providers: tcp for every phase; shm too for the phases with the fabric
# open (timed loop, result exchange), where peers share memory.
# Every side runs with --timeout 2 (TO): most of the time is spent waiting
# out a peer's silence, and what is checked is that every wait ends with a
# true message, not how long the default is; test_faults keeps the default
# 5 s under the same bounds.
# FAULT_MATRIX_JOBS: cases at once (default 12. With the default 5 s,
# under ASan on 2 busy cores at 12, the slowest survivor took 6.5 s
# against its 10 s bound; the run 122 s, at 6 190 s).
. "$(dirname "$0")/lib.sh" "$@"
shift
TOOLS=("$@")
# By default every networked tool (its -h has --port).
need_tool_list
[ ${#TOOLS[@]} -gt 0 ] || mapfile -t TOOLS < <(tools_with --port)
PHASES=("handshake" "option exchange" "timed loop" "result exchange")
JOBS=${FAULT_MATRIX_JOBS:-12}
TO=(--timeout 2)
RES=$TMPD/results
mkdir -p "$RES"
# Cases run in subshells: they record their process groups and namespaces
# here so an interrupted run still cleans up everything.
on_exit 'for g in $(cat "$TMPD"/pgids 2>/dev/null); do kill -CONT -- -$g; kill -9 -- -$g; done'
on_exit 'for n in $(cat "$TMPD"/netns 2>/dev/null); do ip netns del $n; done'
track() { echo "$1" >>"$TMPD/pgids"; }
# The test copies: they stop themselves where CXD_TEST_STOP_AT says.
TB=$BUILD/standin
for t in "${TOOLS[@]}"; do [ -x "$TB/$t" ] || skip "$TB/$t not built"; done

NETNS=0
if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null &&
	ip netns add "cxfprobe$$" 2>/dev/null; then
	ip netns del "cxfprobe$$"
	NETNS=1
fi

# A short run of each tool: long enough to reach every phase, no longer.
# Latency tools (--latency-gap in -h) and atomics (no --size) differ.
run_args() {
	if tool_has "$1" --latency-gap; then echo "-n 200 --latency-gap 0"
	elif ! tool_has "$1" --size; then echo "-n 20 -l 64"
	else echo "-n 20 -l 16 -s 4096"; fi
}

# wait_stopped PID ERRFILE: up to 10 s for the stop marker and state T.
wait_stopped() {
	local n
	for ((n = 0; n < 200; n++)); do
		file_has "$2" 'CXD_TEST_STOP_AT: stopping' && pid_stopped "$1" && return 0
		pid_alive "$1" || return 1
		nap 0.05
	done
	return 1
}

# result VERDICT DETAIL: one line of the final table, written by a case.
result() {
	printf '%-15s %-16s %-4s %-14s %-5s %s|%s\n' "$C_TOOL" "$C_PHASE" \
		"$C_PROV" "$C_FAULT" "$C_RC" "$C_SECS" "$1 $2" >"$RES/$C_ID"
}

# judge_survivor ERRFILE RC SECS BOUND ROLE_OF_PEER: "" when fine, else why.
judge_survivor() {
	local err=$1 rc=$2 secs=$3 bound=$4 peer=$5
	[ "$rc" = 124 ] && { echo "hang: still running after ${bound}s"; return; }
	[ "$rc" -ne 0 ] || { echo "exit 0 after the fault"; return; }
	awk -v t="$secs" -v b="$bound" 'BEGIN { exit !(t <= b) }' ||
		{ echo "took ${secs}s > ${bound}s"; return; }
	local msg
	msg=$(grep -v 'CXD_TEST_STOP_AT' "$err" | grep -v '^[[:space:]]*$' | tail -1)
	[ -n "$msg" ] || { echo "nothing on stderr"; return; }
	echo "$msg" | grep -q 'during the ' || { echo "no phase named: $msg"; return; }
	echo "$msg" | grep -Eq "$peer|fabric" || { echo "peer ($peer) not named: $msg"; return; }
}

# A client faulted before its HELLO is, to the server, a stray connection
# (like a port scan): the server must drop it with a line on stderr within
# the bound and go on listening (issue 10). judge_stray SRV ERR SECS BOUND.
judge_stray() {
	local n
	for ((n = 0; n < $4 * 20; n++)); do
		file_has "$2" 'dropped a connection' && break
		nap 0.05
	done
	grep -q 'dropped a connection' "$2" || { echo "no 'dropped a connection' line within ${4}s"; return; }
	pid_alive "$1" || echo "the server ended instead of listening on: $(tail -1 "$2")"
}

# one_case ID TOOL PHASE PROV FAULT SIDE  (FAULT: kill|freeze, SIDE: server|client)
one_case() {
	C_ID=$1 C_TOOL=$2 C_PHASE=$3 C_PROV=$4 C_FAULT="$5-$6" C_RC=- C_SECS=-
	E2E_SEQ=$((10#$1 * 10)) # start_bg names its files by this: keep cases apart
	local side=$6 srv_env=() cli_env=() fpid ferr spid serr surv serr_s peer bound
	[ "$side" = server ] && srv_env=(env "CXD_TEST_STOP_AT=$C_PHASE")
	[ "$side" = client ] && cli_env=(env "CXD_TEST_STOP_AT=$C_PHASE")
	start_bg srv "${srv_env[@]}" "$TB/$C_TOOL" -p 0 --provider "$C_PROV" "${TO[@]}"
	local srv=$BG_PID srv_out=$BG_OUT srv_err=$BG_ERR port
	track "$srv"
	port=$(listen_port "$srv_out")
	[ -n "$port" ] || { result FAIL "server did not listen"; leftovers "$srv" >/dev/null; return; }
	# shellcheck disable=SC2046
	start_bg cli "${cli_env[@]}" "$TB/$C_TOOL" "$LOOPBACK" -p "$port" \
		--provider "$C_PROV" "${TO[@]}" $(run_args "$C_TOOL")
	local cli=$BG_PID cli_err=$BG_ERR
	track "$cli"
	if [ "$side" = server ]; then
		fpid=$srv ferr=$srv_err surv=$cli serr_s=$cli_err peer=server
	else
		fpid=$cli ferr=$cli_err surv=$srv serr_s=$srv_err peer=client
	fi
	if ! wait_stopped "$fpid" "$ferr"; then
		result FAIL "the $side never stopped in $C_PHASE: $(tail -1 "$ferr")"
		leftovers "$srv" "$cli" >/dev/null
		return
	fi
	local t0; t0=$(now)
	bound=10
	if [ "$5" = kill ]; then kill -9 "$fpid"; else bound=15; fi
	local why
	if [ "$side" = client ] && [ "$C_PHASE" = handshake ]; then
		why=$(judge_stray "$srv" "$serr_s" x "$bound")
		C_RC=listening C_SECS=$(elapsed_since "$t0")
		# Listening on, as it should: end it, so no leftover is counted.
		[ -z "$why" ] && { kill -9 "$srv"; wait_pid "$srv" 2; }
	else
		wait_pid "$surv" "$bound"
		C_RC=$WAIT_RC C_SECS=$(elapsed_since "$t0")
		why=$(judge_survivor "$serr_s" "$C_RC" "$C_SECS" "$bound" "$peer")
	fi
	if [ -z "$why" ] && [ "$5" = freeze ]; then
		# Thawed, the frozen side finds its peer gone and must end too.
		kill -CONT "$fpid"
		wait_pid "$fpid" 10
		[ "$WAIT_RC" = 124 ] && why="the frozen $side did not end within 10 s of SIGCONT"
		[ "$WAIT_RC" = 0 ] && why="the frozen $side exited 0 after SIGCONT"
	fi
	local left; left=$(leftovers "$srv" "$cli")
	[ -z "$why" ] && [ -n "$left" ] && why="processes left behind: $left"
	if [ -z "$why" ]; then
		result ok "$(grep -v CXD_TEST_STOP_AT "$serr_s" | tail -1 | cut -c1-90)"
	else
		result FAIL "$why"
	fi
}

# cut_case ID TOOL PHASE: server in namespace A, client in B (tcp); the
# client stops in PHASE, the link goes down, the client is thawed.
cut_case() {
	C_ID=$1 C_TOOL=$2 C_PHASE=$3 C_PROV=tcp C_FAULT=cut C_RC=- C_SECS=-
	E2E_SEQ=$((10#$1 * 10))
	local a=cxmA$$x$1 b=cxmB$$x$1 va=cxa$1 vb=cxb$1 port=
	printf '%s\n%s\n' "$a" "$b" >>"$TMPD/netns"
	ip netns add "$a" && ip netns add "$b" &&
		ip link add "$va" netns "$a" type veth peer name "$vb" netns "$b" &&
		ip -n "$a" addr add 169.254.78.1/30 dev "$va" &&
		ip -n "$b" addr add 169.254.78.2/30 dev "$vb" &&
		ip -n "$a" link set "$va" up && ip -n "$b" link set "$vb" up &&
		ip -n "$a" link set lo up && ip -n "$b" link set lo up ||
		{ result FAIL "netns setup failed"; ip netns del "$a"; ip netns del "$b"; return; } 2>/dev/null
	start_bg srv ip netns exec "$a" "$TB/$C_TOOL" -p 0 --provider tcp "${TO[@]}"
	local srv=$BG_PID srv_out=$BG_OUT srv_err=$BG_ERR
	track "$srv"
	port=$(listen_port "$srv_out")
	# shellcheck disable=SC2046
	start_bg cli ip netns exec "$b" env "CXD_TEST_STOP_AT=$C_PHASE" \
		"$TB/$C_TOOL" 169.254.78.1 -p "${port:-1}" --provider tcp "${TO[@]}" $(run_args "$C_TOOL")
	local cli=$BG_PID cli_err=$BG_ERR why= t0
	track "$cli"
	if [ -z "$port" ] || ! wait_stopped "$cli" "$cli_err"; then
		why="the client never stopped in $C_PHASE: $(tail -1 "$cli_err" "$srv_err" | tr '\n' ' ')"
	else
		ip -n "$b" link set "$vb" down
		kill -CONT "$cli"
		t0=$(now)
		wait_pid "$cli" 15
		local crc=$WAIT_RC
		if [ "$C_PHASE" = handshake ]; then
			why=$(judge_stray "$srv" "$srv_err" x 15)
			C_RC="$crc/listening" C_SECS=$(elapsed_since "$t0")
			[ -z "$why" ] && why=$(judge_survivor "$cli_err" "$crc" "$C_SECS" 15 server)
			[ -z "$why" ] && { kill -9 "$srv"; wait_pid "$srv" 2; }
		else
			wait_pid "$srv" 15
			C_RC="$crc/$WAIT_RC" C_SECS=$(elapsed_since "$t0")
			why=$(judge_survivor "$cli_err" "$crc" "$C_SECS" 15 server)
			[ -z "$why" ] && why=$(judge_survivor "$srv_err" "$WAIT_RC" "$C_SECS" 15 client)
		fi
	fi
	local left; left=$(leftovers "$srv" "$cli")
	[ -z "$why" ] && [ -n "$left" ] && why="processes left behind: $left"
	ip netns del "$a" 2>/dev/null
	ip netns del "$b" 2>/dev/null
	if [ -z "$why" ]; then
		result ok "$(grep -v CXD_TEST_STOP_AT "$cli_err" | tail -1 | cut -c1-90)"
	else
		result FAIL "$why"
	fi
}

# ------------------------------------------------------------ the matrix
CASES=()
for tool in "${TOOLS[@]}"; do
	for phase in "${PHASES[@]}"; do
		provs=(tcp)
		case $phase in "timed loop" | "result exchange") provs+=(shm) ;; esac
		for prov in "${provs[@]}"; do
			for fault in kill freeze; do
				for side in server client; do
					CASES+=("one_case|$tool|$phase|$prov|$fault|$side")
				done
			done
		done
		[ $NETNS = 1 ] && CASES+=("cut_case|$tool|$phase")
	done
done
[ $NETNS = 1 ] || skip_part "link-cut cases: need root and ip netns"

section "${#CASES[@]} cases, $JOBS at a time"
id=0
for c in "${CASES[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
	id=$((id + 1))
	IFS='|' read -r fn a1 a2 a3 a4 a5 <<<"$c"
	( "$fn" "$(printf '%03d' $id)" "$a1" "$a2" "$a3" "$a4" "$a5" ) &
done
wait

printf '\n%-15s %-16s %-4s %-14s %-5s %s\n' tool phase prov fault exit "seconds  verdict, survivor's message"
for f in "$RES"/*; do
	line=$(cat "$f")
	echo "${line%%|*}  ${line#*|}"
	case ${line#*|} in
	ok*) pass "$(echo "${line%%|*}" | tr -s ' ')" >/dev/null ;;
	*) fail "$(echo "${line%%|*}" | tr -s ' '): ${line#*|}" >/dev/null ;;
	esac
done
[ "$(ls "$RES" | wc -l)" -eq ${#CASES[@]} ] || fail "only $(ls "$RES" | wc -l) of ${#CASES[@]} cases reported"
finish

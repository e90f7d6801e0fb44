#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# Faults: every case must end within its bound (10 s; 15 s for a frozen peer)
# with a non-zero exit, a message on stderr, and no process left behind.
# Elapsed times are measured only to enforce those bounds (hang checks).
# The peer-death cases (kill/freeze during a run) run on every provider given
# (default: tcp and shm); the handshake cases on the first one.
#   bash tests/e2e/test_faults.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
# E2E_PROVIDERS: the providers when none is given (make lf2: tcp alone;
# 2.x's shm runs there in test_write_bw, test_robust and test_sweep).
[ ${#PROVIDERS[@]} -gt 0 ] || read -ra PROVIDERS <<<"${E2E_PROVIDERS:-tcp shm}"
PROV=${PROVIDERS[0]}
TOOL=cxi_write_bw
BIN=$BUILD/$TOOL
[ -x "$BIN" ] || skip "$BIN not built"

TABLE=()
# record CASE RC SECONDS MSGFILE
record() {
	local msg
	msg=$(grep -v '^[[:space:]]*$' "$4" 2>/dev/null | tail -1 | cut -c1-70)
	TABLE+=("$(printf '%-26s %5s %7s  %s' "$1" "$2" "$3" "$msg")")
}

# verdict CASE RC SECS BOUND ERRFILE [NEEDLE_RE]: a row of the table, then
# lib.sh's judge (bound, non-zero exit, message).
verdict() {
	record "$1" "$2" "$3" "$5"
	judge "$@"
}

# start a server and a long-running client (-D 30); sets CLI_PID/CLI_OUT/CLI_ERR.
start_long_run() {
	start_server "$TOOL" --provider "$PROV" || return 1
	start_bg client "$BIN" "$LOOPBACK" -p "$SERVER_PORT" --provider "$PROV" -D 30 -s 4096 "$@"
	CLI_PID=$BG_PID CLI_OUT=$BG_OUT CLI_ERR=$BG_ERR
	if ! wait_running "$CLI_PID" "$CLI_OUT" "$SERVER_OUT"; then
		fail "long run did not start within 10 s"
		show "$CLI_OUT" "$CLI_ERR" "$SERVER_OUT" "$SERVER_ERR"
		return 1
	fi
	return 0
}

# ------------------------------------------------------------------ cases
section "client, nobody listening"
port=$(free_port)
t0=$(now)
run_capture refused 10 "$BIN" "$LOOPBACK" -p "$port" --provider "$PROV" -n 10
verdict "nobody listening" "$RC" "$(elapsed_since "$t0")" 10 "$ERR" "127\.0\.0\.1|$port"

for PROV in "${PROVIDERS[@]}"; do
	section "[$PROV] server killed (SIGKILL) during a -D 30 run"
	if start_long_run; then
		kill -9 "$SERVER_PID"
		t0=$(now)
		wait_pid "$CLI_PID" 10
		verdict "[$PROV] server SIGKILL" "$WAIT_RC" "$(elapsed_since "$t0")" 10 "$CLI_ERR"
		wait_server 1
		no_leftovers "[$PROV] server SIGKILL" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[$PROV] client killed (SIGKILL) during a -D 30 run"
	if start_long_run; then
		kill -9 "$CLI_PID"
		t0=$(now)
		wait_server 10
		verdict "[$PROV] client SIGKILL" "$SERVER_RC" "$(elapsed_since "$t0")" 10 "$SERVER_ERR"
		no_leftovers "[$PROV] client SIGKILL" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[$PROV] client frozen (SIGSTOP) during a -D 30 run"
	if start_long_run; then
		kill -STOP "$CLI_PID"
		t0=$(now)
		wait_server 15
		verdict "[$PROV] client SIGSTOP" "$SERVER_RC" "$(elapsed_since "$t0")" 15 "$SERVER_ERR"
		kill -CONT "$CLI_PID"
		wait_pid "$CLI_PID" 10 || { kill -9 "$CLI_PID"; wait_pid "$CLI_PID" 2; }
		note "client after SIGCONT: exit $WAIT_RC: $(tail -1 "$CLI_ERR")"
		no_leftovers "[$PROV] client SIGSTOP" "$SERVER_PGID" "$CLI_PID"
	fi

	section "[$PROV] server frozen (SIGSTOP) during a -D 30 run"
	if start_long_run; then
		kill -STOP "$SERVER_PID"
		t0=$(now)
		wait_pid "$CLI_PID" 15
		verdict "[$PROV] server SIGSTOP" "$WAIT_RC" "$(elapsed_since "$t0")" 15 "$CLI_ERR"
		[ "$WAIT_RC" = 124 ] && kill -9 "$CLI_PID"
		kill -CONT "$SERVER_PID"
		wait_server 10 || { kill -9 "$SERVER_PID"; wait_server 2; }
		note "server after SIGCONT: exit $SERVER_RC: $(tail -1 "$SERVER_ERR")"
		no_leftovers "[$PROV] server SIGSTOP" "$SERVER_PGID" "$CLI_PID"
	fi
done
PROV=${PROVIDERS[0]}

section "garbage on the server's port"
if start_server "$TOOL" --provider "$PROV"; then
	t0=$(now)
	fake_peer "$SERVER_PORT" garbage >"$TMPD/garbage.peer" 2>&1 &
	PEER=$!
	# Not a client (an HTTP health check): dropped, and the server
	# listens on for a real one.
	for ((n = 0; n < 200; n++)); do
		grep -q 'dropped a connection' "$SERVER_ERR" && break
		sleep 0.05
	done
	note "server: $(grep 'dropped' "$SERVER_ERR" | tail -1)"
	check "garbage: dropped, naming what was wrong" \
		grep -Eq 'dropped a connection.*(magic|protocol|frame|garbage)' "$SERVER_ERR"
	check "garbage: the server still listens" pid_alive "$SERVER_PID"
	wait_pid "$PEER" 15 || kill -9 "$PEER"
	note "peer: $(tail -1 "$TMPD/garbage.peer")"
	kill "$SERVER_PID" 2>/dev/null
	wait_server 10
	no_leftovers "garbage" "$SERVER_PGID"
fi

VERSION=$("$BIN" -V 2>&1 | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
VERSION=${VERSION:-0.1.0}

# forged_hello CASE FILE PROG VERSION NEEDLE_RE: a fake client's HELLO
# (tests/e2e/py/fake_peer.py) from PROG at VERSION: the server must end,
# bounded, naming what did not match.
forged_hello() {
	local name=$1 peer_out=$TMPD/$2.peer
	section "forged HELLO: program $3, version $4"
	start_server "$TOOL" --provider "$PROV" || return
	t0=$(now)
	fake_peer "$SERVER_PORT" hello "$3" "$4" >"$peer_out" 2>&1 &
	PEER=$!
	wait_server 10
	verdict "$name" "$SERVER_RC" "$(elapsed_since "$t0")" 10 "$SERVER_ERR" "$5"
	wait_pid "$PEER" 15 || kill -9 "$PEER"
	note "peer: $(tail -1 "$peer_out")"
	no_leftovers "$name" "$SERVER_PGID"
}
forged_hello "forged hello (program)" hello cxi_read_bw "$VERSION" 'cxi_read_bw'
forged_hello "forged hello (version)" hello2 "$TOOL" 99.0.0 '99\.0'

section "cxi_read_bw client against a cxi_write_bw server"
if [ -x "$BUILD/cxi_read_bw" ] && start_server "$TOOL" --provider "$PROV"; then
	t0=$(now)
	run_capture mismatch 10 "$BUILD/cxi_read_bw" "$LOOPBACK" -p "$SERVER_PORT" --provider "$PROV" -n 10
	secs=$(elapsed_since "$t0")
	if grep -qi 'not implemented' "$ERR"; then
		skip_part "program mismatch: cxi_read_bw says: $(tail -1 "$ERR")"
		TABLE+=("$(printf '%-26s %5s %7s  %s' "program mismatch" skip - "cxi_read_bw not implemented")")
		kill "$SERVER_PID" 2>/dev/null
		wait_server 5
	else
		verdict "program mismatch (client)" "$RC" "$secs" 10 "$ERR" 'cxi_write_bw|match'
		wait_server 10
		verdict "program mismatch (server)" "$SERVER_RC" "$(elapsed_since "$t0")" 10 "$SERVER_ERR" 'cxi_read_bw|match'
	fi
	no_leftovers "program mismatch" "$SERVER_PGID"
fi

echo
printf '%-26s %5s %7s  %s\n' case exit seconds "message (last stderr line)"
printf '%s\n' "${TABLE[@]}"
finish

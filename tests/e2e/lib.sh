# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Helpers for the end-to-end tests. Source it from tests/e2e/test_*.sh:
#     . "$(dirname "$0")/lib.sh" "$@"        # $1 = build directory
#
# Every background process is started in its own process group (setsid) and
# recorded; an EXIT trap kills whatever is left (the whole group), runs the
# registered cleanup hooks and removes the temp dir (kept with KEEP_TMP=1).
#
#   start_server TOOL ARGS...   server in the background; waits (<= 10 s) for its
#                               "Listening on port N" line; sets SERVER_PID,
#                               SERVER_PORT, SERVER_OUT, SERVER_ERR, SERVER_PGID.
#                               Adds "-p 0" unless ARGS give a port. Prefix the
#                               command with SERVER_PREFIX=(ip netns exec X).
#   start_bg NAME CMD...        any command in the background (own group); sets
#                               BG_PID, BG_OUT, BG_ERR.
#   wait_pid PID SECS           waits for a background child; sets WAIT_RC
#                               (124 when it is still running after SECS).
#   nap SECS, pid_alive PID, pid_stopped PID, file_has FILE TEXT,
#   first_line FILE TRIES SECS  the polling helpers: they fork nothing;
#                               their globals are E2E_* (first_line: E2E_LINE).
#   run_with_timeout SECS CMD.. runs CMD (killed with its group after SECS; rc 124).
#   run_capture NAME SECS CMD.. same, stdout/stderr to $TMPD/NAME.out/.err; sets RC.
#   fail MSG / pass MSG         record a failed / passed check and go on.
#   die MSG                     record a failure and stop now.
#   skip [--exempt] MSG         stop with exit 77 (ctest: skipped); under
#                               CXD_TEST_STRICT=1 (make test) a failure
#                               (exit 1), unless --exempt: what no package
#                               can give here (docs/testing.md lists them).
#   skip_part [--exempt] MSG    a part that cannot run here: "SKIP (part): MSG",
#                               counted in finish's summary; strict: a failure.
#   expect_rc WANT GOT WHAT     a check on an exit code.
#   check COND_DESC CMD...      pass if CMD succeeds, else fail.
#   json_get FILE KEY           prints d[k1][k2]... for KEY "a.b.0.c".
#   table_rows FILE             the data rows of a bandwidth/latency table.
#   finish                      summary; exit 1 if any check failed, or if
#                               none ran at all (0 checks is not a pass).
#   on_exit CMD                 extra cleanup, run by the trap (last first).
#   judge CASE RC SECS BOUND ERRFILE [RE]  verdict on a faulted run's survivor.
#   leftovers PGID... / no_leftovers CASE PGID...  processes left behind.
#   TOOLS_ALL, need_tool_list   the build's tools (from lib/tools.c, via
#                               BUILD/cxd_tools.txt); die if it is missing.
#   tools_with OPT...           the tools whose own -h lists every OPT.
#   tool_has TOOL OPT           does TOOL's -h list the long option OPT?
#   E2E_PY                      tests/e2e/py/, the tests' Python helpers.
#   py_check WHAT FILE SCRIPT ARGS...  a check by tests/e2e/py/SCRIPT: its
#                               last line is the verdict; FILE shown on failure.
#   fake_peer PORT MODE ARGS... tests/e2e/py/fake_peer.py: a hostile or
#                               stray control-channel peer on 127.0.0.1.
# Those from json_get on live in lib_run.sh (parsing, pairs, waits, MPI)
# and lib_tools.sh (the tool list, faults), both sourced at the end.

set -u

E2E_BUILD=${1:-}
if [ -z "$E2E_BUILD" ] || [ ! -d "$E2E_BUILD" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
E2E_BUILD=$(cd "$E2E_BUILD" && pwd)
BUILD=$E2E_BUILD
# The control protocol's version, for tests that write raw frames.
PROTO_VERSION=$(awk '/^#define CXD_PROTO_VERSION/ { print $3 }' \
	"$(dirname "${BASH_SOURCE[0]}")/../../lib/wire/proto.h")
# The Python helpers (checkers, fake peers): files, not heredocs.
E2E_PY=$(cd "$(dirname "${BASH_SOURCE[0]}")/py" && pwd)
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/cxd-e2e.XXXXXX")
touch "$TMPD/.start" # shm regions made after this are the test's
E2E_NAME=$(basename "$0" .sh)
E2E_PASS=0
E2E_FAIL=0
E2E_FAILED=()
E2E_SKIPPED=()
E2E_PGIDS=()
E2E_HOOKS=()
E2E_WRAPPERS=()
E2E_SEQ=0
SERVER_PREFIX=()
LOOPBACK=127.0.0.1

# ---------------------------------------------------------------- cleanup
_e2e_kill_groups() {
	local sig=$1 g
	for g in "${E2E_PGIDS[@]}"; do
		kill "-$sig" -- "-$g" 2>/dev/null
		kill "-$sig" "$g" 2>/dev/null
	done
}

_e2e_cleanup() {
	local rc=$? i
	trap - EXIT INT TERM
	if [ ${#E2E_PGIDS[@]} -gt 0 ]; then
		_e2e_kill_groups CONT
		_e2e_kill_groups TERM
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			groups_alive || break
			nap 0.05
		done
		_e2e_kill_groups KILL
	fi
	# shellcheck disable=SC2046
	kill -9 $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	for ((i = ${#E2E_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${E2E_HOOKS[$i]}" >/dev/null 2>&1
	done
	_e2e_shm_orphans
	if [ "${KEEP_TMP:-0}" = 1 ]; then
		echo "(temp files kept in $TMPD)"
	else
		rm -rf "$TMPD"
	fi
	exit "$rc"
}
# A peer this test killed (SIGKILL: the fault tests do) leaves its shm
# regions, /dev/shm/cxd_<pid>_<nonce>:...; the tools remove those of dead
# owners when they next start, the test removes its own before it ends.
_e2e_shm_orphans() {
	local f pid
	for f in /dev/shm/cxd_*; do
		[ -e "$f" ] && [ "$f" -nt "$TMPD/.start" ] || continue
		pid=${f#/dev/shm/cxd_}
		pid=${pid%%_*}
		[[ $pid =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null &&
			rm -f "$f"
	done
}
trap _e2e_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

on_exit() { E2E_HOOKS+=("$*"); }

# True if any process of a recorded group (or the given groups) still exists.
groups_alive() {
	local g list=("$@")
	[ $# -gt 0 ] || list=("${E2E_PGIDS[@]}")
	for g in "${list[@]}"; do
		[ -n "$g" ] || continue
		pgrep -g "$g" >/dev/null 2>&1 && return 0
	done
	return 1
}

# ---------------------------------------------------------------- reporting
pass() { E2E_PASS=$((E2E_PASS + 1)); echo "  ok   - $*"; }
fail() {
	E2E_FAIL=$((E2E_FAIL + 1))
	E2E_FAILED+=("$*")
	echo "  FAIL - $*"
}
die() { fail "$*"; finish; }
# make test installs every tool first (scripts/deps.sh) and sets
# CXD_TEST_STRICT=1: there a skip would hide a part that never ran, so it
# fails with its reason. --exempt: what no package gives (docs/testing.md).
_e2e_strict() { [ "${CXD_TEST_STRICT:-0}" = 1 ] && [ "$1" != --exempt ]; }
skip() {
	if _e2e_strict "$1"; then
		echo "FAIL - skipped under CXD_TEST_STRICT=1: $*"
		exit 1
	fi
	[ "$1" != --exempt ] || shift
	echo "SKIP: $*"
	exit 77
}
skip_part() {
	if _e2e_strict "$1"; then
		fail "SKIP (part) under CXD_TEST_STRICT=1: $*"
		return 0
	fi
	[ "$1" != --exempt ] || shift
	E2E_SKIPPED+=("$*")
	echo "  SKIP (part): $*"
}
section() { echo; echo "== $*"; }
note() { echo "       $*"; }

check() {
	local desc=$1; shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

expect_rc() {
	local want=$1 got=$2 what=${3:-command}
	if [ "$want" = nonzero ]; then
		if [ "$got" -ne 0 ]; then pass "$what: exit $got (non-zero)"; return 0; fi
	elif [ "$got" -eq "$want" ]; then
		pass "$what: exit $got"; return 0
	fi
	fail "$what: exit $got, want $want"
	return 1
}

# Show a file's contents indented (for failure context).
show() {
	local f
	for f in "$@"; do
		[ -s "$f" ] || continue
		echo "       --- $(basename "$f")"
		sed -n '1,40p' "$f" | sed 's/^/       | /'
	done
}

# A misspelt or missing helper must fail the script, not pass it quietly.
# Bash runs this in a subshell: it leaves a note that finish reads.
command_not_found_handle() {
	echo "$E2E_NAME: command not found: $1" >&2
	echo "$1" >>"$TMPD/not-found"
	return 127
}

# Every JSON document of ours the test kept in TMPD (those carrying
# schema_version) against its kind's schema, docs/schema/ (docs/json.md).
_e2e_json_docs() {
	local out=$TMPD/.json_docs rc
	python3 "$E2E_PY/json_docs.py" "$TMPD" \
		"$(dirname "${BASH_SOURCE[0]}")/../../docs/schema" >"$out" 2>&1
	rc=$?
	case $rc in
	0) grep -q '^0 JSON' "$out" || pass "$(tail -1 "$out")" ;;
	3) skip_part "$(tail -1 "$out")" ;;
	*) fail "$(tail -1 "$out")"; show "$out" ;;
	esac
}

finish() {
	local missing
	echo
	if [ -s "$TMPD/not-found" ]; then
		while read -r missing; do
			fail "a command the script calls does not exist: $missing"
		done <"$TMPD/not-found"
		: >"$TMPD/not-found"
	fi
	_e2e_json_docs
	# A script that checked nothing proved nothing (a skip exits 77
	# before it gets here).
	[ $((E2E_PASS + E2E_FAIL)) -gt 0 ] ||
		fail "no check ran: $E2E_NAME passed nothing and failed nothing"
	if [ ${#E2E_SKIPPED[@]} -gt 0 ]; then
		echo "$E2E_NAME: ${#E2E_SKIPPED[@]} part(s) skipped:"
		local s
		for s in "${E2E_SKIPPED[@]}"; do echo "  SKIP (part): $s"; done
	fi
	if [ "$E2E_FAIL" -gt 0 ]; then
		echo "$E2E_NAME: $E2E_PASS passed, $E2E_FAIL FAILED:"
		local f
		for f in "${E2E_FAILED[@]}"; do echo "  - $f"; done
		exit 1
	fi
	echo "$E2E_NAME: all $E2E_PASS checks passed"
	exit 0
}

# ---------------------------------------------------------------- processes
now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# The polling loops below run 20 times a second, in many cases at once
# (test_fault_matrix runs 12): they fork nothing. nap SECS pauses on
# read's timeout, on a pipe this shell holds both ends of (no data, no end
# of file ever comes); pid_state reads /proc/PID/stat with a builtin.
exec {E2E_NAP_FD}<> <(:)
nap() { read -rt "$1" -u "$E2E_NAP_FD" _ || :; }
# pid_state PID: PID's state letter into E2E_PID_STATE; 1 when it is gone.
pid_state() {
	local st
	{ read -r st <"/proc/$1/stat"; } 2>/dev/null || return 1
	st=${st##*) }
	E2E_PID_STATE=${st%% *}
	[ -n "$E2E_PID_STATE" ]
}

# Is PID a live (non-zombie) process?
pid_alive() { pid_state "$1" && [ "$E2E_PID_STATE" != Z ]; }

# Is PID stopped (SIGSTOP: state T)?
pid_stopped() { pid_state "$1" && [ "$E2E_PID_STATE" = T ]; }

# first_line FILE TRIES SECS: up to TRIES naps of SECS for FILE to hold
# something; its first line into E2E_LINE ("" when it never did).
first_line() {
	local n
	E2E_LINE=
	for ((n = 0; n < $2; n++)); do
		[ -s "$1" ] && break
		nap "$3"
	done
	{ read -r E2E_LINE <"$1"; } 2>/dev/null || :
}

# file_has FILE TEXT: FILE holds TEXT (read by a builtin, no grep).
file_has() {
	local body=
	{ IFS= read -r -d '' body <"$1"; } 2>/dev/null
	[[ $body == *"$2"* ]]
}

# wait_pid PID SECS: poll every 50 ms; WAIT_RC = exit status, or 124.
# Works for start_bg processes (exit status from their rc file) and for
# plain background children of this shell.
wait_pid() {
	local pid=$1 secs=$2 n
	n=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 20 }')
	while [ "$n" -gt 0 ] && pid_alive "$pid"; do
		nap 0.05
		n=$((n - 1))
	done
	if pid_alive "$pid"; then
		WAIT_RC=124
		return 1
	fi
	if [ -e "$TMPD/pid.$pid" ]; then
		# the wrapper writes the status right after the process ends
		first_line "$TMPD/rc.$pid" 100 0.02
		WAIT_RC=${E2E_LINE:-255}
	else
		wait "$pid" 2>/dev/null
		WAIT_RC=$?
	fi
	return 0
}

# start_bg NAME CMD...: background, own process group (setsid), output to
# files; sets BG_PID (the command's own pid = its process group), BG_OUT, BG_ERR.
# A small wrapper subshell collects the exit status (and keeps bash's
# "Killed" job notices out of the log).
# A check that FILE has a line matching the extended REGEX.
has_line() { grep -qE "$2" "$1"; }
expect_line() { # FILE REGEX WHAT
	if has_line "$1" "$2"; then pass "$3"; else fail "$3: no line /$2/"; show "$1"; fi
}

# A script split into parts run at the same time: after start_bg for
# each (PART_PIDS[i] = "pid:out:err" of PARTS[i]), wait for every part
# within LIMIT s, show its checks (less lines matching DROP_RE, if given),
# and count each part as one check: it passes when it exits 0.
#   collect_parts LIMIT [DROP_RE]
collect_parts() {
	local limit=$1 drop=${2:-} i pid out err n
	for i in "${!PARTS[@]}"; do
		IFS=: read -r pid out err <<<"${PART_PIDS[$i]}"
		wait_pid "$pid" "$limit"
		if [ -n "$drop" ]; then
			sed -n '/^== /,$p' "$out" | grep -Ev "$drop"
		else
			sed -n '/^== /,$p' "$out"
		fi
		cat "$err"
		n=$(grep -Ec '^  ok   - ' "$out")
		if [ "$WAIT_RC" = 0 ]; then
			pass "part ${PARTS[$i]}: all $n checks passed"
		else
			fail "part ${PARTS[$i]}: exit $WAIT_RC ($n ok, $(grep -Ec '^  FAIL - ' "$out") failed)"
		fi
	done
}

start_bg() {
	local name=$1; shift
	E2E_SEQ=$((E2E_SEQ + 1))
	BG_OUT=$TMPD/$E2E_SEQ.$name.out
	BG_ERR=$TMPD/$E2E_SEQ.$name.err
	local pidf=$TMPD/bg.$E2E_SEQ.pid n
	(
		setsid "$@" >"$BG_OUT" 2>"$BG_ERR" </dev/null &
		p=$!
		: >"$TMPD/pid.$p"
		echo "$p" >"$pidf.tmp" && mv "$pidf.tmp" "$pidf"
		wait "$p"
		echo $? >"$TMPD/rc.$p.tmp" && mv "$TMPD/rc.$p.tmp" "$TMPD/rc.$p"
	) 2>/dev/null &
	E2E_WRAPPERS+=("$!")
	first_line "$pidf" 500 0.01
	BG_PID=$E2E_LINE
	E2E_PGIDS+=("$BG_PID")
}

# start_server TOOL ARGS...
start_server() {
	local tool=$1; shift
	local a port_given=0 n line
	for a in "$@"; do
		case $a in -p | --port | --port=* | -p[0-9]*) port_given=1 ;; esac
	done
	local args=("$@")
	[ $port_given = 1 ] || args=(-p 0 "${args[@]}")
	start_bg "srv-$tool" "${SERVER_PREFIX[@]}" "$E2E_BUILD/$tool" "${args[@]}"
	SERVER_PID=$BG_PID
	SERVER_PGID=$BG_PID
	SERVER_OUT=$BG_OUT
	SERVER_ERR=$BG_ERR
	SERVER_PORT=
	for ((n = 0; n < 200; n++)); do
		line=$(grep -h -m1 -o 'Listening on port [0-9]*' "$SERVER_OUT" "$SERVER_ERR" 2>/dev/null | head -1)
		if [ -n "$line" ]; then
			SERVER_PORT=${line##* }
			break
		fi
		pid_alive "$SERVER_PID" || break
		nap 0.05
	done
	export SERVER_PID SERVER_PORT
	if [ -z "$SERVER_PORT" ]; then
		fail "server $tool ${args[*]}: no 'Listening on port N' line within 10 s"
		show "$SERVER_OUT" "$SERVER_ERR"
		return 1
	fi
	return 0
}

# wait_server SECS: SERVER_RC = the server's exit status (124 = still running).
wait_server() {
	wait_pid "$SERVER_PID" "${1:-20}"
	SERVER_RC=$WAIT_RC
}

# run_with_timeout SECS CMD...: foreground with a hard bound (rc 124 on timeout).
run_with_timeout() {
	local secs=$1; shift
	timeout -k 2 "$secs" "$@"
}

# run_capture NAME SECS CMD...: RC, OUT and ERR set.
run_capture() {
	local name=$1 secs=$2; shift 2
	E2E_SEQ=$((E2E_SEQ + 1))
	OUT=$TMPD/$E2E_SEQ.$name.out
	ERR=$TMPD/$E2E_SEQ.$name.err
	timeout -k 2 "$secs" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	return 0
}

# fake_peer PORT MODE ARGS...: a fake control-channel peer (the modes are
# described in tests/e2e/py/fake_peer.py); it writes raw frames, so it
# gets the protocol version.
fake_peer() {
	PROTO_VERSION=$PROTO_VERSION python3 "$E2E_PY/fake_peer.py" "$@"
}

# A TCP port on 127.0.0.1 that nobody listens on (bound then released).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# shellcheck source=tests/e2e/lib_run.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_run.sh"
# shellcheck source=tests/e2e/lib_tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib_tools.sh"

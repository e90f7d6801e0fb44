# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# lib.sh, continued (it sources this file; source lib.sh, not this):
# parsing the tools' output, pairs, bounded waits, the MPI launcher.

# ---------------------------------------------------------------- parsing
# json_get FILE KEY: KEY is a dotted path, list indexes as numbers.
json_get() {
	if command -v python3 >/dev/null 2>&1; then
		python3 "$E2E_PY/json_get.py" "$1" "$2"
	else
		local path=".${2}"
		path=$(echo "$path" | sed -E 's/\.([0-9]+)/[\1]/g')
		jq -r "$path" "$1"
	fi
}

# py_check WHAT FILE SCRIPT ARGS...: a check made by tests/e2e/py/SCRIPT
# ARGS...: exit 0 passes "WHAT: <what it printed>"; otherwise it fails
# "WHAT: <its last line>" and FILE (if not "") is shown.
py_check() {
	local what=$1 file=$2 script=$3 out
	shift 3
	E2E_SEQ=$((E2E_SEQ + 1))
	out=$TMPD/$E2E_SEQ.py_check
	if python3 "$E2E_PY/$script" "$@" >"$out" 2>&1; then
		pass "$what: $(cat "$out")"
	else
		fail "$what: $(tail -1 "$out")"
		[ -z "$file" ] || show "$file"
	fi
}

# Data rows of a table: SIZE COUNT(or -) NUM NUM [NUM...]
table_rows() {
	grep -E '^[[:space:]]*[0-9]+[[:space:]]+(-|[0-9]+)[[:space:]]+[0-9]+(\.[0-9]+)?([[:space:]]+[0-9]+(\.[0-9]+)?)+[[:space:]]*$' "$1"
}

# Powers of two from MIN to MAX, one a line.
pow2_range() {
	local s=$1
	while [ "$s" -le "$2" ]; do echo "$s"; s=$((s * 2)); done
}

# run_pair TOOL NAME SERVER_ARGS -- CLIENT_ARGS: a server and a client of
# TOOL on 127.0.0.1; both must exit 0. Sets S_OUT S_ERR C_OUT C_ERR, C_SECS
# (the client's run time) and S_LAG (how long the server ran on after the
# client ended); returns 1 (failure recorded) otherwise.
run_pair() {
	local tool=$1 name=$2 t0; shift 2
	local sargs=() cargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do sargs+=("$1"); shift; done
	shift
	cargs=("$@")
	start_server "$tool" "${sargs[@]}" || return 1
	S_OUT=$SERVER_OUT S_ERR=$SERVER_ERR
	t0=$(now)
	run_capture "$name-client" 60 "$E2E_BUILD/$tool" "$LOOPBACK" -p "$SERVER_PORT" "${cargs[@]}"
	C_SECS=$(elapsed_since "$t0")
	C_OUT=$OUT C_ERR=$ERR
	t0=$(now)
	wait_server 15
	S_LAG=$(elapsed_since "$t0")
	local bad=0
	[ "$RC" -eq 0 ] || { fail "$name: client exit $RC (args: ${cargs[*]})"; bad=1; }
	[ "$SERVER_RC" -eq 0 ] || { fail "$name: server exit $SERVER_RC (args: ${sargs[*]})"; bad=1; }
	if [ $bad -ne 0 ]; then
		show "$C_OUT" "$C_ERR" "$S_OUT" "$S_ERR"
		return 1
	fi
	pass "$name: client and server exit 0"
}

# wait_until SECS CMD...: runs CMD every 50 ms until it succeeds (0) or
# SECS have passed (1): the one shape of a bounded wait on an event.
wait_until() {
	local n
	n=$(awk -v s="$1" 'BEGIN { printf "%d", s * 20 }')
	shift
	while ! "$@"; do
		[ "$n" -gt 0 ] || return 1
		n=$((n - 1))
		nap 0.05
	done
}

# cpu_ticks PID: the user + system CPU time PID has used, in clock ticks
# (1/100 s on Linux); nothing when PID is gone.
cpu_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# _spun PID TICKS: PID has used at least TICKS ticks of CPU.
_spun() {
	local t
	t=$(cpu_ticks "$1")
	[ -n "$t" ] && [ "$t" -ge "$2" ]
}

# wait_spinning PID [SECS]: until PID has used 5 more ticks (50 ms) of CPU
# than now: a tool waiting for its peer sleeps in poll(), only a timed
# loop (busy-polling its completion queue) spins. 1 after SECS (10) or
# when PID is gone.
wait_spinning() {
	local t0
	t0=$(cpu_ticks "$1")
	[ -n "$t0" ] || return 1
	wait_until "${2:-10}" _spun "$1" $((t0 + 5))
}

# wait_running PID FILE...: until PID's run is in its timed loop: a table
# header (printed and flushed before the buffers are set up) in one of the
# FILEs, then PID spinning. 1 when that does not happen within 10 s each.
wait_running() {
	local pid=$1
	shift
	wait_until 10 grep -qE 'Size\[B\]' "$@" 2>/dev/null || return 1
	wait_spinning "$pid" 10
}

# listen_port FILE: the N of a server's "Listening on port N" line in FILE,
# waiting up to 10 s for it; prints nothing if it never comes.
listen_port() {
	local n body=
	for ((n = 0; n < 200; n++)); do
		{ IFS= read -r -d '' body <"$1"; } 2>/dev/null
		[[ $body =~ Listening\ on\ port\ ([0-9]+) ]] &&
			{ echo "${BASH_REMATCH[1]}"; return 0; }
		nap 0.05
	done
	return 1
}

# Is a binary ready to be tested? (the tool runs a short --local run)
# The sweep's scripts: skip without mpirun; Open MPI's launcher allowed as
# root (tests run as root in CI) and with more ranks than cores (MPIRUN).
# Under ASan: Open MPI's own allocations outlive MPI_Finalize, some in
# components it has already unloaded (no name a suppression could match),
# so leak checking is off for the ranks; ASan and UBSan still run.
mpi_setup() {
	command -v mpirun >/dev/null || skip "mpirun not found (Debian: openmpi-bin)"
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	MPIRUN=(mpirun --oversubscribe --mca btl self,vader)
	if grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
		MPIRUN+=(-x ASAN_OPTIONS)
	fi
}

tool_exists() { [ -x "$E2E_BUILD/$1" ]; }

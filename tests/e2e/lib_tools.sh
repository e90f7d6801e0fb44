# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# lib.sh, continued (it sources this file; source lib.sh, not this):
# the build's tool list and each tool's -h, the verdict on faults.

# ---------------------------------------------------------------- tools
# TOOLS_ALL: the tools of this build, in table order. The list is
# lib/tools.c's, read at configure time (tests.cmake writes it to
# BUILD/cxd_tools.txt): no script keeps a copy. need_tool_list stops a test
# that needs it when the build lacks it (fails), or lacks one of the
# programs (skips, as for any test whose binary is not built).
TOOLS_ALL=()
[ -s "$E2E_BUILD/cxd_tools.txt" ] && mapfile -t TOOLS_ALL <"$E2E_BUILD/cxd_tools.txt"
need_tool_list() {
	local t
	[ ${#TOOLS_ALL[@]} -gt 0 ] ||
		die "$E2E_BUILD/cxd_tools.txt missing or empty: re-run cmake on this build"
	for t in "${TOOLS_ALL[@]}"; do
		[ -x "$E2E_BUILD/$t" ] || skip "$E2E_BUILD/$t not built"
	done
}

# tool_help TOOL: TOOL's -h text (read once per test, kept in TMPD).
tool_help() {
	local f=$TMPD/help.$1 tmp=$TMPD/help.$1.$BASHPID
	if ! [ -s "$f" ]; then
		timeout -k 2 10 "$E2E_BUILD/$1" -h >"$tmp" 2>/dev/null
		mv -f "$tmp" "$f"
	fi
	cat "$f"
}

# tool_has TOOL --OPT: does TOOL's -h list the long option --OPT? What a
# tool takes is its own help's to say, not a table in the tests.
tool_has() {
	tool_help "$1" | grep -qE -- "^ +(-[A-Za-z0-9], +)?$2([= ]|\$)"
}

# tools_with --OPT...: the tools whose -h lists every OPT, one a line.
# The -h texts not read yet are read at once (a tool's start-up is mostly
# libraries' waiting, not CPU).
tools_with() {
	local t o ok pids=()
	for t in "${TOOLS_ALL[@]}"; do
		[ -s "$TMPD/help.$t" ] && continue
		tool_help "$t" >/dev/null &
		pids+=("$!")
	done
	[ ${#pids[@]} -eq 0 ] || wait "${pids[@]}"
	for t in "${TOOLS_ALL[@]}"; do
		ok=1
		for o in "$@"; do tool_has "$t" "$o" || { ok=0; break; }; done
		[ $ok = 1 ] && echo "$t"
	done
}

# ---------------------------------------------------------------- faults
# judge CASE RC SECS BOUND ERRFILE [NEEDLE_RE]: the verdict on the survivor
# of a fault: it ended within BOUND seconds (RC 124: still running, a
# hang), non-zero, with a message on stderr (matching NEEDLE_RE,
# case-insensitive, when given).
judge() {
	local name=$1 rc=$2 secs=$3 bound=$4 err=$5 needle=${6:-}
	if [ "$rc" = 124 ]; then
		fail "$name: still running after ${bound}s (hang)"
	else
		if awk -v t="$secs" -v b="$bound" 'BEGIN { exit !(t <= b) }'; then
			pass "$name: ended in ${secs}s (bound ${bound}s)"
		else
			fail "$name: took ${secs}s > ${bound}s"
		fi
		[ "$rc" -ne 0 ] && pass "$name: exit $rc (non-zero)" || fail "$name: exit 0, want non-zero"
	fi
	if ! grep -q '[[:alpha:]]' "$err" 2>/dev/null; then
		fail "$name: nothing on stderr"
	elif [ -n "$needle" ] && ! grep -Eqi -- "$needle" "$err"; then
		fail "$name: stderr does not match /$needle/: $(tr '\n' ' ' <"$err" | cut -c1-200)"
	else
		pass "$name: stderr: $(grep -v '^[[:space:]]*$' "$err" | tail -1 | cut -c1-100)"
	fi
}

# leftovers PGID...: waits (<= 2 s) for every process of those groups to
# end; prints those still there ("PID CMD;" each), then ends them for good
# (SIGCONT first, so a frozen one dies too). Empty output: none left.
leftovers() {
	local n g gs=() left=
	for g in "$@"; do [ -n "$g" ] && gs+=("$g"); done
	[ ${#gs[@]} -gt 0 ] || return 0
	for ((n = 0; n < 40; n++)); do
		groups_alive "${gs[@]}" || break
		nap 0.05
	done
	groups_alive "${gs[@]}" &&
		left=$(pgrep -a -g "$(IFS=,; echo "${gs[*]}")" | cut -c1-80 | tr '\n' ';')
	for g in "${gs[@]}"; do
		kill -CONT -- "-$g" 2>/dev/null
		kill -9 -- "-$g" 2>/dev/null
	done
	echo "$left"
}

# no_leftovers CASE PGID...: a check that the fault left no process behind.
no_leftovers() {
	local name=$1 left
	shift
	left=$(leftovers "$@")
	if [ -n "$left" ]; then
		fail "$name: processes left behind: $left"
	else
		pass "$name: no process left behind"
	fi
}

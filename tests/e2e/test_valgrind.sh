#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# Valgrind memcheck on one short run of each of the nine tools: no invalid
# access, no use of uninitialised memory, no leak (definite, indirect or
# possible), in the client and in the forked --local server alike. Only
# libfabric's own init-time state is suppressed (tests/valgrind.supp).
# Each --local tool runs over tcp, and cxi_write_bw and cxi_send_lat over
# shm too: what differs with the provider is libfabric's code, not ours,
# and the ASan stage runs every tool over both. Providers named on the
# command line run for every tool.
#   bash tests/e2e/test_valgrind.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
SHM_TOO=" cxi_write_bw cxi_send_lat "
if [ ${#PROVIDERS[@]} -eq 0 ]; then PROVIDERS=(tcp shm); else SHM_TOO=all; fi
SUPP=$(cd "$(dirname "$0")/.." && pwd)/valgrind.supp

command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
# Sanitizer builds carry their own allocator and shadow memory.
if grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
	skip --exempt "$BUILD is a sanitizer build: valgrind cannot run ASan binaries"
fi
[ -r "$SUPP" ] || die "suppressions file $SUPP missing"

VG=(valgrind --error-exitcode=99 --leak-check=full
	--show-leak-kinds=definite,indirect,possible
	--errors-for-leak-kinds=definite,indirect,possible
	--suppressions="$SUPP" --num-callers=30 --child-silent-after-fork=no)

# Tiny runs: a few iterations of a small size. Every tool with a peer
# (--port) is a client and a forked server (--local), both checked; the
# loopback one is one process. What a tool takes, its own -h says.
args_for() {
	local t=$1 PROV=$2
	if ! tool_has "$t" --port; then
		echo "-i 2 -n 4 -s 4096"
	elif ! tool_has "$t" --size; then # atomics: the type sets the size
		echo "--local --provider $PROV -n 5"
	elif tool_has "$t" --warmup; then # latency
		echo "--local --provider $PROV -n 5 -s 64 --warmup 1"
	else
		echo "--local --provider $PROV -n 5 -s 4096 -l 4"
	fi
}

# vg_case TOOL PROV: memcheck one run; both processes log to their own file.
vg_case() {
	local tool=$1 logs errs dir=$TMPD/vg.$1.$2
	local -a args
	read -r -a args <<<"$(args_for "$tool" "$2")"
	if ! [ -x "$BUILD/$tool" ]; then
		fail "$tool: $BUILD/$tool not built"
		return
	fi
	mkdir -p "$dir"
	run_capture "$tool" 120 "${VG[@]}" --log-file="$dir/%p.log" \
		"$BUILD/$tool" "${args[@]}"
	logs=("$dir"/*.log)
	errs=$(grep -h 'ERROR SUMMARY' "${logs[@]}" 2>/dev/null | grep -vc ' 0 errors')
	if [ "$RC" -eq 0 ] && [ "$errs" -eq 0 ] && [ ${#logs[@]} -ge 1 ]; then
		pass "$tool ${args[*]}: memcheck clean (${#logs[@]} process(es))"
		return
	fi
	fail "$tool ${args[*]}: exit $RC, $errs process(es) with errors"
	show "$ERR"
	local f
	for f in "${logs[@]}"; do
		grep -q 'ERROR SUMMARY: 0 errors' "$f" && continue
		echo "       --- $(basename "$f")"
		grep -v -e '^==[0-9]*== *$' -e 'by 0x[0-9A-F]*: ???' "$f" | sed -n '7,60p' | sed 's/^/       | /'
	done
}

need_tool_list
for T in "${TOOLS_ALL[@]}"; do
	if ! tool_has "$T" --port; then
		vg_case "$T" auto # one process, its own provider choice
		continue
	fi
	for P in "${PROVIDERS[@]}"; do
		[ "$P" = shm ] && [ "$SHM_TOO" != all ] && [[ $SHM_TOO != *" $T "* ]] && continue
		vg_case "$T" "$P"
	done
done
finish

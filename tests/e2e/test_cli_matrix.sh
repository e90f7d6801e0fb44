#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# The command-line contract of every tool of the build (the list comes from
# lib/tools.c; what each tool takes, from its own -h):
#  - -h exits 0 and lists --json and --provider; -V exits 0 with a version;
#  - the matrix: every option that takes a value gets a missing, empty,
#    negative, non-numeric, fractional, overflowing and out-of-range value,
#    or for names and enumerations an unknown, empty or over-long one. Each
#    must exit 2 with a first stderr line naming the option and quoting the
#    value;
#  - the cases the matrix cannot derive, in short-option spelling: the other
#    end of a range (-s 0, -l 16383, -D 0, --buf-align 0), size ranges
#    (-s 3:8, -s 1:8589934592), --use-hp 3M, an unknown option, a stray
#    argument, and a bad value in the server role (it must not listen). Each
#    exits 2 naming the value.
# No run ever starts (every case is bounded by a 10 s timeout in case a bad
# value slips through). Without TOOL arguments each tool is a part of its
# own, all run at the same time.
#   bash tests/e2e/test_cli_matrix.sh BUILD_DIR [TOOL...]
. "$(dirname "$0")/lib.sh" "$@"
shift
TOOLS=("$@")
if [ ${#TOOLS[@]} -eq 0 ]; then
	need_tool_list
	# One part per tool, all at once: a case costs little CPU but about
	# 0.2 s of waiting, Debian's libfabric loading libinfinipath, whose
	# constructor times the CPU clock with usleep() for 0.2 s in every
	# process (objdump shows the loop); two parts took 145 s on 2 cores
	# for 36 s of CPU.
	PARTS=("${TOOLS_ALL[@]}")
	PART_PIDS=()
	for part in "${PARTS[@]}"; do
		# shellcheck disable=SC2086
		start_bg part bash "$0" "$BUILD" $part
		PART_PIDS+=("$BG_PID:$BG_OUT:$BG_ERR")
	done
	collect_parts 280 '^test_cli_matrix: '
	finish
fi

# Values just outside each numeric option's range (the originals' limits).
out_of_range() {
	case $1 in
	iters | num-xfers | list-size) echo 0 ;;
	duration) echo 31536001 ;;
	size) echo 4294967296 ;;
	svc-id) echo 2147483648 ;;
	port) echo 65536 ;;
	warmup) echo 1000000001 ;;
	latency-gap) echo 60000001 ;;
	buf-sz | max-mem) echo 0 ;;
	buf-align | buf_align) echo 1073741825 ;;
	tx-gpu | rx-gpu) echo 2147483648 ;;
	esac
}

# Kind of an option's value, by its long name.
kind() {
	case $1 in
	device | provider | bind | metrics | rendezvous) echo name ;;
	use-hp | gpu-type | atomic-op | cswap-op | atomic-type | tclass) echo enum ;;
	expect-bw | expect-lat) echo real ;; # decimals above 0
	*) echo number ;;
	esac
}

LONG=$(printf 'x%.0s' $(seq 300))
N=0
# bad TOOL PEER NAME SHORT VALUE|--missing
bad() {
	local tool=$1 peer=$2 long=$3 short=$4 value=$5 args=()
	[ -n "$peer" ] && args=("$peer")
	if [ "$value" = --missing ]; then
		args+=("--$long")
	else
		args+=("--$long=$value")
	fi
	run_capture "$tool-$long" 10 "$BUILD/$tool" "${args[@]}"
	N=$((N + 1))
	local first what="$tool ${args[*]:0:3}"
	first=$(head -1 "$ERR")
	what=${what:0:90}
	if [ "$RC" -ne 2 ]; then
		fail "$what: exit $RC, want 2 | $(head -c 200 "$ERR" | tr '\n' ' ')"
	elif ! echo "$first" | grep -qE -- "--$long|-$short[/ ,']"; then
		fail "$what: first stderr line does not name the option: $first"
	elif [ "$value" != --missing ] && [ -n "$value" ] &&
		! echo "$first" | grep -qF -- "'${value:0:40}"; then
		fail "$what: first stderr line does not quote the value: $first"
	else
		pass "$what -> 2: ${first:0:100}"
	fi
}

# usage_case TOOL NEEDLE ARGS...: exit 2, stderr names NEEDLE. A tool with
# a peer gets the client role (an address first), so a value that slips
# through fails to connect (exit 1) instead of waiting for a client;
# NO_HOST=1: the server role.
usage_case() {
	local tool=$1 needle=$2
	shift 2
	local args=("$@")
	if tool_has "$tool" --port && [ "${NO_HOST:-0}" != 1 ]; then args=("$LOOPBACK" "${args[@]}"); fi
	run_capture "$tool-usage" 10 "$BUILD/$tool" "${args[@]}"
	N=$((N + 1))
	local what="$tool ${args[*]}"
	if [ "$RC" -ne 2 ]; then
		fail "$what: exit $RC, want 2 | stderr: $(head -c 300 "$ERR" | tr '\n' ' ')"
	elif ! [ -s "$ERR" ]; then
		fail "$what: exit 2 but nothing on stderr"
	elif ! grep -qF -- "$needle" "$ERR"; then
		fail "$what: stderr does not name '$needle': $(head -c 300 "$ERR" | tr '\n' ' ')"
	else
		pass "$what -> 2: $(head -1 "$ERR" | cut -c1-110)"
	fi
}

# short_cases TOOL: the cases the matrix does not derive from -h.
short_cases() {
	local T=$1 it
	# iterations are -n, or -i where -n counts transfers (the loopback tool)
	it=$(tool_help "$T" | sed -nE 's/^ +-([A-Za-z]), --iters=.*/\1/p')
	usage_case "$T" abc "-${it:-n}" abc
	if tool_has "$T" --size; then
		usage_case "$T" 0 -s 0
		if tool_help "$T" | grep -qF -- '--size=MIN[:MAX]'; then
			usage_case "$T" 3:8 -s 3:8
			usage_case "$T" 8589934592 -s 1:8589934592
		fi
	fi
	if tool_has "$T" --list-size; then usage_case "$T" 16383 -l 16383; fi
	usage_case "$T" 0 -D 0
	if tool_has "$T" --buf-align; then usage_case "$T" 0 --buf-align 0; fi
	if tool_has "$T" --use-hp; then usage_case "$T" 3M --use-hp 3M; fi
	usage_case "$T" no-such-option --no-such-option
	usage_case "$T" bogus_extra bogus_extra
	if tool_has "$T" --port; then
		# the server role (no address): must not start listening
		NO_HOST=1 usage_case "$T" abc -p 0 -n abc
	fi
}

for T in "${TOOLS[@]}"; do
	section "$T"
	[ -x "$BUILD/$T" ] || { fail "$T not built"; continue; }
	run_capture "$T-version" 10 "$BUILD/$T" -V
	if [ "$RC" -eq 0 ] && grep -Eq '[0-9]+\.[0-9]+' "$OUT" "$ERR"; then
		pass "$T -V -> 0: $(head -1 "$OUT")"
	else
		fail "$T -V: exit $RC, output '$(head -c 100 "$OUT")'"
	fi
	run_capture "$T-help" 10 "$BUILD/$T" -h
	expect_rc 0 "$RC" "$T -h"
	HELP=$OUT
	missing=
	for o in --json --provider; do grep -qF -- "$o" "$OUT" || missing="$missing $o"; done
	[ -z "$missing" ] && pass "$T -h lists --json and --provider" || fail "$T -h: help lacks$missing"
	short_cases "$T"
	peer=$LOOPBACK
	tool_has "$T" --port || peer=
	# "  -n, --iters=ITERS   ..." or "      --use-hp=SIZE   ..."
	opts=$(sed -nE 's/^ +(-([A-Za-z]), )?--([a-z_-]+)=([^ ]+) .*/\3 \2/p' "$HELP")
	[ -n "$opts" ] || fail "$T -h lists no options with values"
	while read -r long short; do
		[ -n "$long" ] || continue
		bad "$T" "$peer" "$long" "${short:-@}" --missing
		bad "$T" "$peer" "$long" "${short:-@}" ""
		case $(kind "$long") in
		name) bad "$T" "$peer" "$long" "${short:-@}" "$LONG" ;;
		enum)
			bad "$T" "$peer" "$long" "${short:-@}" bogus
			bad "$T" "$peer" "$long" "${short:-@}" -1
			;;
		number)
			for v in -1 abc 1.5 12abc 99999999999999999999999 $(out_of_range "$long"); do
				bad "$T" "$peer" "$long" "${short:-@}" "$v"
			done
			;;
		real)
			for v in -1 0 abc nan 12abc 1000000001 1e999; do
				bad "$T" "$peer" "$long" "${short:-@}" "$v"
			done
			;;
		esac
	done <<<"$opts"
done

echo
echo "$N bad command lines run"
finish

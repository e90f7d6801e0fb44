#!/usr/bin/env bash
# Command-line contract of all nine tools: usage errors exit 2 with a message
# naming the bad value; -h / -V exit 0. No run ever starts (every case is
# bounded by a 10 s timeout in case a bad value slips through).
#   bash tests/e2e/test_cli.sh BUILD_DIR [TOOL...]
. "$(dirname "$0")/lib.sh" "$@"
shift
TOOLS=("$@")
[ ${#TOOLS[@]} -gt 0 ] || TOOLS=(cxi_write_bw cxi_read_bw cxi_send_bw cxi_atomic_bw
	cxi_gpu_loopback_bw cxi_write_lat cxi_read_lat cxi_send_lat cxi_atomic_lat)

# Which options each tool has (from the original man pages).
has() {
	local tool=$1 opt=$2
	case $opt in
	iters_n) [ "$tool" != cxi_gpu_loopback_bw ] ;;          # -n is iterations
	iters_i) [ "$tool" = cxi_gpu_loopback_bw ] ;;           # -i is iterations
	xfers_n) [ "$tool" = cxi_gpu_loopback_bw ] ;;           # -n is transfers/iteration
	size) [[ $tool != cxi_atomic_* ]] ;;
	range) [[ $tool != cxi_atomic_* && $tool != cxi_gpu_loopback_bw ]] ;;
	list) [[ $tool =~ ^cxi_(write|read|send|atomic)_bw$ ]] ;;
	buf_align) [[ $tool =~ ^cxi_(write|read|send)_bw$ ]] ;;
	use_hp) [[ $tool != cxi_atomic_* ]] ;;
	port | peer) [ "$tool" != cxi_gpu_loopback_bw ] ;;
	*) return 1 ;;
	esac
}

# usage_case TOOL NEEDLE ARGS...: exit 2, stderr names NEEDLE, no stdout table.
N_CASES=0
usage_case() {
	local tool=$1 needle=$2; shift 2
	local args=("$@")
	# Client role where the tool has one, so that a value that slips through
	# fails to connect (exit 1) instead of waiting for a client.
	if has "$tool" peer && [ "${NO_HOST:-0}" != 1 ]; then args=("$LOOPBACK" "${args[@]}"); fi
	run_capture "$tool-usage" 10 "$BUILD/$tool" "${args[@]}"
	N_CASES=$((N_CASES + 1))
	local what="$tool ${args[*]}"
	if [ "$RC" -ne 2 ]; then
		fail "$what: exit $RC, want 2 | stderr: $(head -c 300 "$ERR" | tr '\n' ' ')"
		return
	fi
	if ! [ -s "$ERR" ]; then
		fail "$what: exit 2 but nothing on stderr"
	elif ! grep -qF -- "$needle" "$ERR"; then
		fail "$what: stderr does not name '$needle': $(head -c 300 "$ERR" | tr '\n' ' ')"
	else
		pass "$what -> 2: $(head -1 "$ERR" | cut -c1-110)"
	fi
}

for T in "${TOOLS[@]}"; do
	section "$T"
	if ! [ -x "$BUILD/$T" ]; then
		fail "$T: $BUILD/$T not built"
		continue
	fi

	# -h / -V
	run_capture "$T-help" 10 "$BUILD/$T" -h
	if [ "$RC" -eq 0 ]; then
		missing=
		for o in --json --provider; do grep -qF -- "$o" "$OUT" || missing="$missing $o"; done
		[ -z "$missing" ] && pass "$T -h -> 0, lists --json and --provider" || fail "$T -h: help lacks$missing"
	else
		fail "$T -h: exit $RC, want 0"
	fi
	run_capture "$T-version" 10 "$BUILD/$T" -V
	if [ "$RC" -eq 0 ] && grep -Eq '[0-9]+\.[0-9]+' "$OUT" "$ERR"; then
		pass "$T -V -> 0: $(head -1 "$OUT")"
	else
		fail "$T -V: exit $RC, output '$(head -c 100 "$OUT")'"
	fi

	# iterations
	if has "$T" iters_n; then it=-n; else it=-i; fi
	usage_case "$T" 0 "$it" 0
	usage_case "$T" abc "$it" abc
	usage_case "$T" -5 "$it" -5
	usage_case "$T" 99999999999999999999999 "$it" 99999999999999999999999
	if has "$T" xfers_n; then
		usage_case "$T" 0 -n 0
		usage_case "$T" abc -n abc
	fi
	# sizes
	if has "$T" size; then
		usage_case "$T" 0 -s 0
		usage_case "$T" 3:8 -s 3:8
		usage_case "$T" 8589934592 -s 1:8589934592
		usage_case "$T" 8589934592 -s 8589934592
		usage_case "$T" x -s x
	fi
	if has "$T" list; then
		usage_case "$T" 0 -l 0
		usage_case "$T" 16383 -l 16383
	fi
	usage_case "$T" 0 -D 0
	usage_case "$T" abc -D abc
	if has "$T" buf_align; then usage_case "$T" 0 --buf-align 0; fi
	if has "$T" use_hp; then usage_case "$T" 3M --use-hp 3M; fi
	if has "$T" port; then usage_case "$T" 70000 -p 70000; fi
	usage_case "$T" no-such-option --no-such-option
	usage_case "$T" bogus_extra bogus_extra
	if has "$T" peer; then
		# the same checks in server role (no address): must not start listening
		NO_HOST=1 usage_case "$T" abc -p 0 -n abc
	fi
done

echo
echo "$N_CASES usage cases run"
finish

#!/usr/bin/env bash
# Bad command lines, table-driven over all nine tools: every option that
# takes a value (read from the tool's own -h) gets a missing, empty,
# negative, non-numeric, fractional, overflowing and out-of-range value, or
# for names and enumerations an unknown, empty or over-long one. Each must
# exit 2 with a first stderr line naming the option and quoting the value.
#   bash tests/e2e/test_cli_matrix.sh BUILD_DIR [TOOL...]
. "$(dirname "$0")/lib.sh" "$@"
shift
TOOLS=("$@")
[ ${#TOOLS[@]} -gt 0 ] || TOOLS=(cxi_write_bw cxi_read_bw cxi_send_bw cxi_atomic_bw
	cxi_gpu_loopback_bw cxi_write_lat cxi_read_lat cxi_send_lat cxi_atomic_lat)

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
	device | provider | bind) echo name ;;
	use-hp | gpu-type | atomic-op | cswap-op | atomic-type) echo enum ;;
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

for T in "${TOOLS[@]}"; do
	section "$T"
	[ -x "$BUILD/$T" ] || { fail "$T not built"; continue; }
	run_capture "$T-version" 10 "$BUILD/$T" -V
	expect_rc 0 "$RC" "$T -V"
	run_capture "$T-help" 10 "$BUILD/$T" -h
	expect_rc 0 "$RC" "$T -h"
	peer=$LOOPBACK
	[ "$T" = cxi_gpu_loopback_bw ] && peer=
	# "  -n, --iters=ITERS   ..." or "      --use-hp=SIZE   ..."
	opts=$(sed -nE 's/^ +(-([A-Za-z]), )?--([a-z_-]+)=([^ ]+) .*/\3 \2/p' "$OUT")
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
		esac
	done <<<"$opts"
done

echo
echo "$N bad command lines run"
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# cxi_atomic_bw / cxi_atomic_lat end to end.
#   bash tests/e2e/test_atomic.sh BUILD_DIR
# Every valid op x type runs over tcp (--local: one command runs both
# sides) and must either pass its target check or fail with "cannot do"
# where the provider lacks the pair (DOUBLE_COMPLEX and UINT128 on tcp and
# shm). Then a few runs over shm, bidirectional runs, a real server +
# client pair, and cxi_atomic_lat.
#
# Each run costs ~0.5 s of CPU, most of it libfabric's own start-up (its
# verbs provider scans /proc/kallsyms in fi_getinfo), so all 330 op x type
# x fetching runs need ~90 s of both cores. By default each op x type pair
# runs once, fetching on a checkerboard (op row + type column odd), so
# every op and every type is seen in both modes; ATOMIC_E2E_FULL=1 runs
# both modes of every pair. ATOMIC_E2E_JOBS: runs at once (default 3).
# make test runs a quarter of the pairs (see "span" below), make bench all.
. "$(dirname "$0")/lib.sh" "$@"
BW=$BUILD/cxi_atomic_bw
LAT=$BUILD/cxi_atomic_lat
JOBS=${ATOMIC_E2E_JOBS:-3}
T0=$(now)
[ -x "$BW" ] && [ -x "$LAT" ] || skip "cxi_atomic_bw / cxi_atomic_lat not built"

OPS=(MIN MAX SUM LOR LAND BOR BAND LXOR BXOR SWAP CSWAP AXOR)
CSWAPS=(EQ NE LE LT GE GT)
TYPES=(INT8 UINT8 INT16 UINT16 INT32 UINT32 INT64 UINT64 FLOAT DOUBLE
       FLOAT_COMPLEX DOUBLE_COMPLEX UINT128)

# The originals' validity table (amo_validate_op_and_type).
valid() {
	local op=$1 cop=$2 t=$3
	case $t in
	*INT8 | *INT16 | *INT32 | *INT64) return 0 ;;
	FLOAT | DOUBLE)
		case $op in MIN | MAX | SUM | SWAP | CSWAP) return 0 ;; esac ;;
	FLOAT_COMPLEX | DOUBLE_COMPLEX)
		case $op:$cop in SUM:* | SWAP:* | CSWAP:EQ | CSWAP:NE) return 0 ;; esac ;;
	UINT128) [ "$op:$cop" = CSWAP:EQ ] && return 0 ;;
	esac
	return 1
}

# Types neither tcp;ofi_rxm nor shm does atomics on (libfabric 1.17).
lacking() { [ "$1" = DOUBLE_COMPLEX ] || [ "$1" = UINT128 ]; }

# run_case PROV OP COP TYPE FETCH ARGS...: one --local run; prints
# "PROV OP COP TYPE FETCH VERDICT" with VERDICT ok, nosupp or FAIL:why.
run_case() {
	local prov=$1 op=$2 cop=$3 t=$4 fetch=$5; shift 5
	local base="$TMPD/case.$prov.$op.$cop.$t.$fetch" args rc v
	args=(--local --provider "$prov" -A "$op" -T "$t" "$@")
	[ "$op" = CSWAP ] && args+=(-C "$cop")
	[ "$fetch" = 1 ] && args+=(--fetching)
	timeout -k 2 60 "$BW" "${args[@]}" >"$base.out" 2>"$base.err" </dev/null
	rc=$?
	if grep -q "verification FAILED" "$base.out"; then
		v="FAIL:verification"
	elif [ $rc -eq 0 ] && table_rows "$base.out" >/dev/null; then
		v=ok
	elif [ $rc -ne 0 ] && grep -q "cannot do" "$base.err"; then
		v=nosupp
	else
		v="FAIL:exit$rc"
	fi
	echo "$prov $op $cop $t $fetch $v"
}

# table_rows comes from lib.sh; the workers run in fresh shells.
export -f run_case table_rows
export BW TMPD

# ---------------------------------------------------------------- preflight
section "preflight: --local over tcp"
run_capture pre 30 "$BW" --local --provider tcp -n 2 -l 2
if [ "$RC" -ne 0 ]; then
	if grep -q "cannot run this test here" "$ERR"; then
		skip "provider tcp unavailable: $(head -1 "$ERR")"
	fi
	show "$OUT" "$ERR"
	die "cxi_atomic_bw --local --provider tcp -n 2 -l 2 exits $RC"
fi
pass "cxi_atomic_bw --local works (default SUM UINT64)"

# ---------------------------------------------------------------- matrix
FULL=${ATOMIC_E2E_FULL:-0}
# By default each op row and each type column runs in both fetching modes
# at least once (about a quarter of the pairs): every op and every type
# through our code and the provider's, in make test (check, lf2, asan);
# what the provider computes for each op x type pair against our own
# simulation (base/amo_sim.c, unit.test_amo_sim: every pair by hand) is
# make bench's (ATOMIC_E2E_SPAN=pairs, about four times as long).
# ATOMIC_E2E_SPAN (pairs or rows-and-columns) chooses.
SPAN=${ATOMIC_E2E_SPAN:-rows-and-columns}
[ "$FULL" = 1 ] && SPAN=pairs
case $SPAN in pairs | rows-and-columns) ;; *) die "ATOMIC_E2E_SPAN: '$SPAN' (pairs or rows-and-columns)" ;; esac
section "every valid op x type over tcp (-n 5 -l 16, $JOBS at once$([ "$FULL" = 1 ] && echo ", both fetching modes"); span: $SPAN)"
CASES=$TMPD/cases
: >"$CASES"
ALL=$TMPD/cases.all
: >"$ALL"
row=0
for op in "${OPS[@]}"; do
	cops=(EQ)
	[ "$op" = CSWAP ] && cops=("${CSWAPS[@]}")
	for cop in "${cops[@]}"; do
		col=0
		for t in "${TYPES[@]}"; do
			col=$((col + 1))
			valid "$op" "$cop" "$t" || continue
			modes=($(((row + col) % 2)))
			[ "$FULL" = 1 ] && modes=(0 1)
			for f in "${modes[@]}"; do
				echo "$row $col tcp $op $cop $t $f -n 5 -l 16" >>"$ALL"
			done
		done
		row=$((row + 1))
	done
done
# rows-and-columns: per row its first valid cell from the diagonal on and
# the next valid one (the other parity where there is one), per column alike.
if [ "$SPAN" = pairs ]; then
	cut -d' ' -f3- "$ALL" >"$CASES"
else
	awk '
	{ line[NR] = $0; r[NR] = $1; c[NR] = $2; m[NR] = $7 }
	function pick(key, want, i, k) {
		# first cell of the row (or column) whose fetching mode is "want"
		for (k = 0; k < n[key]; k++) { i = idx[key, k]; if (m[i] == want) return i }
		return 0
	}
	END {
		for (i = 1; i <= NR; i++) {
			kr = "r" r[i]; kc = "c" c[i]
			idx[kr, n[kr]++] = i; idx[kc, n[kc]++] = i
		}
		for (key in n) for (f = 0; f <= 1; f++) { i = pick(key, f); if (i) keep[i] = 1 }
		for (i = 1; i <= NR; i++) if (keep[i]) { sub(/^[0-9]+ [0-9]+ /, "", line[i]); print line[i] }
	}' "$ALL" >"$CASES"
fi
RESULTS=$TMPD/results.tcp
T1=$(now)
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 bash -c 'run_case "$@"' _ <"$CASES" >"$RESULTS"
note "$(wc -l <"$CASES") runs in $(elapsed_since "$T1") s"

# judge_results RESULTS: one check per run; unsupported only where expected.
judge_results() {
	local prov op cop t f v name
	while read -r prov op cop t f v; do
		name="$prov $op$([ "$op" = CSWAP ] && echo " $cop") $t$([ "$f" = 1 ] && echo " fetching")"
		case $v in
		ok) pass "$name: target verified" ;;
		nosupp)
			if lacking "$t"; then pass "$name: refused with 'cannot do'"
			else fail "$name: provider refused a pair it should do"; fi ;;
		*)
			fail "$name: $v"
			show "$TMPD/case.$prov.$op.$cop.$t.$f.out" "$TMPD/case.$prov.$op.$cop.$t.$f.err" ;;
		esac
	done <"$1"
}
judge_results "$RESULTS"
n=$(wc -l <"$RESULTS")
[ "$n" -eq "$(wc -l <"$CASES")" ] && pass "all $n runs reported" || fail "$n of $(wc -l <"$CASES") runs reported"

# A table: rows op (CSWAP with comparison), columns type; each cell
# non-fetching/fetching: + verified, n refused (not supported), X failed.
summary_table() {
	local res=$1 op cop t f v cell key
	declare -A got=()
	while read -r _ op cop t f v; do
		case $v in ok) c=+ ;; nosupp) c=n ;; *) c=X ;; esac
		got[$op.$cop.$t.$f]=$c
	done <"$res"
	printf '\n%-10s' "tcp"
	for t in "${TYPES[@]}"; do printf ' %-5s' "$(echo "$t" | sed 's/DOUBLE_COMPLEX/DCPX/;s/FLOAT_COMPLEX/FCPX/;s/DOUBLE/DBL/;s/FLOAT/FLT/;s/UINT/U/;s/INT/I/')"; done
	echo
	for op in "${OPS[@]}"; do
		cops=(EQ)
		[ "$op" = CSWAP ] && cops=("${CSWAPS[@]}")
		for cop in "${cops[@]}"; do
			printf '%-10s' "$op$([ "$op" = CSWAP ] && echo " $cop")"
			for t in "${TYPES[@]}"; do
				key=$op.$cop.$t
				if valid "$op" "$cop" "$t"; then
					cell="${got[$key.0]:--}/${got[$key.1]:--}"
				else
					cell="."
				fi
				printf ' %-5s' "$cell"
			done
			echo
		done
	done
	echo "(cell: non-fetching/fetching; + verified, n 'cannot do', X failed, - not run, . invalid)"
}
summary_table "$RESULTS"

# ---------------------------------------------------------------- shm
section "shm: a few pairs, both fetching modes"
: >"$CASES"
for c in "SUM EQ UINT64" "MIN EQ DOUBLE" "CSWAP GT FLOAT" "CSWAP NE FLOAT_COMPLEX" \
	 "AXOR EQ UINT8" "BAND EQ INT16" "SWAP EQ INT32" "SUM EQ DOUBLE_COMPLEX"; do
	for f in 0 1; do
		read -r op cop t <<<"$c"
		echo "shm $op $cop $t $f -n 5 -l 16" >>"$CASES"
	done
done
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 bash -c 'run_case "$@"' _ <"$CASES" >"$TMPD/results.shm"
judge_results "$TMPD/results.shm"

# ---------------------------------------------------------------- bidir
section "bidirectional -b: both sides hit each other's targets"
: >"$CASES"
for prov in tcp shm; do
	echo "$prov SUM EQ UINT32 1 -n 5 -l 16 -b" >>"$CASES"
	echo "$prov CSWAP LT INT64 0 -n 5 -l 16 -b" >>"$CASES"
	echo "$prov MAX EQ FLOAT 0 -n 5 -l 16 -b" >>"$CASES"
done
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 bash -c 'run_case "$@"' _ <"$CASES" >"$TMPD/results.bidir"
judge_results "$TMPD/results.bidir"

# ---------------------------------------------------------------- pair
section "server + client as two processes (tcp, AXOR UINT16 fetching, -b)"
if start_server cxi_atomic_bw --provider tcp; then
	run_capture pair-client 60 "$BW" "$LOOPBACK" -p "$SERVER_PORT" --provider tcp \
		-A axor -T uint16 --fetching -b -n 20 -l 8
	wait_server 15
	expect_rc 0 "$RC" "client"
	expect_rc 0 "$SERVER_RC" "server"
	# 2-byte operands fit tcp's inject limit, but a fetching AMO waits
	# for the old value: never injected, and the summary says so.
	expect_line "$OUT" '^IDC +: Disabled$' "client: IDC Disabled for a fetching AMO"
	for f in "$OUT" "$SERVER_OUT"; do
		if grep -q "verification FAILED" "$f" || ! table_rows "$f" >/dev/null; then
			fail "$(basename "$f"): no clean table row"
			show "$f" "$ERR" "$SERVER_ERR"
		else
			pass "$(basename "$f"): table row, no verification failure"
		fi
	done
fi

section "a pair tcp lacks: the client names provider, op and type"
if start_server cxi_atomic_bw --provider tcp; then
	run_capture nosupp-client 30 "$BW" "$LOOPBACK" -p "$SERVER_PORT" --provider tcp \
		-A cswap -C eq -T uint128 -n 5
	wait_server 15
	expect_rc nonzero "$RC" "client, CSWAP EQ UINT128 over tcp"
	grep -q "provider 'tcp' cannot do non-fetching CSWAP EQ on UINT128" "$ERR" \
		&& pass "client names provider, op and type" \
		|| { fail "client message lacks 'cannot do ... CSWAP EQ on UINT128'"; show "$ERR"; }
	expect_rc nonzero "$SERVER_RC" "server"
fi

# ---------------------------------------------------------------- latency
section "cxi_atomic_lat -n 5"
for c in "tcp sum uint64" "tcp cswap-eq double --fetching" "shm min int8" \
	 "shm swap float_complex --fetching" "tcp axor uint32"; do
	read -r prov op t extra <<<"$c"
	args=(--local --provider "$prov" -T "$t" -n 5)
	case $op in
	cswap-*) args+=(-A cswap -C "${op#cswap-}") ;;
	*) args+=(-A "$op") ;;
	esac
	[ -n "${extra:-}" ] && args+=("$extra")
	run_capture lat 30 "$LAT" "${args[@]}"
	rows=$(table_rows "$OUT" | wc -l)
	if [ "$RC" -eq 0 ] && [ "$rows" -eq 1 ] && ! grep -q "verification FAILED" "$OUT"; then
		pass "lat $c: one row, target verified"
	else
		fail "lat $c: exit $RC, $rows rows"
		show "$OUT" "$ERR"
	fi
done

section "invalid pairs are refused before any run"
run_capture invalid 10 "$BW" --local --provider tcp -A bor -T float -n 5
expect_rc nonzero "$RC" "BOR on FLOAT"
grep -q "Invalid Op and Type combination" "$ERR" && pass "message: Invalid Op and Type combination" \
	|| { fail "no 'Invalid Op and Type combination' message"; show "$ERR"; }

note "whole script: $(elapsed_since "$T0") s"
finish

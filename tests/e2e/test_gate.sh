#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (gates judge real --local figures against bounds)
# The pair tools' gates end to end: --expect-bw / --expect-lat on real
# --local runs over tcp and shm. A bound every size meets: one PASS line,
# exit 0, the rest of the output as without the option. An impossible
# bound: a FAIL line naming each size, its figure and the bound, exit 3.
# Bad input: exit 2 naming the value. About 10 s.
#   bash tests/e2e/test_gate.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
for t in cxi_write_bw cxi_send_lat cxi_gpu_loopback_bw cxi_read_lat; do
	[ -x "$BUILD/$t" ] || skip "$BUILD/$t not built"
done

# The output with figures masked (digits, the padding their width sets)
# and the host-wide TCP line (any connection of the host moves it): runs
# differ only there.
shape() { grep -v -e '^Gate ' -e '^TCP retransmits' "$1" | sed 's/[0-9]//g; s/[[:space:]]\+/ /g'; }

section "[tcp] bandwidth, 1 to 64 B: a bound every size meets"
run_capture plain 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 1:64 -n 20
expect_rc 0 "$RC" "without --expect-bw"
PLAIN=$OUT
grep -q '^Gate' "$PLAIN" && fail "a Gate line without the option" || pass "no Gate line without the option"
run_capture pass 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 1:64 -n 20 --expect-bw 0.0001
expect_rc 0 "$RC" "--expect-bw 0.0001"
expect_line "$OUT" '^Gate             : PASS: 7 sizes within the bound of 0.0001 MB/s \(lowest [0-9.]+ MB/s at [0-9]+ B\)$' "the PASS line"
[ "$(grep -c '^Gate' "$OUT")" -eq 1 ] && pass "one Gate line" || { fail "Gate lines: $(grep -c '^Gate' "$OUT")"; show "$OUT"; }
if diff <(shape "$PLAIN") <(shape "$OUT") >/dev/null; then
	pass "otherwise the same output as without the option"
else
	fail "the gated output differs beyond the Gate line"; diff <(shape "$PLAIN") <(shape "$OUT") | head -20
fi

section "[tcp] bandwidth: an impossible bound"
run_capture fail 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 1:64 -n 20 --expect-bw 1000000000
expect_rc 3 "$RC" "--expect-bw 1000000000"
for s in 1 2 4 8 16 32 64; do
	fig=$(table_rows "$OUT" | awk -v s="$s" '$1 == s { print $3 }')
	line=$(grep -E "^Gate             : FAIL $s B: " "$OUT")
	if [ -n "$fig" ] && echo "$line" | grep -qF "FAIL $s B: $fig MB/s, below the bound of 1000000000 MB/s"; then
		pass "size $s named with its figure $fig MB/s and the bound"
	else
		fail "size $s: figure '$fig', line '$line'"
	fi
done
grep -q PASS "$OUT" && fail "PASS printed beside FAIL" || pass "no PASS line"

section "[tcp] --json and --csv"
run_capture json 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 8:16 -n 20 --json --expect-bw 1000000000
expect_rc 3 "$RC" "--json, impossible bound"
check "JSON gate.verdict FAIL" [ "$(json_get "$OUT" gate.verdict)" = FAIL ]
check "JSON gate.missed holds both sizes" [ "$(json_get "$OUT" gate.missed.1.size)" = 16 ]
check "JSON gate.min is the bound" awk -v x="$(json_get "$OUT" gate.min)" 'BEGIN { exit !(x == 1e9) }'
run_capture jsonok 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 8 -n 20 --json --expect-bw 0.0001
expect_rc 0 "$RC" "--json, met bound"
check "JSON gate.verdict PASS" [ "$(json_get "$OUT" gate.verdict)" = PASS ]
run_capture csv 60 "$BUILD/cxi_write_bw" --local --provider tcp -s 8 -n 20 --csv --expect-bw 1000000000
expect_rc 3 "$RC" "--csv, impossible bound"
check "CSV rows on stdout only (header + 1 row)" [ "$(wc -l <"$OUT")" -eq 2 ]
expect_line "$ERR" '^Gate             : FAIL 8 B: ' "the FAIL line on stderr"

section "[shm] latency: the median against --expect-lat"
run_capture latok 60 "$BUILD/cxi_send_lat" --local --provider shm -n 20 --latency-gap 0 --expect-lat 1000000
expect_rc 0 "$RC" "--expect-lat 1000000"
expect_line "$OUT" '^Gate             : PASS: 1 size within the bound of 1000000 us \(highest median [0-9.]+ us at 8 B\)$' "the PASS line"
run_capture latbad 60 "$BUILD/cxi_read_lat" --local --provider shm -s 8:16 -n 20 --latency-gap 0 --expect-lat 0.001
expect_rc 3 "$RC" "--expect-lat 0.001"
expect_line "$OUT" '^Gate             : FAIL 8 B: median [0-9.]+ us, above the bound of 0.001 us$' "size 8 named"
expect_line "$OUT" '^Gate             : FAIL 16 B: median [0-9.]+ us, above the bound of 0.001 us$' "size 16 named"

section "[shm] the loopback tool (its table in Gb/s)"
run_capture loop 60 "$BUILD/cxi_gpu_loopback_bw" --provider shm -s 4096 -i 2 -n 16 --expect-bw 1000000000
expect_rc 3 "$RC" "cxi_gpu_loopback_bw --expect-bw 1000000000"
expect_line "$OUT" '^Gate             : FAIL 4096 B: [0-9.]+ MB/s \([0-9.]+ Gb/s\), below the bound of 1000000000 MB/s \(8000000.00 Gb/s\)$' "both units"

section "bad input: exit 2 naming the value"
bad() { # WANT_TEXT TOOL ARGS...
	local want=$1; shift
	run_capture bad 10 "$BUILD/$@"
	if [ "$RC" -eq 2 ] && grep -qF -- "$want" "$ERR"; then pass "$* -> exit 2: $(head -1 "$ERR")"
	else fail "$*: exit $RC, stderr '$(head -1 "$ERR")', want 2 and '$want'"; fi
}
bad "Invalid expected bandwidth: 'fast'" cxi_write_bw --local --expect-bw fast
bad "Invalid expected latency: '-1'" cxi_send_lat --local --expect-lat=-1
bad "'--expect-bw' is not for this tool" cxi_send_lat --local --expect-bw 100
bad "'--expect-lat' is not for this tool" cxi_write_bw --local --expect-lat 5
bad "--expect-bw is a client option" cxi_write_bw --expect-bw 100

finish

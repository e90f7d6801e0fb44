#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# cxi_write_lat, cxi_read_lat, cxi_send_lat and cxi_atomic_lat end to end:
# real binaries over tcp and shm, server and client as two processes.
# Checks the seed table header and separators, count == -n, min <= mean
# <= max, the server's summary and one "See client for results." per size,
# --report-all (the tool's own index noun, exactly -n rows, the summary
# row recomputed from them; ignored with -D), --json percentiles in both
# modes; then send_lat in duration mode (both sides stop together, after
# the same number of iterations) and --latency-gap (kept, measured).
#   bash tests/e2e/test_lat_family.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
# E2E_PROVIDERS: the providers when none is given (make lf2: tcp alone;
# 2.x's shm runs there in test_write_bw, test_robust and test_sweep).
[ ${#PROVIDERS[@]} -gt 0 ] || read -ra PROVIDERS <<<"${E2E_PROVIDERS:-tcp shm}"
T0=$(now)
# The latency tools: those of the build's list with --latency-gap in -h.
need_tool_list
mapfile -t TOOLS < <(tools_with --latency-gap)
[ ${#TOOLS[@]} -gt 0 ] || die "no tool of the build lists --latency-gap"

# Per tool, what the seed prints (the expected output, so not read from the
# tool): its header and its --report-all index noun. A tool missing here fails.
declare -A HDR NOUN
HDR[cxi_write_lat]='RDMA Size[B]      Writes     Min[us]     Max[us]    Mean[us]  StdDev[us]'
HDR[cxi_read_lat]='RDMA Size[B]       Reads     Min[us]     Max[us]    Mean[us]  StdDev[us]'
HDR[cxi_send_lat]='     Bytes       Sends     Min[us]     Max[us]    Mean[us]  StdDev[us]'
HDR[cxi_atomic_lat]='AMO Size[B]         Ops     Min[us]     Max[us]    Mean[us]  StdDev[us]'
NOUN=([cxi_write_lat]=WriteNum [cxi_read_lat]=ReadNum [cxi_send_lat]=SendNum [cxi_atomic_lat]=OpNum)
for t in "${TOOLS[@]}"; do
	[ -n "${HDR[$t]:-}" ] && [ -n "${NOUN[$t]:-}" ] || die "$t: no expected header/noun in this test"
done
# -s 1:64 where the tool has -s; an atomic tool's size is its type's (8 B).
sizes_args() { if tool_has "$1" --size; then echo "-s $2"; fi; }
sizes_list() { if tool_has "$1" --size; then pow2_range "${2%%:*}" "${2##*:}" | paste -sd, -; else echo 8; fi; }

# lcheck WHO MODE FILE ARGS...: tests/e2e/py/lat_check.py, one mode per use:
#   client FILE HEADER SIZES COUNT NOUN   text table; NOUN "-": no listing
#   server FILE NSIZES                    summary, "See client..." per size
#   json FILE SIZES COUNT SERVER_JSON     percentiles; COUNT "+": any > 0
lcheck() { py_check "$1" "$3" lat_check.py "${@:2}"; }

# ----------------------------------------------------------- per provider
lat_provider() {
	local P=$1 T sz s1 s2 s3
	for T in "${TOOLS[@]}"; do
		s1=$(sizes_args "$T" 1:64) s2=$(sizes_args "$T" 8:16) s3=$(sizes_args "$T" 1:4)
		section "[$P] $T -n 20${s1:+ $s1}"
		# shellcheck disable=SC2086 # $s1: "-s 1:64" or nothing
		if run_pair "$T" "$P-$T" --provider "$P" -- --provider "$P" -n 20 \
			--latency-gap 100 $s1; then
			sz=$(sizes_list "$T" 1:64)
			lcheck client client "$C_OUT" "${HDR[$T]}" "$sz" 20 -
			lcheck server server "$S_OUT" "$(echo "$sz" | tr , '\n' | wc -l)"
			grep -Eq '^Results Reported +: Summary$' "$C_OUT" && pass "Results Reported: Summary" \
				|| fail "no 'Results Reported : Summary'"
		fi

		section "[$P] $T --report-all -n 7${s2:+ $s2}"
		# shellcheck disable=SC2086
		if run_pair "$T" "$P-$T-all" --provider "$P" -- --provider "$P" -n 7 \
			--latency-gap 100 --report-all $s2; then
			sz=$(sizes_list "$T" 8:16)
			lcheck client client "$C_OUT" "${HDR[$T]}" "$sz" 7 "${NOUN[$T]}"
			lcheck server server "$S_OUT" "$(echo "$sz" | tr , '\n' | wc -l)"
			grep -Eq '^Results Reported +: All$' "$C_OUT" && pass "Results Reported: All" \
				|| fail "no 'Results Reported : All'"
		fi

		section "[$P] $T --json -n 20${s3:+ $s3} (both sides)"
		# shellcheck disable=SC2086
		if run_pair "$T" "$P-$T-json" --provider "$P" --json -- --provider "$P" -n 20 \
			--latency-gap 50 --json $s3; then
			lcheck "client+server JSON" json "$C_OUT" "$(sizes_list "$T" 1:4)" 20 "$S_OUT"
		fi

		section "[$P] $T --json --report-all -D 1 (report-all ignored)"
		if run_pair "$T" "$P-$T-djson" --provider "$P" --json -- --provider "$P" -D 1 \
			--latency-gap 50 --report-all --json; then
			lcheck "client+server JSON" json "$C_OUT" 8 + "$S_OUT"
			[ "$(json_get "$C_OUT" options.report_all)" = False ] && pass "options.report_all false with -D" \
				|| fail "options.report_all '$(json_get "$C_OUT" options.report_all)' with -D"
			[ "$(json_get "$C_OUT" 'summary.Results Reported')" = Summary ] \
				&& pass "summary Results Reported: Summary" || fail "summary Results Reported not Summary"
		fi
	done
}

# --------------------------------------- send_lat duration, latency gap
# sync PROV: send_lat -D 2 over two sizes: both sides exit 0 within a
# bound and report the same iteration count for every size.
lat_sync() {
	local P=$1
	section "[$P] cxi_send_lat -D 2 -s 8:16: both sides stop together"
	if run_pair cxi_send_lat "$P-sync" --provider "$P" --json -- --provider "$P" -D 2 \
		-s 8:16 --json; then
		awk -v t="$C_SECS" 'BEGIN { exit !(t >= 4 && t < 30) }' \
			&& pass "client ran ${C_SECS}s (2 sizes x 2 s, bound 30 s)" || fail "client ran ${C_SECS}s"
		awk -v t="$S_LAG" 'BEGIN { exit !(t < 5) }' \
			&& pass "server ended ${S_LAG}s after the client (bound 5 s)" \
			|| fail "server ended ${S_LAG}s after the client"
		lcheck "client+server JSON" json "$C_OUT" 8,16 + "$S_OUT"
	fi
	section "[$P] cxi_send_lat -D 1 --report-all (text): no listing"
	if run_pair cxi_send_lat "$P-dtext" --provider "$P" -- --provider "$P" -D 1 --report-all; then
		n=$(table_rows "$C_OUT" | awk '{ print $2 }')
		lcheck client client "$C_OUT" "${HDR[cxi_send_lat]}" 8 "${n:-0}" -
		lcheck server server "$S_OUT" 1
	fi
}

# gap TOOL PROV GAP: -n 50 --warmup 0 --latency-gap GAP; the client's
# measured gaps (JSON): none below GAP, the shortest within 5 % above it.
lat_gap() {
	local T=$1 P=$2 G=$3
	section "[$P] $T --latency-gap $G -n 50 --warmup 0"
	if run_pair "$T" "$P-$T-gap$G" --provider "$P" -- --provider "$P" -n 50 --warmup 0 \
		--latency-gap "$G" --json; then
		# 50 gaps of G us: a lower bound on the client's run time
		awk -v t="$C_SECS" -v g="$G" 'BEGIN { exit !(t >= 50 * g / 1e6) }' \
			&& pass "client ran ${C_SECS}s >= 50 x $G us" || fail "client ran ${C_SECS}s < 50 x $G us"
		# none below G, the shortest within 5 % above it
		py_check "gap check" "$C_OUT" lat_gap.py "$C_OUT" "$G"
	fi
}

timing() {
	local P
	for P in "${PROVIDERS[@]}"; do lat_sync "$P"; done
	lat_gap cxi_write_lat "${PROVIDERS[0]}" 2000
	lat_gap cxi_send_lat "${PROVIDERS[-1]}" 100
	lat_gap cxi_read_lat "${PROVIDERS[0]}" 500
}

# Parts run as separate copies of this script at the same time (most of
# their time is spent in -D runs and latency gaps): one per provider plus
# the timing part. LAT_FAMILY_PART=tcp|shm|timing runs one part alone.
if [ -n "${LAT_FAMILY_PART:-}" ]; then
	case $LAT_FAMILY_PART in
	timing) timing ;;
	*) lat_provider "$LAT_FAMILY_PART" ;;
	esac
	finish
fi
PARTS=("${PROVIDERS[@]}" timing)
PART_PIDS=()
for part in "${PARTS[@]}"; do
	start_bg "part-$part" env LAT_FAMILY_PART="$part" bash "$0" "$BUILD" "${PROVIDERS[@]}"
	PART_PIDS+=("$BG_PID:$BG_OUT:$BG_ERR")
done
collect_parts 240
note "whole script: $(elapsed_since "$T0") s"
finish

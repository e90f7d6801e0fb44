#!/usr/bin/env bash
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
[ ${#PROVIDERS[@]} -gt 0 ] || PROVIDERS=(tcp shm)
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

# The checker, one mode per use:
#   client FILE HEADER SIZES COUNT NOUN   text table; NOUN "-": no listing
#   server FILE NSIZES                    summary, "See client..." per size
#   json FILE SIZES COUNT SERVER_JSON     percentiles; COUNT "+": any > 0
cat >"$TMPD/lcheck.py" <<'PY'
import json, math, re, sys
mode, f = sys.argv[1:3]
lines = open(f).read().splitlines()
errs = []
ROW = re.compile(r"^\s*(\d+)\s+(\d+)" + r"\s+(\d+)\.(\d{2})" * 4 + r"\s*$")
IDX = re.compile(r"^\s*(\d+)\s+(\d+)\.(\d{3})$")

def us2(i, m):  # "%7lu.%02lu" fields -> integer hundredths of a us
    return int(m.group(i)) * 100 + int(m.group(i + 1))

def client(header, sizes, count, noun):
    sep = "-" * len(header)
    rows = [(i, m) for i, m in enumerate(map(ROW.match, lines)) if m]
    want = [int(s) for s in sizes.split(",")]
    if [int(m.group(1)) for _, m in rows] != want:
        errs.append(f"sizes {[m.group(1) for _, m in rows]}, want {want}")
    hdr_at = [i for i, l in enumerate(lines) if l == header]
    want_hdrs = len(want) if noun != "-" else 1
    if len(hdr_at) != want_hdrs:
        errs.append(f"header {header!r} {len(hdr_at)} times, want {want_hdrs}")
    if any(lines[i - 1] != sep for i in hdr_at):
        errs.append(f"a header without the {len(header)}-dash separator above it")
    if lines[-1] != sep:
        errs.append("last line is not the separator")
    idx_hdr = "%10s  %11s" % (noun, "Latency[us]")
    if noun == "-" and any("Latency[us]" in l for l in lines):
        errs.append("an index listing where none is wanted")
    for i, m in rows:
        size, n = int(m.group(1)), int(m.group(2))
        mn, mx, mean, sd = (us2(k, m) for k in (3, 5, 7, 9))
        if n != int(count):
            errs.append(f"size {size}: count {n}, want {count}")
        if not (mn <= mean <= mx):
            errs.append(f"size {size}: min {mn} mean {mean} max {mx} (1/100 us) out of order")
        if noun == "-":
            continue
        # the listing sits above the header: idx header, n rows, sep, header
        top = i - 1 - 1 - n - 1
        if top < 0 or lines[top] != idx_hdr:
            errs.append(f"size {size}: no {idx_hdr!r} line {n} rows above the result")
            continue
        lst = [IDX.match(l) for l in lines[top + 1:top + 1 + n]]
        if not all(lst) or [int(x.group(1)) for x in lst] != list(range(n)):
            errs.append(f"size {size}: listing rows not 0..{n - 1}")
            continue
        if lines[top + 1 + n] != sep:
            errs.append(f"size {size}: listing not closed by the separator")
        ns = [int(x.group(2)) * 1000 + int(x.group(3)) for x in lst]
        # the summary row, recomputed from the listing (ns exact, printed
        # truncated to 10 ns; stddev population, within 10 ns)
        mean_ns = sum(ns) // n
        var = sum(v * v for v in ns) / n - (sum(ns) / n) ** 2
        got = (mn, mx, mean)
        want3 = (min(ns) // 10, max(ns) // 10, mean_ns // 10)
        if got != want3:
            errs.append(f"size {size}: min/max/mean {got} vs listing {want3}")
        if abs(sd - math.sqrt(max(var, 0)) / 10) > 1.01:
            errs.append(f"size {size}: stddev {sd} vs listing {math.sqrt(max(var, 0)) / 10:.2f}")
    return f"{len(rows)} rows, count {count}, min<=mean<=max" + (
        f", {noun} listing of {count} rows matches the summary row" if noun != "-" else "")

def server(nsizes):
    see = [i for i, l in enumerate(lines) if l == "See client for results."]
    if len(see) != int(nsizes):
        errs.append(f"'See client for results.' {len(see)} times, want {nsizes}")
    if any(not re.fullmatch(r"-{40,}", lines[i - 1]) for i in see):
        errs.append("a 'See client' line without a separator above it")
    if any(ROW.match(l) for l in lines) or any("Min[us]" in l for l in lines):
        errs.append("the server prints a table")
    if not any(re.match(r"^Test Type +: ", l) for l in lines):
        errs.append("no summary block")
    return f"summary, {len(see)} x 'See client for results.', no table"

def jcheck(sizes, count, sjson):
    d = json.load(open(f))
    res = d.get("results") or []
    want = [int(s) for s in sizes.split(",")]
    if [r.get("size") for r in res] != want:
        errs.append(f"sizes {[r.get('size') for r in res]}, want {want}")
    keys = ("count", "min_us", "max_us", "mean_us", "stddev_us", "p50_us",
            "p90_us", "p99_us", "p999_us")
    for r in res:
        miss = [k for k in keys if not isinstance(r.get(k), (int, float))]
        if miss:
            errs.append(f"size {r.get('size')}: keys {miss} missing")
            continue
        if count == "+" and r["count"] <= 0 or count != "+" and r["count"] != int(count):
            errs.append(f"size {r['size']}: count {r['count']}, want {count}")
        chain = [r[k] for k in ("min_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us")]
        if chain != sorted(chain) or not chain[0] > 0:
            errs.append(f"size {r['size']}: min<=p50<=p90<=p99<=p99.9<=max broken: {chain}")
        if not r["min_us"] <= r["mean_us"] <= r["max_us"]:
            errs.append(f"size {r['size']}: mean {r['mean_us']} outside min..max")
        if d["options"].get("report_all") != ("latencies_us" in r):
            errs.append(f"size {r['size']}: latencies_us present = {'latencies_us' in r}, report_all {d['options'].get('report_all')}")
    if sjson:
        s = json.load(open(sjson))
        srs = s.get("results") or []
        if [r.get("size") for r in srs] != want or not all(r.get("see_client") for r in srs):
            errs.append(f"server results {srs}")
        # the send_lat responder counts the iterations it answered
        if d["tool"] == "cxi_send_lat":
            sc = [r.get("count") for r in srs]
            cc = [r.get("count") for r in res]
            if sc != cc:
                errs.append(f"server counts {sc} != client counts {cc}")
        elif any("count" in r for r in srs):
            errs.append("a passive server reports a count")
    return f"{len(res)} results, p50<=p90<=p99<=p999 within min..max, count {count}" + (
        ", server's counts = client's" if sjson and d["tool"] == "cxi_send_lat" else "")

try:
    if mode == "client":
        msg = client(*sys.argv[3:7])
    elif mode == "server":
        msg = server(sys.argv[3])
    else:
        msg = jcheck(*sys.argv[3:6])
except (ValueError, KeyError, TypeError, IndexError) as e:
    errs.append(repr(e))
if errs:
    sys.exit("; ".join(errs[:5]))
print(msg)
PY

# lcheck WHO MODE ARGS...
lcheck() {
	local who=$1; shift
	if python3 "$TMPD/lcheck.py" "$@" >"$TMPD/lc" 2>&1; then
		pass "$who: $(cat "$TMPD/lc")"
	else
		fail "$who: $(tail -1 "$TMPD/lc")"
		show "$2"
	fi
}

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
		if python3 - "$C_OUT" "$G" >"$TMPD/gc" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
g = float(sys.argv[2])
r = d["results"][0]
if d["options"]["latency_gap_us"] != int(g) or r["count"] != 50:
    sys.exit(f"options.latency_gap_us {d['options']['latency_gap_us']}, count {r['count']}")
lo, med, mean = r["gap_min_us"], r["gap_p50_us"], r["gap_mean_us"]
# Every gap at least the request; the wait itself adds under 5 % (the
# shortest gap: a busy CPU can stretch others, which is not the tool's).
if lo < g:
    sys.exit(f"gap_min_us {lo} < requested {g}")
if lo > 1.05 * g:
    sys.exit(f"gap_min_us {lo} > requested {g} + 5 %")
if not lo <= med <= r["gap_max_us"] or not lo <= mean <= r["gap_max_us"]:
    sys.exit(f"gap figures out of order: {r}")
print(f"gaps kept: min {lo} us (median {med}, mean {mean}) for {g:g} us requested")
PY
			pass "$(cat "$TMPD/gc")"
		else
			fail "gap check: $(tail -1 "$TMPD/gc")"
			show "$C_OUT"
		fi
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

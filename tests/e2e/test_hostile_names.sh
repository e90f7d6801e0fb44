#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (documents and pages only: no run, no timing)
# Every name is hostile (issue 51; docs/security.md): the table of hostile
# names (tests/hostile_names.txt) as host, NIC, address, switch and group
# names of sweep documents, through cxi_archive and cxi_plot:
#   1. the names it can carry: ingested, and every query's text (as they
#      are, no control byte) and --json (whole) names them; a baseline
#      made of them; cxi_plot draws them (a '$' is no TeX, the SVG has no
#      script);
#   2. the names it cannot (control characters, line separators,
#      bidirectional controls, not UTF-8, lone surrogates, empty, over
#      their field) and broken documents (nested 200,000 deep, over
#      --max-mb, cut short, NaN, a 5000-digit number, wrong types): exit
#      2, each file named with its reason, the name shown escaped, nothing
#      written to the archive, no report page;
#   3. the report of the carried names (under a hostile file name) opened
#      in headless chromium: its own title, the same elements as the page
#      of the same document with plain names, its two scripts (the data
#      block and its own), no handler attribute, the heatmaps drawn and
#      the pointer's read-out naming each rank; no Content-Security-Policy
#      violation logged, while a tampered copy's script and style are
#      blocked and logged.
# The C writers (--csv, --metrics, --suspects, the text, --json) and the
# readers of --topology and --baseline: tests/unit/test_out_hostile.c and
# test_names.c; a real sweep: test_hostile_sweep.sh. About 10 s.
# Skipped (77) without numpy and matplotlib; chromium's part without it.
#   bash tests/e2e/test_hostile_names.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
ARC=("$PY" "$SRC/tools/cxi_archive.py")
[ -x "$PY" ] || skip "no $PY (Debian's python3)"
"$PY" -c 'import numpy, matplotlib' 2>/dev/null ||
	skip "numpy or matplotlib missing: apt-get install python3-matplotlib"
D=$TMPD/docs
DB=$TMPD/site.db
# q NAME ARGS...: cxi_archive ARGS on the test's archive (60 s bound).
q() { local n=$1; shift; run_capture "$n" 60 "${ARC[@]}" "$@" -a "$DB"; }
runs_in() { "$PY" -c 'import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM runs").fetchone()[0])' "$DB"; }
check "the documents of the table" "$PY" "$E2E_PY/hostile_docs.py" make "$D"

section "the names cxi_archive carries"
q ing ingest "$D/carry1.json" "$D/carry2.json" "$D"/pass[123].json
expect_rc 0 "$RC" "five sweeps of hostile names ingested"
q runs runs --json
py_check "runs --json" "$OUT" hostile_docs.py runs "$OUT" "$D"
for c in runs "compare 1 2" "intermittent --min 2" "drift --last 3 --tolerance 3"; do
	# shellcheck disable=SC2086
	q "${c%% *}" $c
	expect_rc 0 "$RC" "$c (text)"
	py_check "$c: the text" "$OUT" hostile_docs.py text "$OUT" "$D"
done
q cmpj compare 1 2 --json
py_check "compare --json" "$OUT" hostile_docs.py compare "$OUT" "$D"
TEX=$("$PY" -c 'import json,sys; print([r["host"] for r in json.load(open(sys.argv[1]))["ranks"] if r["host"].startswith("$")][0])' "$D/carry1.json")
q trend trend --host "$TEX" --plot "$TMPD/trend.png"
expect_rc 0 "$RC" "trend of host '$TEX' with its picture (no TeX)"
py_check "trend: the text" "$OUT" hostile_docs.py text "$OUT" "$D"
check "the trend's picture is a PNG" "$PY" "$E2E_PY/png_ok.py" "$TMPD/trend.png" 10 600 300
q base baseline --last 3 -o "$TMPD/base.json"
expect_rc 0 "$RC" "a baseline of the three passing"
check "the baseline's ranks are the document's, names whole" "$PY" -c '
import json, sys
a, b = (json.load(open(p))["ranks"] for p in sys.argv[1:])
sys.exit(0 if [(r["host"], r["nic"], r["switch"], r["group"]) for r in a] ==
         [(r["host"], r["nic"], r["switch"], r["group"]) for r in b] else 1)' \
	"$TMPD/base.json" "$D/carry1.json"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["suspects"]=d["suspects"][:1]
json.dump(d, open(sys.argv[2], "w"))' "$D/carry1.json" "$TMPD/plot.json"
run_capture plot 60 "$PY" "$SRC/tools/cxi_plot.py" "$TMPD/plot.json" -o "$TMPD/plot.svg"
expect_rc 0 "$RC" "cxi_plot draws the names (SVG)"
check "the SVG parses, no script in it" "$PY" -c '
import sys, xml.etree.ElementTree as E
sys.exit(any(e.tag.endswith("script") for e in E.parse(sys.argv[1]).iter()))' "$TMPD/plot.svg"

section "the names it refuses, and broken documents"
before=$(runs_in)
q bad ingest --max-mb 1 "$D"/refused/*.json "$D"/bad/*.json
expect_rc 2 "$RC" "$(ls "$D"/refused/*.json "$D"/bad/*.json | wc -l) documents refused"
py_check "each named with its reason, shown escaped" "$ERR" hostile_docs.py refused "$ERR" "$D"
check "the archive still holds $before runs" test "$(runs_in)" = "$before"
check "nothing archived was printed" test ! -s "$OUT"
run_capture badrep 60 "${ARC[@]}" report "$D/refused/esc-host.json" -o "$TMPD/no.html"
check "report of a refused document: exit 2, no page ($RC)" \
	test "$RC" = 2 -a ! -e "$TMPD/no.html"
# a refused document is not valid against docs/schema either: gone
# before finish validates what the test kept
rm -rf "$D/refused" "$D/bad"

section "the report of hostile names, in headless chromium"
PAGEDOC=$TMPD/'x"><img src=x onerror=document.title=7>.json'
cp "$D/carry1.json" "$PAGEDOC"
q rep report "$PAGEDOC" -o "$TMPD/page.html"
expect_rc 0 "$RC" "the report"
q rep2 report "$D/clean.json" -o "$TMPD/clean.html"
check "its Content-Security-Policy: no network, the script and style by hash" \
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]*'; style-src 'sha256-[A-Za-z0-9+/=]*'; img-src data:;" "$TMPD/page.html"
check "no '</script' or '<!--' inside its data block" "$PY" -c '
import sys; t = open(sys.argv[1], encoding="utf-8").read()
a = t.index("<script type=\"application/json\"")
d = t[t.index(">", a) + 1:t.index("</script>", a)]
sys.exit("<" in d or ">" in d or "&" in d)' "$TMPD/page.html"
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	skip_part "chromium not found (apt-get install chromium)"
else
	# chromium runs as root only without its sandbox; its profile in
	# TMPD; its console (CSP violations) on stderr
	CH=("$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars
	    --user-data-dir="$TMPD/chrome" --window-size=1200,1400
	    --allow-file-access-from-files --enable-logging=stderr --v=0
	    --virtual-time-budget=20000)
	cp "$E2E_PY/report_probe.html" "$TMPD/probe.html"
	run_capture dom 90 "${CH[@]}" --dump-dom "file://$TMPD/probe.html?page=page.html"
	cp "$OUT" "$TMPD/dom.out"
	check "no Content-Security-Policy violation logged" \
		bash -c "! grep -i 'Content.Security.Policy' '$ERR'"
	run_capture domc 90 "${CH[@]}" --dump-dom "file://$TMPD/probe.html?page=clean.html"
	py_check "the page is its own" "$TMPD/dom.out" hostile_docs.py dom \
		"$TMPD/dom.out" "$OUT" "cxi_sweep $(basename "$PAGEDOC"): FAIL" "$D"
	check "a tampered copy" "$PY" "$E2E_PY/hostile_docs.py" tamper \
		"$TMPD/page.html" "$TMPD/tampered.html"
	run_capture tam 90 "${CH[@]}" --dump-dom "file://$TMPD/tampered.html"
	check "its inserted script did not run (the title is the page's)" \
		grep -q "<title>cxi_sweep x\"&gt;&lt;img src=x" "$OUT"
	check "its script and style blocked and logged" test \
		"$(grep -ci 'violates the following Content Security Policy' "$ERR")" -ge 2
fi

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared (simulated time: its figures do not depend on the load)
# cxi_archive on a real SQLite file, fed with real documents: a pair
# tool's --json (the normal build) and simulated 16-rank sweeps (make sim:
# build-sim/, or CXD_SIM_DIR), a rank slowed in some of them:
#   1. ingest, once per document; the runs, newest first;
#   2. concurrent writers: 8 ingests at once, the same document 8 times at
#      once, ingests while queries run: nothing lost, nothing twice, the
#      file's integrity_check ok;
#   3. compare, trend (with its picture), intermittent, drift, baseline
#      (the median per link; cxi_sweep --baseline takes it);
#   4. bad input: exit 2 and a message naming it, the archive untouched;
#   5. the HTML report opened in headless chromium: its DOM holds the
#      verdict and the suspect, the heatmaps show the document's figures
#      under the pointer; a screenshot (KEEP_TMP=1 keeps it);
#   6. the pages of cxi_archive and cxi_plot pass mandoc's linter;
#   7. cxi_node_health's saved output (PASS from the real tool, FAIL from
#      the test copy on a stand-in root) archived as runs with each NIC's
#      state; a cut or edited one refused.
# About 30 s. Skipped (77) without SimGrid or the simulated build.
#   bash tests/e2e/test_archive.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${CXD_SIM_DIR:-$SRC/build-sim}
PY=/usr/bin/python3
ARC=("$PY" "$SRC/tools/cxi_archive.py")
[ -x "$PY" ] || skip "no $PY (Debian's python3)"
"$PY" -c 'import numpy, matplotlib' 2>/dev/null ||
	skip "numpy or matplotlib missing: apt-get install python3-matplotlib"
command -v smpirun >/dev/null || skip "smpirun not found (scripts/deps.sh installs libsimgrid-dev)"
[ -x "$SIM/cxi_sweep" ] || skip "$SIM/cxi_sweep not built (make sim)"
tool_exists cxi_write_bw || skip "cxi_write_bw not built"
DB=$TMPD/site.db
# q NAME ARGS...: cxi_archive ARGS on the test's archive (60 s bound).
q() { local n=$1; shift; run_capture "$n" 60 "${ARC[@]}" "$@" -a "$DB"; }
# db_count SQL: one number from the archive, by Python's sqlite3.
db_count() { "$PY" -c 'import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$DB" "$1"; }

# sweep NAME [SLOW]: a simulated 16-rank sweep, SLOW a platgen --slow.
sweep() {
	local p=$TMPD/p_$1
	"$PY" "$SRC/sim/platgen.py" dragonfly --groups 2 --switches 2 --hosts 4 \
		${2:+--slow "$2"} -o "$p" >/dev/null || die "platgen.py failed"
	run_capture "sw_$1" 120 smpirun -np 16 -platform "$p.xml" -hostfile \
		"$p.hosts" --cfg=smpi/test:0 --cfg=smpi/grow-injected-times:no \
		--cfg=smpi/host-speed:1Gf "$SIM/cxi_sweep" --engine mpi --repeat 3 \
		--lat-iters 8 --topology "$p.topo" --json "$TMPD/$1.json" "${@:3}"
	[ -s "$TMPD/$1.json" ] || { show "$ERR"; die "sweep $1 wrote no JSON"; }
}

section "documents from real runs"
run_capture pair 60 "$BUILD/cxi_write_bw" --local --json -s 1:4096 -n 20
expect_rc 0 "$RC" "cxi_write_bw --local --json"
cp "$OUT" "$TMPD/pair.json"
sweep s1
sweep s2 node:nid0005=0.7
sweep s3
sweep s4 node:nid0005=0.7
for i in 5 6 7 8; do # nid0010 loses a little each week, every run passes
	sweep "s$i" "node:nid0010=$(echo "1.02 - 0.025 * ($i - 4)" | bc)"
done
check "s2 failed" test "$(json_get "$TMPD/s2.json" verdict)" = FAIL
check "s8 passed though nid0010 is at 0.92" test "$(json_get "$TMPD/s8.json" verdict)" = PASS

section "ingest and runs"
q ing1 ingest "$TMPD/pair.json" "$TMPD"/s[1-8].json
expect_rc 0 "$RC" "9 documents ingested"
check "9 runs, 8 of 16 ranks" test "$(db_count 'SELECT count(*) FROM runs')" = 9 \
	-a "$(db_count 'SELECT count(*) FROM ranks')" = 128
check "every link of every sweep kept (8 x 16 rows)" \
	test "$(db_count 'SELECT count(*) FROM links')" = 128
q ing2 ingest "$TMPD/s2.json"
check "a document already archived is not archived twice" \
	grep -q "already archived as run" "$OUT"
cp "$TMPD/s2.json" "$TMPD/s2-copy.json"
"$PY" -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=4)' \
	"$TMPD/s2.json" "$TMPD/s2-spaced.json"
q ing3 ingest "$TMPD/s2-copy.json" "$TMPD/s2-spaced.json"
check "nor its copy, nor the same run spaced otherwise" \
	test "$(grep -c 'already archived' "$OUT")" = 2 -a "$(db_count 'SELECT count(*) FROM runs')" = 9
q runs runs --json
py_check "runs: newest first, s2 and s4 FAIL naming nid0005" "$OUT" archive_check.py runs "$OUT"

section "concurrent writers"
for i in 1 2 3 4 5 6 7 8; do
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["start_time"]="2026-0%s-01T00:00:00Z" % sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))' "$TMPD/s1.json" "$TMPD/c$i.json" "$i"
done
DB0=$DB DB=$TMPD/conc.db
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"${ARC[@]}" ingest -a "$DB" "$TMPD/c$i.json" >"$TMPD/c$i.out" 2>&1 & pids+=($!)
done
ok=0; for p in "${pids[@]}"; do wait "$p" && ok=$((ok + 1)); done
check "8 ingests at once into a new archive: all 8 exit 0 ($ok)" test "$ok" = 8
check "8 runs, 8 x 16 link rows" test "$(db_count 'SELECT count(*) FROM runs')" = 8 \
	-a "$(db_count 'SELECT count(*) FROM links')" = 128
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"${ARC[@]}" ingest -a "$DB" "$TMPD/s3.json" >"$TMPD/d$i.out" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
check "the same document 8 times at once: archived once, 7 told so" \
	test "$(cat "$TMPD"/d?.out | grep -c 'already archived')" = 7 -a \
	"$(db_count 'SELECT count(*) FROM runs')" = 9
( for i in 1 2 3 4 5 6; do "${ARC[@]}" runs -a "$DB" --json >/dev/null &&
	"${ARC[@]}" compare -a "$DB" >/dev/null || exit 1; done ) & qpid=$!
"${ARC[@]}" ingest -a "$DB" "$TMPD"/s[4-8].json >"$TMPD/e.out" 2>&1; erc=$?
wait "$qpid"; qrc=$?
check "ingests during queries: both exit 0 ($erc, $qrc), 14 runs" \
	test "$erc" = 0 -a "$qrc" = 0 -a "$(db_count 'SELECT count(*) FROM runs')" = 14
check "integrity_check ok" test "$(db_count 'PRAGMA integrity_check')" = ok
DB=$DB0

section "questions"
q cmp compare --json
py_check "compare s8 with s7: nid0010's links moved no more than 10 %" "$OUT" \
	archive_check.py compare_quiet "$OUT"
q cmp2 compare 2 3 --json
py_check "compare s2 with s3: nid0005 and its 30 links moved" "$OUT" \
	archive_check.py compare "$OUT"
q trend trend --host nid0005 --plot "$TMPD/trend.png" --json
py_check "trend of nid0005: 8 sweeps and the pair run not its host" "$OUT" \
	archive_check.py trend "$OUT"
check "the trend's picture is a PNG" "$PY" "$E2E_PY/png_ok.py" "$TMPD/trend.png" 10 600 300
q link trend --link nid0000 nid0005 --json
check "a link's trend has 8 points" test "$(json_get "$OUT" points.7.run)" != ""
q inter intermittent --last 8 --min 2 --json
py_check "intermittent: nid0005 in 2 of 8, not every run" "$OUT" archive_check.py intermittent "$OUT"
q drift drift --last 4 --tolerance 3 --json
py_check "drift over 4 passing runs, 3 %: nid0010, no other node" "$OUT" archive_check.py drift "$OUT"
q drift10 drift --last 4 --json
check "drift at the runs' own 10 %: none" test "$(json_get "$OUT" nodes)" = "[]"
q base baseline --last 3 -o "$TMPD/base.json"
expect_rc 0 "$RC" "baseline of the last 3 passing sweeps"
py_check "baseline: per-link median of s6-s8" "$TMPD/base.json" archive_check.py \
	baseline "$TMPD/base.json" "$TMPD/s6.json" "$TMPD/s7.json" "$TMPD/s8.json"
sweep sb "" --baseline "$TMPD/base.json"
check "cxi_sweep --baseline reads it (rc $RC)" grep -q "baseline" "$OUT"

section "the report, opened in headless chromium"
CHROME=$(command -v chromium || command -v chromium-browser || true)
q rep report "$TMPD/s4.json" -o "$TMPD/s4.html"
expect_rc 0 "$RC" "report of s4 (FAIL, nid0005)"
check "no address outside the file (src/href to http or //)" \
	bash -c "! grep -Eq '(src|href)=\"?(https?:)?//' '$TMPD/s4.html'"
if [ -z "$CHROME" ]; then
	skip_part "chromium not found (scripts/deps.sh installs it)"
else
	# chromium runs as root only without its sandbox; its profile in TMPD
	CH=("$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars
	    --user-data-dir="$TMPD/chrome" --window-size=1200,1400)
	# The page in a frame of a probe page that, once the heatmaps are
	# drawn, points at cells (mouse events) and writes down the page's DOM
	# and the figures shown; virtual time lets the async drawing finish.
	cat >"$TMPD/probe.html" <<-'EOF'
	<!DOCTYPE html><html><body><iframe id=f src="s4.html" width=1200 height=1400></iframe>
	<pre id=out></pre><script>
	const f=document.getElementById('f');
	f.onload=function(){const w=f.contentWindow,d=w.document,t=setInterval(function(){
	if(!d.body.dataset.ready)return;clearInterval(t);const tips=[];
	d.querySelectorAll('.hm').forEach(function(h){const c=h.querySelector('canvas'),
	r=c.getBoundingClientRect(),n=c.width;
	for(const [i,j] of [[0,1],[0,n-1],[5,3],[n-1,0],[3,5],[9,5]]){
	h.dispatchEvent(new w.MouseEvent('mousemove',{clientX:r.left+(j+.5)*r.width/n,
	clientY:r.top+(i+.5)*r.height/n}));tips.push(d.getElementById('tip').textContent)}});
	document.getElementById('out').textContent=JSON.stringify({tips:tips,
	dom:d.documentElement.outerHTML})},50)};
	</script></body></html>
	EOF
	run_capture dom 60 "${CH[@]}" --allow-file-access-from-files \
		--virtual-time-budget=20000 --dump-dom "file://$TMPD/probe.html"
	py_check "DOM: the verdict first, the suspect, the archive's memory, the JS ran" \
		"$OUT" archive_check.py dom "$OUT"
	py_check "under the pointer: the document's figures (5 digits)" \
		"$OUT" archive_check.py tips "$OUT" "$TMPD/s4.json"
	run_capture shot 60 "${CH[@]}" --virtual-time-budget=20000 \
		--screenshot="$TMPD/s4.png" "file://$TMPD/s4.html"
	check "a screenshot of it (PNG >= 1200x1400)" "$PY" "$E2E_PY/png_ok.py" \
		"$TMPD/s4.png" 20 1200 1400
fi

section "the pages"
if command -v mandoc >/dev/null; then
	for m in cxi_archive cxi_plot; do
		check "man/$m.1: mandoc -T lint -W warning prints nothing" \
			test -z "$(mandoc -T lint -W warning "$SRC/man/$m.1" 2>&1)"
	done
else
	skip_part "mandoc not found (scripts/deps.sh installs it)"
fi

section "bad input: exit 2, the value named, the archive untouched"
bad() { # NAME WANT ARGS...
	local n=$1 want=$2; shift 2
	run_capture "$n" 60 "${ARC[@]}" "$@"
	if [ "$RC" -eq 2 ] && grep -qF -- "$want" "$ERR"; then
		pass "$n: exit 2, '$want'"
	else fail "$n: rc $RC, want 2 and '$want'"; show "$ERR"; fi
}
head -c 3000 "$TMPD/s1.json" >"$TMPD/cut.doc"
echo '{"name": "not ours"}' >"$TMPD/other.doc"
echo 'hello' >"$TMPD/text.doc"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["schema_version"]=7; json.dump(d,open(sys.argv[2],"w"))' \
	"$TMPD/s1.json" "$TMPD/new.doc"
echo "not a database, just text" >"$TMPD/notdb.db"
"$PY" -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("CREATE TABLE t (x)")' "$TMPD/other.db"
before=$(db_count 'SELECT count(*) FROM runs')
bad cut "cut.doc is truncated" ingest -a "$DB" "$TMPD/cut.doc"
bad notours "other.doc is not one of our documents" ingest -a "$DB" "$TMPD/other.doc"
bad text "text.doc is not JSON (line 1, column 1" ingest -a "$DB" "$TMPD/text.doc"
bad newer "new.doc: sweep schema_version 7 is newer than this archive knows (1)" \
	ingest -a "$DB" "$TMPD/new.doc"
bad notdb "notdb.db' is not a cxd archive" runs -a "$TMPD/notdb.db"
bad otherdb "other.db' is not a cxd archive" ingest -a "$TMPD/other.db" "$TMPD/s1.json"
rm -f "$TMPD/new.doc" # at the end, the test checks every document it kept
bad nodb "no archive at" runs -a "$TMPD/none.db"
bad norun "no run 99 in the archive" compare -a "$DB" 2 99
bad pairrun "run 1 is a pair run, not a sweep" compare -a "$DB" 1 2
bad last "'0' is not a whole number >= 1" runs -a "$DB" --last 0
check "the archive still holds $before runs" test "$(db_count 'SELECT count(*) FROM runs')" = "$before"

section "node health: cxi_node_health's saved output, a run each"
# Its own archive: the runs above stay as the checks above count them.
# PASS from the real tool (-d lo: on every host); FAIL from the test
# build's copy on a stand-in root, as test_node_health.sh makes one.
DB=$TMPD/health.db
R=$TMPD/root
for n in 0 1; do # cxi1 trains at PCIe x8 of x16
	d=$R/sys/class/cxi/cxi$n/device
	mkdir -p "$d/port/0/link" "$d/telemetry" "$R/sys/class/net" "$R/proc/net"
	echo up >"$d/port/0/link/state"; echo BS_200G >"$d/port/0/link/speed"
	echo $((16 >> n)) >"$d/current_link_width"; echo 16 >"$d/max_link_width"
	echo "16.0 GT/s PCIe" | tee "$d/current_link_speed" >"$d/max_link_speed"
	echo "0@1.0" >"$d/telemetry/hni_pcs_uncorrected_cw"
done
# both at once: each waits its 1 s interval
timeout 30 "$BUILD/cxi_node_health" -d lo --interval 1 >"$TMPD/h_pass.txt" 2>&1 & hp=$!
[ ! -x "$BUILD/standin/cxi_node_health" ] || timeout 30 env CXD_TEST_SYSROOT="$R" \
	"$BUILD/standin/cxi_node_health" --interval 1 >"$TMPD/h_fail.txt" 2>&1; hrc=$?
wait "$hp"; expect_rc 0 "$?" "cxi_node_health -d lo"
if [ -x "$BUILD/standin/cxi_node_health" ]; then
	expect_rc 3 "$hrc" "cxi_node_health on the stand-in root"
	touch -d '2001-01-01 00:00:00 UTC' "$TMPD/h_pass.txt" # the older run
	q hing ingest --host nid0001 "$TMPD/h_pass.txt" "$TMPD/h_fail.txt" "$TMPD/h_pass.txt"
	expect_rc 0 "$RC" "both outputs ingested"
	check "an output already archived is not archived twice" grep -q "h_pass.txt: already archived as run 1" "$OUT"
	q hruns runs --json
	py_check "runs: the health runs, each NIC's state" "$OUT" archive_check.py health "$OUT"
	check "their start: the file's time" test "$(json_get "$OUT" 1.start_time)" = 2001-01-01T00:00:00Z
	q hrunt runs
	expect_line "$OUT" 'cxi0 ok, cxi1 DEGRADED \(PCIe x8 of x16\)$' "runs (text): each NIC's state"
	check "the nics table: 3 rows" test "$(db_count 'SELECT count(*) FROM nics')" = 3
	head -c -9 "$TMPD/h_fail.txt" >"$TMPD/hcut.txt"
	head -n 3 "$TMPD/h_fail.txt" >"$TMPD/htable.txt"
	sed 's/1 of 2 NICs/1 of 3 NICs/' "$TMPD/h_fail.txt" >"$TMPD/hedit.txt"
	q hbad ingest "$TMPD/hcut.txt" "$TMPD/htable.txt" "$TMPD/hedit.txt"
	expect_rc 2 "$RC" "three bad outputs"
	for want in "hcut.txt is truncated: cxi_node_health's output ends with a newline" \
		"htable.txt is truncated: its table (2 NICs) is not followed" \
		"hedit.txt: the FAIL line says 1 of 3 NICs"; do
		check "named: '$want'" grep -qF "$want" "$ERR"
	done
	check "the health archive still holds 2 runs" test "$(db_count 'SELECT count(*) FROM runs')" = 2
else
	skip_part "$BUILD/standin/cxi_node_health not built (a test build's copy)"
fi

finish

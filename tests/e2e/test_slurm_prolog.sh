#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (the prolog's sweeps under a private Slurm: verdicts, drains, bounds)
# contrib/slurm/cxd-prolog as the PrologSlurmctld (and EpilogSlurmctld) of
# the private one-node Slurm of slurm_lib.sh, real jobs given by sbatch; the
# sweep launched by the prolog's default launcher (mpirun --host), 5 ranks
# on the node. One line per run in the prolog's log (CXD_PROLOG_LOG):
#   1. healthy (5 network namespaces on a bridge, every link shaped to
#      80 Mbit/s, as test_sweep_slurm.sh's): the job runs; one prolog line, PASS (on this
#      busy host INCONCLUSIVE is possible: then no drain), and the epilog's
#      line (CXD_EPILOG_CHECK=1); the run in the archive (cxi_archive);
#   2. a slow rank (rank 2's link then shaped to a quarter): FAIL, cxdnode1
#      drained with the sweep's reason, named in the line, the job still
#      run; or INCONCLUSIVE (too busy to confirm): no drain, the job run;
#      then, when the first job confirmed it, with CXD_PROLOG_REQUEUE=1
#      the same FAIL requeues the job (PENDING, not run), or an
#      INCONCLUSIVE runs it;
#   3. a launcher that hangs, CXD_PROLOG_LIMIT=5: the job runs within the
#      limit and a few seconds, the line says out of time, the launcher is
#      gone, no drain; a limit that is not a number: named, the job runs.
# Skipped (77) without root, Slurm, munge, mpirun or cxi_sweep. 50-70 s
# on 2 loaded cores; not in the lf2 and asan tiers: it tests the scheduler's
# side, not the library.
#   bash tests/e2e/test_slurm_prolog.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/slurm_lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
slurm_need
command -v sbatch >/dev/null || skip "sbatch not found"
sweep_setup
LOG=$TMPD/prolog.log
DB=$TMPD/site.db
CONF=$TMPD/prolog.conf
: >"$LOG"
# Slurm gives the prolog no environment of the test's: a wrapper, as a site
# would write one, names the configuration and this Slurm's slurm.conf.
cat >"$TMPD/cxd-prolog" <<EOF
#!/bin/sh
export CXD_PROLOG_CONF='$CONF' SLURM_CONF='$CXD_SLURM_DIR/slurm.conf' PATH='$PATH'
exec '$SRC/contrib/slurm/cxd-prolog'
EOF
chmod 755 "$TMPD/cxd-prolog"
# conf LINES...: the prolog's configuration for the next job (read at
# each run): what every job shares, then LINES.
conf() {
	{
		printf '%s\n' "CXD_PROLOG_LOG='$LOG'" "CXD_PROLOG_ARCHIVE='$DB'" \
			"CXD_PROLOG_ARCHIVER='$PY $SRC/tools/cxi_archive.py'" \
			"CXD_PROLOG_RANKS_PER_NODE=5" "CXD_PROLOG_TMP='$TMPD'" \
			"CXD_PROLOG_LAUNCH_OPTS='--oversubscribe --mca btl self,vader --mca mpi_yield_when_idle 1'" \
			"export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
		printf '%s\n' "$@"
	} >"$CONF"
}
CXD_SLURM_NODE=cxdnode1
CXD_SLURM_EXTRA="PrologSlurmctld=$TMPD/cxd-prolog
EpilogSlurmctld=$TMPD/cxd-prolog"
slurm_start 16

# job NAME: an sbatch job; JOB its id, JOB_T0 when it was submitted.
job() {
	JOB_T0=$(now)
	JOB=$(timeout -k 1 10 sbatch --parsable -J "$1" -o "$TMPD/job-%j.out" \
		--wrap 'echo "ran on $SLURMD_NODENAME"') || die "sbatch $1 failed"
	JOB=${JOB%%;*}
}
ran() { grep -q "^ran on cxdnode1" "$TMPD/job-$JOB.out" 2>/dev/null; }
# lines HOOK: the log's lines of HOOK for this job.
lines() { grep -E "^cxd-$1: job $JOB nodes " "$LOG"; }
logged() { [ -n "$(lines "$1")" ]; }
line() { lines "$1" | head -1; }
reason() { sinfo -R -h -n cxdnode1 -o '%E' 2>/dev/null; }
drained() { [[ "$(sinfo -h -n cxdnode1 -o %t 2>/dev/null)" == drain* ]]; }
one_line() {
	check "$1: one line ($(lines "$1" | wc -l))" test "$(lines "$1" | wc -l)" = 1
	note "$(line "$1")"
}

# The fabric: 5 ranks (so that the slow rank's links are fewer than the
# others' and the typical link is a healthy one), each in its own network namespace on one bridge, every
# link shaped to 80 Mbit/s (sweep_lib.sh's shaped_fabric), the test copy of
# the sweep entering them (CXD_TEST_NETNS). --min-bw 60 --max-lat 1000: the
# tolerance set, as a site may (test_sweep_slurm.sh: the noise of 4 ranks on
# 2 loaded cores would otherwise widen the run's own past judging), latency,
# which a busy host inflates, aside. Without the fabric: tcp over lo.
P=cxp$$
SWEEP_OPTS="-s 32768 -n 8 -l 1 --lat-iters 20 --repeat 2 --min-bw 60 --max-lat 1000"
if shaped_fabric "$P" 5 -1; then
	FAB=("CXD_PROLOG_SWEEP='$TBIN'" "export CXD_TEST_NETNS=${P}n"
		"CXD_PROLOG_SWEEP_OPTS='--provider tcp -d swp0 $SWEEP_OPTS'")
else
	[ -z "$FABRIC_FAIL" ] || fail "$FABRIC_FAIL"
	FAB=("CXD_PROLOG_SWEEP='$BIN'"
		"CXD_PROLOG_SWEEP_OPTS='--provider tcp -d lo $SWEEP_OPTS'")
fi

section "a healthy fabric: PASS, the job runs, the epilog checks too"
conf "CXD_PROLOG_LIMIT=40" "${FAB[@]}" "CXD_EPILOG_CHECK=1"
job healthy
slurm_wait 60 ran
check "the job ran, $(elapsed_since "$JOB_T0") s after sbatch" ran
slurm_wait 60 logged epilog
one_line prolog
case $(line prolog) in
*" PASS in "*" s of 21.3 s budget; archived")
	pass "PASS, the budget from the limit (40 s: 32 s for the run, 2/3)" ;;
*" INCONCLUSIVE: Verdict: INCONCLUSIVE"*)
	note "INCONCLUSIVE on this busy host" ;;
*) fail "a healthy fabric: '$(line prolog)'" ;;
esac
check "no drain" test -z "$(reason)"
one_line epilog
check "the epilog's line: a verdict" eval \
	'[[ "$(line epilog)" =~ \ (PASS\ in|INCONCLUSIVE:\ Verdict) ]]'

section "the archive has the runs"
run_capture runs 60 "$PY" "$SRC/tools/cxi_archive.py" runs --json -a "$DB"
n=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"] if isinstance(d, dict) else d
print(sum(1 for r in runs if r.get("kind") == "sweep"))' "$OUT" 2>&1)
check "cxi_archive runs: the prolog's and the epilog's sweeps ($n)" test "$n" = 2
[ "$n" = 2 ] || show "$OUT" "$ERR"

section "a slow rank: its node drained, the job runs"
slow_rank() {
	local want try
	if [ -n "$FABRIC_WHY$FABRIC_FAIL" ]; then
		skip_part "a slow rank: ${FABRIC_WHY:-$FABRIC_FAIL}"
		return
	fi
	shape_rank "$P" 2 20 || { fail "rank 2's link not reshaped"; return; }
	conf "CXD_PROLOG_LIMIT=60" "${FAB[@]}"
	# INCONCLUSIVE (a retest where a rank waited for a CPU most of the
	# time: too busy to confirm) is checked once more, by the next job's
	# prolog, as at a site.
	for try in 1 2; do
		job "slow$try"
		slurm_wait 90 logged prolog
		slurm_wait 30 ran
		check "the job ran, $(elapsed_since "$JOB_T0") s after sbatch" ran
		one_line prolog
		[[ "$(line prolog)" == *" INCONCLUSIVE: Verdict: INCONCLUSIVE"* ]] &&
			[ "$try" = 1 ] || break
		check "INCONCLUSIVE: no drain" test -z "$(reason)"
		note "INCONCLUSIVE on this busy host: the next job checks once more"
	done
	want='cxi_sweep rank 2 swp0: [0-9]+ of [0-9]+ links slow'
	case $(line prolog) in
	*" FAIL: drained "*)
		check "FAIL: cxdnode1 drained, rank 2's reason named" eval \
			'[[ "$(line prolog)" =~ FAIL:\ drained\ cxdnode1\ \($want\)\;\ archived$ ]]'
		slurm_wait 10 drained
		note "sinfo -R: $(sinfo -R -h -n cxdnode1 -o '%E|%N|%T')"
		check "sinfo -R: cxdnode1 drained, the reason the line names" eval \
			'drained && [[ "$(reason)" =~ ^$want$ ]] && [[ "$(line prolog)" == *"($(reason))"* ]]'
		scontrol update nodename=cxdnode1 state=resume || fail "scontrol resume"
		slurm_wait 10 eval '! drained'
		# The requeue when the first job confirmed it (no more than two
		# slow sweeps in all).
		if [ "$try" = 1 ]; then requeued; else
			note "CXD_PROLOG_REQUEUE=1 not run: the FAIL took two jobs"
		fi
		;;
	*" INCONCLUSIVE: Verdict: INCONCLUSIVE"*)
		note "INCONCLUSIVE (too busy to confirm): no drain is right"
		check "no drain" test -z "$(reason)" ;;
	*) fail "a slow rank: '$(line prolog)'" ;;
	esac
}
# requeued: the slow rank again, CXD_PROLOG_REQUEUE=1: the prolog exits 1
# and Slurm puts the job back in the queue instead of running it.
requeued() {
	local state
	conf "CXD_PROLOG_LIMIT=60" "${FAB[@]}" "CXD_PROLOG_REQUEUE=1"
	job requeue
	slurm_wait 90 logged prolog
	one_line prolog
	case $(line prolog) in
	*" FAIL: drained cxdnode1 ("*"); archived, job requeued")
		pass "CXD_PROLOG_REQUEUE=1: FAIL, drained, the job requeued"
		state() { timeout -k 1 3 squeue -h -j "$JOB" -o %T 2>/dev/null; }
		slurm_wait 15 eval '[ "$(state)" = PENDING ]'
		note "squeue: $(timeout -k 1 3 squeue -h -j "$JOB" -o '%T %r' 2>&1)"
		check "the job back in the queue ($(state)), not run" \
			eval '[ "$(state)" = PENDING ] && ! ran'
		timeout -k 1 5 scancel "$JOB"
		scontrol update nodename=cxdnode1 state=resume || fail "scontrol resume"
		slurm_wait 10 eval '! drained' ;;
	*" INCONCLUSIVE: Verdict: INCONCLUSIVE"*)
		note "INCONCLUSIVE this time: nothing drained, so nothing requeued"
		slurm_wait 30 ran
		check "the job ran, no drain" eval 'ran && [ -z "$(reason)" ]' ;;
	*) fail "CXD_PROLOG_REQUEUE=1: '$(line prolog)'" ;;
	esac
}
slow_rank

section "a launcher that hangs: out of time, the job runs"
# Each run's files are removed at its end: none may be left.
conf "CXD_PROLOG_LIMIT=5" "cxd_launch() { sleep 613; }"
job hung
slurm_wait 40 ran
took=$(elapsed_since "$JOB_T0")
check "the job ran, $took s after sbatch (limit 5 s)" \
	eval 'ran && awk -v t="$took" "BEGIN { exit !(t < 15) }"'
slurm_wait 10 logged prolog
one_line prolog
check "INCONCLUSIVE, out of time, the job runs" eval \
	'[[ "$(line prolog)" == *" INCONCLUSIVE: out of time after 3 s (limit 5 s), job runs" ]]'
check "the launcher is gone" test -z "$(pgrep -f '^sleep 613$')"
check "no drain" test -z "$(reason)"

section "a limit that is not a number: named, the job runs"
conf "CXD_PROLOG_LIMIT=4x"
job badconf
slurm_wait 40 ran
check "the job ran" ran
slurm_wait 10 logged prolog
one_line prolog
check "the setting named" eval '[[ "$(line prolog)" == *" INCONCLUSIVE: bad configuration: CXD_PROLOG_LIMIT=4x is not a whole number of seconds, 5 or more; job runs" ]]'
check "no run's files left" test -z "$(ls -d "$TMPD"/cxd-prolog.* "$TMPD"/cxd-epilog.* 2>/dev/null)"

section "Slurm stopped"
slurm_stop
left=$CXD_SLURM_LEFT
check "daemons, slurmstepd and tasks all gone${left:+: left $left}" \
	test -z "$left"
finish

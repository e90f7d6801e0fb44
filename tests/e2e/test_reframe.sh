#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (ReFrame's sweeps and pairs: verdicts and references on real figures)
# contrib/reframe/cxd_checks.py under real ReFrame (reframe-hpc from PyPI,
# installed by scripts/reframe.sh), tiny sizes and iteration counts:
#   local scheduler  -> the pair's bandwidth and latency and a loopback per
#                       NIC (-P nic=...) against references they meet: OK;
#                       a bandwidth reference that cannot be met: the check
#                       FAILs in its performance stage, reframe exits non-zero
#   mpirun           -> cxd_sweep (4 ranks): the sweep's verdict is the
#                       sanity (accept=PASS,INCONCLUSIVE on this busy host:
#                       OK; a bound no link meets: FAIL, or twice a busy
#                       host's INCONCLUSIVE that says so; the check FAILs
#                       either way), its medians and resolution the
#                       performance values; cxd_sweep_budget (--budget
#                       60): OK, the time taken reported
#   Slurm            -> (root) the test Slurm of slurm_lib.sh, ReFrame's
#                       squeue scheduler and srun --mpi=pmix: the pair and
#                       the sweep pass; an unmeetable reference fails
# About 60 s.
#   bash tests/e2e/test_reframe.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CHECKS=$SRC/contrib/reframe/cxd_checks.py
RFM=${CXD_REFRAME_DIR:-/opt/cxd-reframe}/bin/reframe
[ -x "$RFM" ] || RFM=$(command -v reframe) ||
	skip "no reframe (scripts/reframe.sh installs it into /opt/cxd-reframe)"
for t in cxi_write_bw cxi_send_lat cxi_gpu_loopback_bw; do
	[ -x "$BUILD/$t" ] || skip "$BUILD/$t not built"
done
export CXD_BIN_DIR=$BUILD
cat >"$TMPD/rfm_config.py" <<'EOF'
site_configuration = {
    'systems': [{
        'name': 'cxdtest', 'descr': 'this host', 'hostnames': ['.*'],
        'partitions': [
            {'name': 'local', 'scheduler': 'local', 'launcher': 'local',
             'environs': ['builtin'], 'max_jobs': 1},
            {'name': 'mpi', 'scheduler': 'local', 'launcher': 'mpirun',
             'environs': ['builtin'], 'max_jobs': 1},
            {'name': 'slurm', 'scheduler': 'squeue', 'launcher': 'srun',
             'access': ['-p cxd'], 'environs': ['builtin'], 'max_jobs': 1},
        ],
    }],
}
EOF

# rfm NAME PARTITION ARGS...: one reframe run; its output in $OUT.
rfm() {
	local name=$1 part=$2
	shift 2
	# HOME: ReFrame keeps reports and the detected topology in ~/.reframe.
	run_capture "rfm-$name" 240 env HOME="$TMPD/home" "$RFM" -C "$TMPD/rfm_config.py" -c "$CHECKS" \
		--system "cxdtest:$part" --prefix "$TMPD/rfm-$name" \
		--nocolor --performance-report -r "$@"
	sed -n '/PERFORMANCE REPORT/,$p' "$OUT" | grep -E '^[│|] ' | sed 's/^/       /'
}
# outcome FILE CHECK: OK or FAIL, as ReFrame's run lines say.
outcome() {
	grep -E "^\[ +(OK|FAIL) +\] \([0-9]+/[0-9]+\) $2" "$1" |
		sed -E 's/^\[ +([A-Z]+).*/\1/' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

section "local scheduler: references met"
rfm pass local -n 'cxd_pair_bw|cxd_pair_lat|cxd_loopback_bw' \
	-S provider=tcp -S iters=20 -S cxd_pair_bw.size=4096 \
	-S cxd_pair_bw.ref=0.001 -S cxd_pair_lat.ref=1000000 \
	-S cxd_loopback_bw.size=4096 -S cxd_loopback_bw.iters=2 \
	-S cxd_loopback_bw.ref=0.000001 -P nic=lo
expect_rc 0 "$RC" "reframe" || show "$OUT"
for c in cxd_pair_bw cxd_pair_lat cxd_loopback_bw; do
	[ "$(outcome "$OUT" "$c")" = OK ] && pass "$c: OK" || fail "$c: '$(outcome "$OUT" "$c")'"
done
expect_line "$OUT" '^P: bw: [0-9.e+-]+ MB/s \(r:0.001, l:-0.1, u:None\)' "bandwidth against its reference"
expect_line "$OUT" '^P: lat: [0-9.e+-]+ us \(r:1000000.0, l:None, u:0.1\)' "latency against its reference (an upper bound)"
expect_line "$OUT" 'cxd_loopback_bw %\.?nic=lo' "one loopback test per NIC (-P nic=lo)"

section "local scheduler: a reference that cannot be met"
rfm fail local -n 'cxd_pair_bw' -S provider=tcp -S iters=20 \
	-S size=4096 -S ref=1000000000
[ "$RC" -ne 0 ] && pass "reframe exit $RC (non-zero)" || fail "reframe exit 0 on an unmeetable reference"
[ "$(outcome "$OUT" cxd_pair_bw)" = FAIL ] && pass "cxd_pair_bw: FAIL" || fail "cxd_pair_bw: '$(outcome "$OUT" cxd_pair_bw)'"
expect_line "$OUT" "Failing phase: performance" "failed in the performance stage"
expect_line "$OUT" "failed to meet reference\(s\): bw=[0-9.e+-]+ MB/s, expected 1000000000" "the reason names the figure and the reference"

if [ -x "$BUILD/cxi_sweep" ] && command -v mpirun >/dev/null; then
	section "mpirun: the sweep"
	mpi_setup
	# ReFrame splits list variables at commas: Open MPI's options as
	# its environment instead (the job inherits it).
	export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
	# -n is a regular expression: 'cxd_sweep$' leaves cxd_sweep_budget out.
	SWEEP=(-n 'cxd_sweep$' -S provider=tcp -S ranks=4 -S size=4096 -S iters=5)
	rfm sweepbusy mpi "${SWEEP[@]}" -S accept=PASS,INCONCLUSIVE
	verdict=$(grep -h '^Verdict:' "$TMPD"/rfm-sweepbusy/*/cxdtest/mpi/builtin/cxd_sweep/rfm_job.out 2>/dev/null | head -1)
	note "the sweep said: ${verdict:-nothing}"
	case $verdict in
	"Verdict: PASS"* | "Verdict: INCONCLUSIVE"*)
		[ "$RC" -eq 0 ] && pass "accept=PASS,INCONCLUSIVE: OK" || { fail "reframe exit $RC"; show "$OUT"; }
		expect_line "$OUT" '^P: bw_median: [0-9.e+-]+ MB/s' "median bandwidth as a performance value"
		expect_line "$OUT" '^P: lat_median: [0-9.e+-]+ us' "median latency"
		expect_line "$OUT" '^P: bw_resolution: [0-9.e+-]+ %' "the run's resolution (bandwidth)"
		expect_line "$OUT" '^P: lat_resolution: [0-9.e+-]+ %' "the run's resolution (latency)" ;;
	*) fail "verdict '$verdict' on a healthy host" ;;
	esac
	# A bound no link meets: FAIL. Every link is an outlier and is
	# retested; where the retest found a rank waiting for a CPU, the link
	# is not judged and the verdict is INCONCLUSIVE, truly (a host too
	# busy to confirm). That is measured once more; busy twice, the
	# INCONCLUSIVE must give the busy host as its reason, never another,
	# and never PASS.
	BUSY_WHY='could not be retested on a quiet host'
	for try in 1 2; do
		rfm sweepfail$try mpi "${SWEEP[@]}" -S 'sweep_opts=--expect-bw,1000000000'
		verdict=$(grep -h '^Verdict:' "$TMPD"/rfm-sweepfail$try/*/cxdtest/mpi/builtin/cxd_sweep/rfm_job.out 2>/dev/null | head -1)
		note "the sweep said: ${verdict:-nothing}"
		[[ $verdict == "Verdict: INCONCLUSIVE"* ]] && [ "$try" = 1 ] || break
		note "INCONCLUSIVE on this busy host: measured once more"
	done
	case $verdict in
	"Verdict: FAIL"*) pass "the sweep's verdict: FAIL" ;;
	"Verdict: INCONCLUSIVE"*)
		if grep -Eq "$BUSY_WHY" <<<"$verdict"; then
			pass "INCONCLUSIVE twice, the busy host its reason (never PASS)"
		else
			fail "verdict '$verdict', want FAIL or a busy host's INCONCLUSIVE"
		fi ;;
	*) fail "verdict '$verdict', want FAIL" ;;
	esac
	[ "$RC" -ne 0 ] && [ "$(outcome "$OUT" cxd_sweep)" = FAIL ] &&
		pass "a bound no link meets: FAIL verdict, the check FAILs" ||
		{ fail "expect-bw 1e9: reframe exit $RC"; show "$OUT"; }
	expect_line "$OUT" "Failing phase: sanity" "failed in the sanity stage (the verdict)"
	# The budget check: --budget in its command, the time it took as a
	# performance value; its verdict the sanity, as the sweep's.
	rfm budget mpi -n cxd_sweep_budget -S provider=tcp -S ranks=4 -S size=4096 \
		-S iters=5 -S accept=PASS,INCONCLUSIVE -S cxd_sweep_budget.budget=60
	job=$(ls "$TMPD"/rfm-budget/*/cxdtest/mpi/builtin/cxd_sweep_budget/rfm_job.sh 2>/dev/null | head -1)
	check "cxd_sweep_budget: its job runs cxi_sweep --budget 60" \
		grep -q -- 'cxi_sweep .*--budget 60' "$job"
	verdict=$(grep -h '^Verdict:' "$TMPD"/rfm-budget/*/cxdtest/mpi/builtin/cxd_sweep_budget/rfm_job.out 2>/dev/null | head -1)
	note "the budget sweep said: ${verdict:-nothing}"
	case $verdict in
	"Verdict: PASS"* | "Verdict: INCONCLUSIVE"*)
		[ "$RC" -eq 0 ] && [ "$(outcome "$OUT" cxd_sweep_budget)" = OK ] &&
			pass "cxd_sweep_budget: OK" || { fail "reframe exit $RC"; show "$OUT"; }
		expect_line "$OUT" '^P: budget_taken: [0-9.e+-]+ s' "the time taken as a performance value" ;;
	*) fail "budget sweep: verdict '$verdict' on a healthy host"; show "$OUT" ;;
	esac
else
	skip_part "the mpirun part: no mpirun or no cxi_sweep"
fi

section "Slurm: the squeue scheduler and srun"
. "$(dirname "$0")/slurm_lib.sh"
slurm_start 4
rfm slurm slurm -n 'cxd_pair_bw|cxd_sweep$' -S provider=tcp -S iters=5 \
	-S size=4096 -S cxd_pair_bw.ref=0.001 -S cxd_sweep.ranks=2 \
	-S 'cxd_sweep.launcher_opts=--mpi=pmix'
[ "$(outcome "$OUT" cxd_pair_bw)" = OK ] && pass "cxd_pair_bw under Slurm: OK" || { fail "cxd_pair_bw under Slurm: '$(outcome "$OUT" cxd_pair_bw)'"; show "$OUT"; }
expect_line "$OUT" "Job type: batch job|cxd_pair_bw .*@cxdtest:slurm" "ran in the slurm partition"
verdict=$(grep -h '^Verdict:' "$TMPD"/rfm-slurm/*/cxdtest/slurm/builtin/cxd_sweep/rfm_job.out 2>/dev/null | head -1)
note "the sweep said: ${verdict:-nothing}"
case $verdict in
"Verdict: PASS"*) [ "$(outcome "$OUT" cxd_sweep)" = OK ] && pass "sweep under srun: PASS, OK" || fail "sweep PASS, check '$(outcome "$OUT" cxd_sweep)'" ;;
"Verdict: "*) [ "$(outcome "$OUT" cxd_sweep)" = FAIL ] && pass "sweep under srun: '$verdict', FAIL" || fail "sweep '$verdict', check '$(outcome "$OUT" cxd_sweep)'" ;;
*) fail "no verdict line from the sweep under srun"; show "$OUT" ;;
esac
# The pair as one launcher step: srun starts two tasks, each takes its role
# from SLURM_PROCID; the job's output is the client's JSON.
rfm slurmpair slurm -n 'cxd_pair_bw' -S launched=true -S provider=tcp \
	-S iters=5 -S size=4096 -S cxd_pair_bw.ref=0.001
expect_rc 0 "$RC" "a pair as two srun tasks (launched=true)" || show "$OUT"
expect_line "$OUT" "cxd_pair_bw .*@cxdtest:slurm" "it ran in the slurm partition"
job=$(ls "$TMPD"/rfm-slurmpair/*/cxdtest/slurm/builtin/cxd_pair_bw/rfm_job.sh 2>/dev/null | head -1)
check "its job script runs srun with two tasks, no --local" \
	bash -c "grep -q 'ntasks=2' '$job' && grep -q '^srun ' '$job' && ! grep -q -- '--local' '$job'"
rfm slurmfail slurm -n 'cxd_pair_bw' -S provider=tcp -S iters=5 -S size=4096 \
	-S ref=1000000000
[ "$RC" -ne 0 ] && [ "$(outcome "$OUT" cxd_pair_bw)" = FAIL ] &&
	pass "under Slurm, an unmeetable reference: FAIL, reframe exit $RC" ||
	{ fail "under Slurm: reframe exit $RC, '$(outcome "$OUT" cxd_pair_bw)'"; show "$OUT"; }
slurm_stop
finish

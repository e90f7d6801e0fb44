/* SPDX-License-Identifier: BSD-3-Clause */
/* What cxi_sweep's outputs on rank 0 are given (out.h, out_json.h,
 * out_text.h, out_files.h, verdict.h): the result and its figures. */
#ifndef CXD_SWEEP_OUT_TYPES_H
#define CXD_SWEEP_OUT_TYPES_H

#include <stddef.h>

#include "sweep/judge/judge.h"
#include "out_links.h"
#include "out_run.h"
#include "sweep/judge/suspect_types.h"

/* Only pointed to: the capacity pass's result (capacity.h) and the
 * schedule chosen (sched_choose.h). */
struct cxd_budget_res;
struct cxd_cap_res;
struct cxd_latfit;
struct cxd_sched_choice;

/* Outliers each rank sends rank 0 to be listed (confirmed, and again
 * not judged); beyond, only counted (8 kB per rank at most). Every link
 * is listed up to 33 ranks. */
#define CXD_SWEEP_LISTED 64
/* --metrics lists every link up to this many ranks (rank 0 gathers the
 * matrices for it); beyond, each rank's median only: 10^8 series at
 * 10,000 ranks would swamp any Prometheus. */
#define CXD_SWEEP_METRICS_LINKS 64

/* Room for a suspect's or a component's name: its words, two names of
 * up to 255 bytes each (hosts, switches or groups; base/names.h) and
 * its ranks, so that no name is ever cut short in an output. */
#define CXD_OUT_NAME_LEN 1024

/* PASS, FAIL or INCONCLUSIVE (verdict.h decides it). */
enum cxd_verdict { CXD_V_PASS, CXD_V_FAIL, CXD_V_INCONCLUSIVE };

/* Everything rank 0 writes out: a section per part, each filled by its
 * part (tools/sweep/phases/run_report.c lists who fills which). */
struct cxd_sweep_res {
	struct cxd_sweep_run run;          /* the report: context, engine */
	struct cxd_sweep_inputs in;        /* the judging's inputs */
	struct cxd_sweep_rounds rounds;    /* the pacing and the plan */
	struct cxd_sweep_links links;      /* the gathering */
	struct cxd_sweep_outliers outliers; /* the gathering */
	struct cxd_sweep_judged judged;    /* the judging */
	/* The gathering's suspects, then the capacity pass's (merged by
	 * the report). */
	struct cxd_sweep_suspects suspects;
	/* The capacity pass: ran or why not, its plan and findings (a
	 * capacity suspect's cap indexes found); NULL: no such pass. */
	const struct cxd_cap_res *cap;
	/* Latency over the routes (judge_lat.h): each rank's fitted excess
	 * and the ranks named (in suspects too); NULL: not part of it. */
	const struct cxd_latfit *latfit;
	/* Per rank, the link error counters that moved during the sweep
	 * ("" none); NULL: not read. Evidence beside the outliers. */
	const char *const *moved;
	/* Which schedule ran and why, as chosen (sched_choose.h; the
	 * writers say it, out_sched.h); NULL: none. */
	const struct cxd_sched_choice *schedule;
	/* --budget: the covering plan as run, the time against the budget
	 * (judge_budget.h); NULL: every pair was measured. */
	const struct cxd_budget_res *budget;
	enum cxd_verdict verdict;
};

/* A file of the outputs written from the result: 0, or an error with
 * err said (out.h, out_files.h). */
typedef int cxd_out_writer_fn(const struct cxd_sweep_res *r,
			      const char *path, char *err, size_t errlen);

#endif

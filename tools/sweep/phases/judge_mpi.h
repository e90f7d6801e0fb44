/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's judging (judge_mpi.c): rank 0 reads --baseline and
 * --topology before any traffic; after the rounds each rank reduces its
 * own row, rank 0 sets the rules from a summary of the rows, and each
 * rank flags its own links against them (lib/sweep/judge/judge.c's rules).
 * The retest (retest_mpi.c) confirms the flags.
 */
#ifndef CXD_SWEEP_JUDGE_MPI_H
#define CXD_SWEEP_JUDGE_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/model/baseline.h"
#include "sweep/judge/judge.h"
#include "sweep/result/out_run.h"
#include "sweep/model/topo.h"
#include "engine/context.h"
#include "calib.h"
#include "pace/measured.h"

/* Rank 0's --baseline and --topology, read before any traffic. */
struct sw_inputs {
	struct cxd_baseline base;
	struct cxd_topo topo;
	bool has_base, has_topo;
};

/* 0, or 2 on every rank when one is unusable (rank 0 says why). */
int sw_inputs_read(struct sw_inputs *in, const struct sw_ctx *c);
/* After the ranks are known: --topology must place every one (0 or 2);
 * the placement lands on every rank in c->place, the file's links,
 * switches' groups and route rule on rank 0 only (into in->topo). */
int sw_inputs_place(struct sw_inputs *in, struct sw_ctx *c);
/* Rank 0: the result's inputs section: what was read, and the placement
 * (c->place) only with --topology. */
void sw_inputs_report(const struct sw_inputs *in, const struct sw_ctx *c,
		      struct cxd_sweep_inputs *s);
void sw_inputs_free(struct sw_inputs *in);

/* One rank's view of the rules and its own outliers. Every rank judges
 * its own row by the rules rank 0 sets from a compact summary (each
 * rank's median link and noise); rank 0 holds n x n baseline matrices
 * only for a --baseline (read whole). */
struct sw_judging {
	struct cxd_rules rules;  /* every rank; base: this rank's row */
	struct cxd_rules report; /* rank 0: base n x n, for the ratios */
	double *base_row[2];
	double *base[2];         /* rank 0: n x n, NAN where unmatched */
	struct cxd_outlier *o;   /* this rank's links: confirmed, busy */
	size_t nout, nbusy;
	/* the retest's pairs and metrics, for the report */
	int retest_pairs;
	int retest_rounds;       /* > 0: alone per shared link, in these */
	unsigned retest_metrics;
	int sides, busy_sides;   /* the main pass's CPU waits (judge.h) */
};

/* The first pass judged: f's statistics, the rules (crowd: rank 0's
 * calibration ratios, NULL none), the baseline matched (in->base
 * notes what matched) and shared, this rank's links flagged: all, or
 * with only (n entries) those to the ranks it marks, the pairs a plan
 * chose (--budget: a link not in it has no figure, and is no outlier).
 * Collective. */
void sw_judge(struct sw_judging *j, const struct sw_ctx *c,
	      struct sw_inputs *in, struct sw_measured *f,
	      const struct sw_calib *crowd, const unsigned char *only);
/* Rank 0: the result's judging section: the report's rules (the n x n
 * baseline), the retest's pairs and metrics. */
void sw_judging_report(const struct sw_judging *j,
		       struct cxd_sweep_judged *s);
void sw_judging_free(struct sw_judging *j);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: what rank 0 learns from every rank after the judging
 * (gather.c): the statistics and outliers (gather_stats.h), the rows
 * themselves where a file lists every link, and the suspects. Every
 * rank takes part; rank 0 gets the results.
 */
#ifndef CXD_SWEEP_GATHER_H
#define CXD_SWEEP_GATHER_H

#include <stddef.h>

#include "sweep/result/out_links.h"
#include "sweep/judge/suspect_types.h"
#include "engine/context.h"
#include "gather_stats.h"
#include "judge_mpi.h"
#include "pace/measured.h"

/* Rank 0's view of the whole run, for the report and the files. */
struct sw_gathered {
	struct cxd_sweep_stat stat[2];
	double *m[2], *spread[2];   /* n x n, only for a file that lists
				     * every link */
	double *rank_med;           /* 2 per rank (bw, lat) */
	struct sw_listed l;
	struct cxd_suspect *sus;
	size_t nsus;
};

/* The whole gathering: statistics, rows (where wanted), suspects and
 * listed outliers. Collective. */
void sw_gather_all(struct sw_gathered *g, const struct sw_ctx *c,
		   const struct sw_judging *j, const struct sw_measured *f);
/* Rank 0: the result's sections the gathering fills, pointing into g. */
void sw_gathered_report(const struct sw_gathered *g,
			struct cxd_sweep_links *links,
			struct cxd_sweep_outliers *o);
/* Rank 0: the suspects named from the outlier counts, for the report to
 * merge with the capacity pass's. */
struct cxd_sweep_suspects sw_gathered_suspects(const struct sw_gathered *g);
void sw_gathered_free(struct sw_gathered *g);

#endif

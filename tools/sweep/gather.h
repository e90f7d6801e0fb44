/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: what rank 0 learns from every rank after the judging
 * (gather_stats.c: statistics and outliers without gathering the rows;
 * gather.c: the rows themselves where a file lists every link,
 * and the suspects). Every rank takes part; rank 0 gets the results.
 */
#ifndef CXD_SWEEP_GATHER_H
#define CXD_SWEEP_GATHER_H

#include <stddef.h>

#include "sweep/judge.h"
#include "sweep/out.h"
#include "context.h"
#include "judge_mpi.h"
#include "measured.h"

/* The outliers rank 0 lists: confirmed ones, then those not judged. */
struct sw_listed {
	struct cxd_outlier *o;
	size_t nout, nbusy;         /* listed */
	size_t nout_all, nbusy_all; /* found, over all ranks */
};

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

/* Min, median (exact) and max of all links, and the worst ones. */
void sw_link_stats(const struct sw_mpi *mpi, const struct sw_measured *f,
		   struct cxd_sweep_stat st[2]);
/* Sum every rank's counts of its n outliers into rank 0's sum. */
void sw_tally(const struct sw_mpi *mpi, const struct cxd_topo_map *tm,
	      const struct cxd_outlier *o, size_t n, struct cxd_tally *sum);
/* o: this rank's nout confirmed outliers, then nbusy not judged; rank 0
 * gets at most CXD_SWEEP_LISTED of each per rank, in link order. */
void sw_gather_outliers(const struct sw_mpi *mpi,
			const struct cxd_outlier *o, size_t nout,
			size_t nbusy, struct sw_listed *l);

/* The whole gathering: statistics, rows (where wanted), suspects and
 * listed outliers. Collective. */
void sw_gather_all(struct sw_gathered *g, const struct sw_ctx *c,
		   const struct sw_judging *j, const struct sw_measured *f);
void sw_gathered_free(struct sw_gathered *g);

#endif

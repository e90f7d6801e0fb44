/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: what rank 0 learns from every rank's row without gathering
 * the rows (gather_stats.c). Every rank takes part; rank 0 gets the
 * results.
 */
#ifndef CXD_SWEEP_GATHER_STATS_H
#define CXD_SWEEP_GATHER_STATS_H

#include <stddef.h>

#include "sweep/judge/judge.h"
#include "sweep/result/out_links.h"
#include "pace/measured.h"
#include "mpi/mpi_util.h"

/* The outliers rank 0 lists: confirmed ones, then those not judged. */
struct sw_listed {
	struct cxd_outlier *o;
	size_t nout, nbusy;         /* listed */
	size_t nout_all, nbusy_all; /* found, over all ranks */
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

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The result's sections that the gathering fills (tools/sweep/phases/gather.c):
 * every link's figures and statistics, and the outliers listed. Apart
 * from out_types.h so that the gathering needs no writer's types. */
#ifndef CXD_SWEEP_OUT_LINKS_H
#define CXD_SWEEP_OUT_LINKS_H

#include <stddef.h>

#include "sweep/model/pairs.h"

#define CXD_SWEEP_WORST 3

/* One metric over every link, computed where the rows are. */
struct cxd_sweep_stat {
	double min, med, max;
	double p5, p95;       /* nearest-rank percentiles */
	struct cxd_link_val worst[CXD_SWEEP_WORST]; /* lowest bw, highest lat */
	int nworst;
};

/* Every link's figures. */
struct cxd_sweep_links {
	/* n x n medians of the repeats, NAN diagonal, and their spread
	 * ((max - min) / median, %): gathered only for the files that hold
	 * every link (--json, --csv, --metrics), else NULL. */
	const double *bw, *lat;
	const double *spread[2];
	struct cxd_sweep_stat stat[2]; /* per metric */
	/* Per rank, the median of its links (bw, lat), latest figures. */
	const double *rank_med;
};

/* The outliers listed (at most CXD_SWEEP_LISTED per rank) of nout_all
 * confirmed, and of nbusy_all whose retest ran on a busy host (not
 * judged). */
struct cxd_sweep_outliers {
	const struct cxd_outlier *out;
	size_t nout, nout_all;
	const struct cxd_outlier *busy;
	size_t nbusy, nbusy_all;
};

#endif

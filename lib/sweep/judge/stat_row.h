/* SPDX-License-Identifier: BSD-3-Clause */
/* One rank's links from its repeats, the column medians, the first
 * figures kept (stat_row.c). */
#ifndef CXD_SWEEP_STAT_ROW_H
#define CXD_SWEEP_STAT_ROW_H

#include <stddef.h>

#include "sweep/model/pairs.h"

/*
 * A rank's row from its n links' repeats: rep[m][p * repeat + k] is
 * repeat k of the link to rank p, metric m (0 bandwidth, 1 latency).
 * Writes each link's median to row[m][p], its spread ((max - min) /
 * median, %; NAN unless the median is positive) to spread[m][p], and the
 * noise (median relative difference of two repeats of one link) to
 * noise[m]. 0, or -ENOMEM. tools/sweep/phases/judge_mpi.c calls it on each
 * pass.
 */
int cxd_stat_row(int n, size_t repeat, double *const rep[2],
		 double *const row[2], double *const spread[2],
		 double noise[2]);

/* The median over n ranks of column col of their summaries of stride
 * values each (NAN: none, or no memory): rank 0's typical link and
 * noise. */
double cxd_stat_column_median(const double *sum, int n, int stride, int col);

/*
 * The links that np retested pairs p did not measure from rank `rank`
 * keep their first figures: now[k][j] = first[k][j] for every rank j
 * not retested with this one (k < 4: bandwidth, latency, their spreads).
 * 0, or -ENOMEM. Each link's figure is then its latest: a baseline
 * must not keep a blip that the retest cleared.
 */
int cxd_stat_keep_first(int n, int rank, const struct cxd_pair *p, int np,
			double *const now[4], double *const first[4]);

#endif

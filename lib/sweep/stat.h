/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's statistics, pure: medians, the k-th value over many ranks,
 * counts and the worst links (stat.c); one rank's links from its repeats
 * (stat_row.c). */
#ifndef CXD_SWEEP_STAT_H
#define CXD_SWEEP_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pairs.h"

/* Median of the finite values of v (NAN entries, e.g. the diagonal, are
 * skipped); NAN when there is none. */
double cxd_stat_median(const double *v, size_t n);
/*
 * The k-th smallest (0-based) of values spread over many ranks, found
 * without gathering them: bisection over the bit patterns of non-negative
 * doubles (ordered as the numbers are), each step counting the values at
 * or below the pivot on every rank and summing the counts. Exact after at
 * most 64 steps.
 */
struct cxd_select {
	uint64_t lo, hi, k;
};

void cxd_stat_select_init(struct cxd_select *s, uint64_t k);
bool cxd_stat_select_done(const struct cxd_select *s);
double cxd_stat_select_pivot(const struct cxd_select *s);
/* le: how many values (over all ranks) are <= the pivot. */
void cxd_stat_select_step(struct cxd_select *s, uint64_t le);
double cxd_stat_select_value(const struct cxd_select *s); /* once done */
/* Finite values of v[0..n) at or below x. */
uint64_t cxd_stat_count_le(const double *v, size_t n, double x);
uint64_t cxd_stat_count_finite(const double *v, size_t n);

/* The k worst of v[0..n) (lowest bandwidth, highest latency), finite
 * ones only, ties to the earlier entry: their indices in pick, their
 * count returned. */
int cxd_stat_worst(const double *v, size_t n, bool low, size_t *pick,
		   int k);

/*
 * A rank's row from its n links' repeats: rep[m][p * repeat + k] is
 * repeat k of the link to rank p, metric m (0 bandwidth, 1 latency).
 * Writes each link's median to row[m][p], its spread ((max - min) /
 * median, %; NAN unless the median is positive) to spread[m][p], and the
 * noise (median relative difference of two repeats of one link) to
 * noise[m]. 0, or -ENOMEM. tools/sweep/judge_mpi.c calls it on each
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

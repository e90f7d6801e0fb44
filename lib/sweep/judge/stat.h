/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's statistics, pure: medians, the k-th value over many ranks,
 * counts and the worst links (stat.c). */
#ifndef CXD_SWEEP_STAT_H
#define CXD_SWEEP_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's row statistics, with plain parameters (the MPI side,
 * tools/sweep/phases/judge_mpi.c, gathers and shares them). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "judge.h"
#include "stat.h"
#include "stat_row.h"

/* One link's median and spread from its k repeats x. */
static void link_stats(const double *x, size_t k, double *med,
		       double *spread)
{
	double lo = INFINITY, hi = -INFINITY;

	*med = cxd_stat_median(x, k);
	for (size_t i = 0; i < k; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	*spread = *med > 0 ? 100 * (hi - lo) / *med : NAN;
}

int cxd_stat_row(int n, size_t repeat, double *const rep[2],
		 double *const row[2], double *const spread[2],
		 double noise[2])
{
	size_t k = repeat, nd = k * (k - 1) / 2;
	double *diffs = calloc((size_t) n * nd + 1, sizeof(double));

	if (diffs == NULL)
		return -ENOMEM;
	for (int m = 0; m < 2; m++) {
		size_t d = 0;

		for (int p = 0; p < n; p++) {
			const double *x = rep[m] + (size_t) p * k;

			link_stats(x, k, &row[m][p], &spread[m][p]);
			d += cxd_judge_rel_diffs(x, k, diffs + d);
		}
		noise[m] = cxd_stat_median(diffs, d);
	}
	free(diffs);
	return 0;
}

double cxd_stat_column_median(const double *sum, int n, int stride, int col)
{
	double *x = malloc((size_t) n * sizeof(double) + 1), med;

	if (x == NULL)
		return NAN;
	for (int i = 0; i < n; i++)
		x[i] = sum[(size_t) stride * (size_t) i + (size_t) col];
	med = cxd_stat_median(x, (size_t) n);
	free(x);
	return med;
}

int cxd_stat_keep_first(int n, int rank, const struct cxd_pair *p, int np,
			double *const now[4], double *const first[4])
{
	bool *again = calloc((size_t) n + 1, sizeof(bool));

	if (again == NULL)
		return -ENOMEM;
	for (int i = 0; i < np; i++) {
		if (p[i].a == rank)
			again[p[i].b] = true;
		if (p[i].b == rank)
			again[p[i].a] = true;
	}
	for (int k = 0; k < 4; k++)
		for (int j = 0; j < n; j++)
			if (!again[j])
				now[k][j] = first[k][j];
	free(again);
	return 0;
}

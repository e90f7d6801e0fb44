/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: this rank's figures (measured.h). */
#include <math.h>
#include <stdlib.h>

#include "sweep/judge/stat.h"
#include "sweep/judge/stat_row.h"
#include "measured.h"

void sw_measured_init(struct sw_measured *f, const struct sw_mpi *m,
		      uint64_t repeat)
{
	size_t nk = (size_t) m->n * repeat;

	f->n = m->n;
	f->repeat = repeat;
	f->bw_row = sw_alloc(m, (size_t) m->n, sizeof(double));
	f->lat_row = sw_alloc(m, (size_t) m->n, sizeof(double));
	f->busy_row = sw_alloc(m, (size_t) m->n, sizeof(double));
	f->rep[0] = sw_alloc(m, nk, sizeof(double));
	f->rep[1] = sw_alloc(m, nk, sizeof(double));
	f->spread[0] = sw_alloc(m, (size_t) m->n, sizeof(double));
	f->spread[1] = sw_alloc(m, (size_t) m->n, sizeof(double));
	sw_measured_reset(f);
}

void sw_measured_reset(struct sw_measured *f)
{
	size_t nk = (size_t) f->n * f->repeat;

	for (int i = 0; i < f->n; i++)
		f->bw_row[i] = f->lat_row[i] = f->busy_row[i] = NAN;
	for (size_t k = 0; k < nk; k++)
		f->rep[0][k] = f->rep[1][k] = NAN;
}

/* The noise of all the repeats: the median relative difference between
 * two of them. */
void sw_measured_stats(struct sw_measured *f, const struct sw_mpi *m)
{
	double *row[2] = { f->bw_row, f->lat_row };

	if (cxd_stat_row(f->n, f->repeat, f->rep, row, f->spread,
			 f->noise) != 0)
		sw_die(m, "out of memory");
}

void sw_measured_free(struct sw_measured *f)
{
	free(f->bw_row);
	free(f->lat_row);
	free(f->busy_row);
	for (int m = 0; m < 2; m++) {
		free(f->rep[m]);
		free(f->spread[m]);
	}
}

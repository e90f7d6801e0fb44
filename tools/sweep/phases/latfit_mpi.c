/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: latency over the routes, gathered and fitted (latfit_mpi.h). */
#include <math.h>
#include <stdlib.h>

#include <mpi.h>

#include "latfit_mpi.h"

/* Whether the fit can run; the same answer on every rank (the rules and
 * the placement are every rank's). */
static enum cxd_latfit_state can_fit(const struct sw_ctx *c,
				     const struct cxd_rules *r)
{
	if (c->place.switch_of == NULL || c->coord_only)
		return CXD_LF_NONE;
	if (r->tol[CXD_M_LAT].crowded)
		return CXD_LF_CROWDED;
	if (r->tol[CXD_M_LAT].poor)
		return CXD_LF_POOR;
	if (c->m.n > CXD_LATFIT_MAX_RANKS)
		return CXD_LF_TOO_MANY;
	return CXD_LF_RAN;
}

/* The smallest class typical (a pair on one switch where there is one):
 * the floor's and the noise's scale. */
static double smallest_typical(const struct cxd_rules *r)
{
	double t = r->typical[CXD_M_LAT];

	for (int k = 0; k < CXD_LC_N; k++)
		if (isfinite(r->lat_typical_of[k]) && r->lat_typical_of[k] < t)
			t = r->lat_typical_of[k];
	return t;
}

void sw_latfit(struct cxd_latfit *fit, const struct sw_ctx *c,
	       const struct sw_judging *j, const struct sw_measured *f)
{
	const struct sw_mpi *m = &c->m;
	enum cxd_latfit_state st = can_fit(c, &j->rules);
	size_t nn = (size_t) m->n * m->n;
	double *lat = NULL, *busy = NULL;

	cxd_latfit_skip(fit, st);
	if (st != CXD_LF_RAN)
		return;
	if (m->rank == 0) {
		lat = sw_alloc(m, nn, sizeof(double));
		busy = sw_alloc(m, nn, sizeof(double));
	}
	sw_gather(m, f->lat_row, m->n, MPI_DOUBLE, lat, "gathering latency");
	sw_gather(m, f->busy_row, m->n, MPI_DOUBLE, busy,
		  "gathering the CPU waits");
	if (m->rank == 0) {
		const struct cxd_latfit_in in = { .n = m->n, .lat = lat,
			.busy = busy, .topo = &c->place,
			.noise = j->rules.tol[CXD_M_LAT].noise,
			.typical = smallest_typical(&j->rules) };

		if (cxd_latfit_run(&in, fit) != 0)
			sw_die(m, "out of memory");
	}
	free(lat);
	free(busy);
}

struct cxd_sweep_suspects sw_latfit_suspects(const struct cxd_latfit *fit)
{
	return (struct cxd_sweep_suspects){ fit->named, fit->nnamed };
}

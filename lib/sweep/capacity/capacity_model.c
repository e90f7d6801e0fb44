/* SPDX-License-Identifier: BSD-3-Clause */
/* What each capacity unit should carry, from the routes (capacity_model.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "capacity_model.h"
#include "sweep/judge/stat.h"

/* Rounds of the rates' fit: a kind found wider lets the next narrowest
 * bind, and the units it binds then speak for its rate. */
#define FIT_ROUNDS 4

int cxd_cap_model_init(struct cxd_cap_model *m, const struct cxd_topo_map *tm,
		       int n)
{
	int ret = cxd_routes_build(tm, n, &m->rt);

	m->tm = tm;
	m->has = NULL;
	m->by_pair = tm->route == CXD_TOPO_R_ECMP;
	if (ret)
		return ret;
	m->has = calloc((size_t) m->rt.ns + 1, sizeof(bool));
	if (m->has == NULL) {
		cxd_routes_free(&m->rt);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		if (tm->switch_of[i] >= 0 && tm->switch_of[i] < m->rt.ns)
			m->has[tm->switch_of[i]] = true;
	return 0;
}

void cxd_cap_model_free(struct cxd_cap_model *m)
{
	if (m->has == NULL)
		return;
	free(m->has);
	m->has = NULL;
	cxd_routes_free(&m->rt);
}

/* Every unit's draws at the rates: its median and low draw, and the
 * kind that bound it. */
static int all_draws(const struct cxd_cap_plan *pl,
		     const struct cxd_cap_model *m, const double *rate,
		     double pair, double *med, double *low, int *kind)
{
	double tot[CXD_CAP_DRAWS];

	for (int u = 0; u < pl->nunits; u++) {
		int ret;

		kind[u] = -1;
		med[u] = low[u] = NAN;
		if (pl->unit[u].np == 0)
			continue;
		ret = cxd_cap_model_draws(m, &pl->unit[u], rate, pair, tot,
					  &kind[u]);
		if (ret)
			return ret;
		med[u] = tot[CXD_CAP_DRAWS / 2];
		low[u] = tot[CXD_CAP_LOW_DRAW];
	}
	return 0;
}

/* Each kind's rate times the median, over the units it binds, of what
 * they carried against their median draw. */
static void refit(const struct cxd_cap_plan *pl, const double *med,
		  const int *kind, const double *fixed, double *rate,
		  double *tmp)
{
	for (int k = 0; k < CXD_CAP_L_KINDS; k++) {
		size_t c = 0;

		if (fixed && isfinite(fixed[k]) && fixed[k] > 0)
			continue;
		for (int u = 0; u < pl->nunits; u++)
			if (kind[u] == k && pl->unit[u].carried > 0 && med[u] > 0)
				tmp[c++] = pl->unit[u].carried / med[u];
		if (c)
			rate[k] *= cxd_stat_median(tmp, c);
	}
}

int cxd_cap_model_expect(struct cxd_cap_plan *pl,
			 const struct cxd_cap_model *m, double pair_mb_s,
			 const double *fixed, double *rate)
{
	size_t nu = (size_t) pl->nunits + 1;
	double *med = malloc(3 * nu * sizeof(double)), *low, *tmp;
	int *kind = malloc(nu * sizeof(int)), ret = 0;

	if (med == NULL || kind == NULL) {
		free(med);
		free(kind);
		return -ENOMEM;
	}
	low = med + nu;
	tmp = low + nu;
	/* a physical link at a pair's rate to start with, or as stated */
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		rate[k] = fixed && isfinite(fixed[k]) && fixed[k] > 0 ?
			  fixed[k] : pair_mb_s;
	for (int it = 0; ret == 0 && it <= FIT_ROUNDS; it++) {
		ret = all_draws(pl, m, rate, pair_mb_s, med, low, kind);
		if (ret == 0 && it < FIT_ROUNDS)
			refit(pl, med, kind, fixed, rate, tmp);
	}
	for (int u = 0; ret == 0 && u < pl->nunits; u++)
		if (pl->unit[u].np) {
			pl->unit[u].expected = low[u];
			pl->unit[u].mid = med[u];
		}
	free(med);
	free(kind);
	return ret;
}

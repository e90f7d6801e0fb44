/* SPDX-License-Identifier: BSD-3-Clause */
/* What each capacity unit should carry, from the routes (capacity_model.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "capacity_model.h"
#include "sweep/judge/stat.h"
#include "sweep/model/route.h"

static enum cxd_cap_lkind kind_of(const struct cxd_topo_map *tm, int l)
{
	const int *sg = tm->switch_group;
	int ga = sg ? sg[tm->link[l].a] : -1, gb = sg ? sg[tm->link[l].b] : -1;

	return ga < 0 || gb < 0 ? CXD_CAP_L_UPLINK :
	       ga == gb ? CXD_CAP_L_LOCAL : CXD_CAP_L_GLOBAL;
}

/* phi[l]: the share of one repeat's pairs whose ways cross link l. */
static void shares(const struct cxd_cap_unit *x, int rep,
		   const struct cxd_topo_map *tm, const struct cxd_routes *rt,
		   double *phi)
{
	for (int l = 0; l < tm->nlink; l++)
		phi[l] = 0.0;
	for (int i = 0; i < x->np; i++) {
		struct cxd_pair p = cxd_cap_pair(x, rep, i);
		int a = tm->switch_of[p.a], b = tm->switch_of[p.b];
		size_t nw;
		const struct cxd_way *w;

		if (a == b || a < 0 || b < 0)
			continue;
		w = cxd_routes_ways(rt, a, b, &nw);
		for (size_t k = 0; k < nw; k++)
			for (int h = 0; h < w[k].len; h++)
				phi[rt->hop[w[k].first + (size_t) h]] +=
					w[k].share / x->np;
	}
}

static void unit_m(const struct cxd_cap_unit *x, const struct cxd_topo_map *tm,
		   const struct cxd_routes *rt, double *phi, double *m)
{
	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		double *mk = m + rep * CXD_CAP_L_KINDS;

		for (int k = 0; k < CXD_CAP_L_KINDS; k++)
			mk[k] = INFINITY;
		if (x->np == 0)
			continue;
		shares(x, rep, tm, rt, phi);
		for (int l = 0; l < tm->nlink; l++) {
			double worth = phi[l] > 1e-12 ?
				       tm->link[l].count / phi[l] : INFINITY;
			enum cxd_cap_lkind k = kind_of(tm, l);

			mk[k] = fmin(mk[k], worth);
		}
	}
}

int cxd_cap_model(const struct cxd_cap_plan *pl,
		  const struct cxd_topo_map *tm, int n, double *m)
{
	struct cxd_routes rt;
	double *phi;
	int ret = cxd_routes_build(tm, n, &rt);

	if (ret)
		return ret;
	phi = malloc(((size_t) tm->nlink + 1) * sizeof(double));
	if (phi == NULL) {
		cxd_routes_free(&rt);
		return -ENOMEM;
	}
	for (int u = 0; u < pl->nunits; u++)
		unit_m(&pl->unit[u], tm, &rt, phi, m + CXD_CAP_M(u, 0, 0));
	free(phi);
	cxd_routes_free(&rt);
	return 0;
}

/* A repeat's bound: the least of its kinds' and its pairs' own rate. */
static double bound(const double *mk, const double *rate, double pairs,
		    int *by)
{
	double b = pairs;

	*by = -1;
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		if (rate[k] * mk[k] < b) {
			b = rate[k] * mk[k];
			*by = k;
		}
	return b;
}

/* The repeat the unit's best figure is expected from, and its bound. */
static double best_rep(const struct cxd_cap_unit *x, const double *m,
		       const double *rate, double pair, int *by)
{
	double most = -1;

	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		int k;
		double b = bound(m + rep * CXD_CAP_L_KINDS, rate,
				 x->np * pair, &k);

		if (b > most) {
			most = b;
			*by = k;
		}
	}
	return most;
}

/* Each kind's rate: the median, over the units its links bind, of what
 * they carried per physical link's worth. */
static void fit(const struct cxd_cap_plan *pl, const double *m, double pair,
		double *rate, double *tmp)
{
	double next[CXD_CAP_L_KINDS];

	for (int k = 0; k < CXD_CAP_L_KINDS; k++) {
		size_t c = 0;

		for (int u = 0; u < pl->nunits; u++) {
			const struct cxd_cap_unit *x = &pl->unit[u];
			const double *mu = m + CXD_CAP_M(u, 0, 0);
			int by, rep;

			if (x->np == 0)
				continue;
			(void) best_rep(x, mu, rate, pair, &by);
			rep = 0;
			if (by != k)
				continue;
			for (int r = 1; r < CXD_CAP_REPS; r++)
				if (mu[r * CXD_CAP_L_KINDS + k] >
				    mu[rep * CXD_CAP_L_KINDS + k])
					rep = r;
			tmp[c++] = x->carried / mu[rep * CXD_CAP_L_KINDS + k];
		}
		next[k] = c ? cxd_stat_median(tmp, c) : INFINITY;
	}
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		rate[k] = next[k];
}

void cxd_cap_model_expect(struct cxd_cap_plan *pl, const double *m,
			  double pair_mb_s, double *rate, double *tmp)
{
	/* start from a pair per physical link, then fit twice: a kind
	 * found wider lets the next narrowest bind */
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		rate[k] = pair_mb_s;
	for (int it = 0; it < 3; it++)
		fit(pl, m, pair_mb_s, rate, tmp);
	for (int u = 0; u < pl->nunits; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];
		int by;

		if (x->np)
			x->expected = best_rep(x, m + CXD_CAP_M(u, 0, 0), rate,
					       pair_mb_s, &by);
	}
}

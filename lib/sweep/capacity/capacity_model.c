/* SPDX-License-Identifier: BSD-3-Clause */
/* What each capacity unit should carry, from the routes (capacity_model.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
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

/* May the way carry a load? Not through a link between groups that
 * ends on a switch with no rank of the run: a hash by destination
 * sends nothing there (no destination sits on it), and which hash the
 * fabric uses nobody says, so the bound must not count on that link. */
static bool usable(const struct cxd_way *w, const struct cxd_topo_map *tm,
		   const struct cxd_routes *rt, const bool *has)
{
	for (int h = 0; h < w->len; h++) {
		int l = rt->hop[w->first + (size_t) h];

		if (kind_of(tm, l) == CXD_CAP_L_GLOBAL &&
		    (!has[tm->link[l].a] || !has[tm->link[l].b]))
			return false;
	}
	return true;
}

/* One pair's ways into phi, each at its share among those usable. */
static void pair_shares(const struct cxd_way *w, size_t nw, double each,
			const struct cxd_topo_map *tm,
			const struct cxd_routes *rt, const bool *has,
			double *phi)
{
	double all = 0;

	for (size_t k = 0; k < nw; k++)
		all += usable(&w[k], tm, rt, has) ? w[k].share : 0;
	for (size_t k = 0; k < nw; k++) {
		double sh = all > 0 ? (usable(&w[k], tm, rt, has) ?
				       w[k].share / all : 0) : w[k].share;

		for (int h = 0; h < w[k].len; h++)
			phi[rt->hop[w[k].first + (size_t) h]] += sh * each;
	}
}

/* phi[l]: the share of one repeat's pairs whose ways cross link l. */
static void shares(const struct cxd_cap_unit *x, int rep,
		   const struct cxd_topo_map *tm, const struct cxd_routes *rt,
		   const bool *has, double *phi)
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
		pair_shares(w, nw, 1.0 / x->np, tm, rt, has, phi);
	}
}

static void unit_m(const struct cxd_cap_unit *x, const struct cxd_topo_map *tm,
		   const struct cxd_routes *rt, const bool *has, double *phi,
		   double *m)
{
	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		double *mk = m + rep * CXD_CAP_L_KINDS;

		for (int k = 0; k < CXD_CAP_L_KINDS; k++)
			mk[k] = INFINITY;
		if (x->np == 0)
			continue;
		shares(x, rep, tm, rt, has, phi);
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
	bool *has;
	int ret = cxd_routes_build(tm, n, &rt);

	if (ret)
		return ret;
	phi = malloc(((size_t) tm->nlink + 1) * sizeof(double));
	has = calloc((size_t) rt.ns + 1, sizeof(bool));
	for (int i = 0; has && i < n; i++)
		if (tm->switch_of[i] >= 0 && tm->switch_of[i] < rt.ns)
			has[tm->switch_of[i]] = true;
	for (int u = 0; phi && has && u < pl->nunits; u++)
		unit_m(&pl->unit[u], tm, &rt, has, phi, m + CXD_CAP_M(u, 0, 0));
	ret = phi && has ? 0 : -ENOMEM;
	free(phi);
	free(has);
	cxd_routes_free(&rt);
	return ret;
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

	*by = -1;
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
			int by = -1, rep;

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
	/* start from a pair per physical link, then fit three times: a
	 * kind found wider lets the next narrowest bind */
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		rate[k] = pair_mb_s;
	for (int it = 0; it < 3; it++)
		fit(pl, m, pair_mb_s, rate, tmp);
	for (int u = 0; u < pl->nunits; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];
		int by = -1;

		if (x->np)
			x->expected = best_rep(x, m + CXD_CAP_M(u, 0, 0), rate,
					       pair_mb_s, &by);
	}
}

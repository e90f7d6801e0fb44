/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's link widths: the samples and the fit (width.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "width.h"

/* Ranks per unit (dom: a switch or group per rank, -1: none). */
static void count(const int *dom, int n, int *cnt)
{
	for (int i = 0; i < n; i++)
		if (dom[i] >= 0)
			cnt[dom[i]]++;
}

/* The two units with the most ranks (ties: the lower index), in top;
 * restricted to group g's switches when grp is not NULL. */
static void top_two(const int *cnt, int nu, const int *grp, int g, int *top)
{
	top[0] = top[1] = -1;
	for (int u = 0; u < nu; u++) {
		if (cnt[u] == 0 || (grp && grp[u] != g))
			continue;
		if (top[0] < 0 || cnt[u] > cnt[top[0]]) {
			top[1] = top[0];
			top[0] = u;
		} else if (top[1] < 0 || cnt[u] > cnt[top[1]]) {
			top[1] = u;
		}
	}
}

/* Rank i shares a host:NIC with one of the k taken, or is one. */
static bool taken(const struct cxd_sweep_rank *r, const int *side, int k,
		  int i)
{
	for (int j = 0; j < k; j++)
		if (side[j] == i || (strcmp(r[side[j]].host, r[i].host) == 0 &&
				     strcmp(r[side[j]].nic, r[i].nic) == 0))
			return true;
	return false;
}

static int on_switch(const struct cxd_topo_map *tm, const int *side, int k,
		     int s)
{
	int c = 0;

	for (int j = 0; j < k; j++)
		c += tm->switch_of[side[j]] == s;
	return c;
}

int cxd_width_side(const struct cxd_topo_map *tm,
		   const struct cxd_sweep_rank *r, const int *mem, int nm,
		   bool spread, const bool *skip, int *out)
{
	int k = 0;

	for (int lvl = spread ? 1 : CXD_WIDTH_CAP; lvl <= CXD_WIDTH_CAP; lvl++)
		for (int j = 0; j < nm && k < CXD_WIDTH_CAP; j++) {
			int i = mem[j];

			if ((skip == NULL || !skip[i]) && !taken(r, out, k, i) &&
			    (!spread || on_switch(tm, out, k,
						  tm->switch_of[i]) < lvl))
				out[k++] = i;
		}
	return k;
}

/* cxd_width_side over the ranks of unit d of dom. */
static int side(const struct cxd_topo_map *tm, const struct cxd_sweep_rank *r,
		int n, const int *dom, int d, bool spread, int *out)
{
	int *mem = malloc((size_t) n * sizeof(int)), nm = 0, k;

	if (mem == NULL)
		return 0;
	for (int i = 0; i < n; i++)
		if (dom[i] == d)
			mem[nm++] = i;
	k = cxd_width_side(tm, r, mem, nm, spread, NULL, out);
	free(mem);
	return k;
}

/* Sample s across units a and b of dom. */
static void pairs(const struct cxd_topo_map *tm,
		  const struct cxd_sweep_rank *r, int n, const int *dom,
		  const int *ab, bool spread, struct cxd_width_sample *s)
{
	int sa[CXD_WIDTH_CAP], sb[CXD_WIDTH_CAP];
	int ka = side(tm, r, n, dom, ab[0], spread, sa);
	int kb = side(tm, r, n, dom, ab[1], spread, sb);

	s->present = true;
	s->a = ab[0];
	s->b = ab[1];
	s->np = ka < kb ? ka : kb;
	for (int i = 0; i < s->np; i++)
		s->p[i] = sa[i] < sb[i] ? (struct cxd_pair){ sa[i], sb[i] } :
					  (struct cxd_pair){ sb[i], sa[i] };
}

/* The switch pair inside one group with the most ranks on its smaller
 * side, then on its larger: top holds it, -1 when no group has two
 * switches. */
static void local_pair(const int *cnt_sw, int nsw, const int *grp, int ngrp,
		       int *top)
{
	int t[2];

	top[0] = top[1] = -1;
	for (int g = 0; g < ngrp; g++) {
		top_two(cnt_sw, nsw, grp, g, t);
		if (t[1] >= 0 &&
		    (top[1] < 0 || cnt_sw[t[1]] > cnt_sw[top[1]] ||
		     (cnt_sw[t[1]] == cnt_sw[top[1]] &&
		      cnt_sw[t[0]] > cnt_sw[top[0]])))
			memcpy(top, t, sizeof(t));
	}
}

int cxd_width_samples(const struct cxd_topo_map *tm,
		      const struct cxd_sweep_rank *r, int n,
		      struct cxd_width_sample s[CXD_TOPO_W_KINDS])
{
	int *cnt_sw = calloc((size_t) tm->nswitch + 1, sizeof(int));
	int *cnt_g = calloc((size_t) tm->ngroup + 1, sizeof(int));
	int *grp = malloc(((size_t) tm->nswitch + 1) * sizeof(int));
	int top[2];

	memset(s, 0, CXD_TOPO_W_KINDS * sizeof(*s));
	if (cnt_sw == NULL || cnt_g == NULL || grp == NULL) {
		free(cnt_sw);
		free(cnt_g);
		free(grp);
		return -ENOMEM;
	}
	count(tm->switch_of, n, cnt_sw);
	for (int i = 0; i < tm->nswitch; i++)
		grp[i] = -1;
	for (int i = 0; i < n; i++)
		if (tm->switch_of[i] >= 0 && tm->ngroup > 0)
			grp[tm->switch_of[i]] = tm->group_of[i];
	if (tm->ngroup > 0) {
		count(tm->group_of, n, cnt_g);
		local_pair(cnt_sw, tm->nswitch, grp, tm->ngroup, top);
		if (top[1] >= 0)
			pairs(tm, r, n, tm->switch_of, top, false,
			      &s[CXD_TOPO_W_LOCAL]);
		top_two(cnt_g, tm->ngroup, NULL, 0, top);
		if (top[1] >= 0)
			pairs(tm, r, n, tm->group_of, top, true,
			      &s[CXD_TOPO_W_GLOBAL]);
	} else {
		top_two(cnt_sw, tm->nswitch, NULL, 0, top);
		if (top[1] >= 0)
			pairs(tm, r, n, tm->switch_of, top, false,
			      &s[CXD_TOPO_W_UPLINK]);
	}
	free(cnt_sw);
	free(cnt_g);
	free(grp);
	return 0;
}

/* Figure x slowed beyond tol of one pair alone's. */
static bool slowed(double alone, double x, double tol)
{
	return !(x >= (1.0 - tol) * alone);
}

bool cxd_width_more(const double *worst, int nk, double tol, int cap)
{
	if (nk == 0)
		return cap >= 1;
	if (!isfinite(worst[0]) || worst[0] <= 0)
		return false;
	return nk < cap && !slowed(worst[0], worst[nk - 1], tol);
}

void cxd_width_fit(const double *worst, int nk, double tol,
		   struct cxd_topo_width *w)
{
	int k = 0;

	w->src = CXD_TOPO_WS_MEASURED;
	w->tried = nk;
	w->pairs = 0;
	w->at_least = 0;
	w->slowest = NAN;
	if (nk < 1 || !isfinite(worst[0]) || worst[0] <= 0)
		return;
	while (k < nk && !slowed(worst[0], worst[k], tol))
		k++;
	w->pairs = k;
	w->at_least = k == nk;
	w->tried = k < nk ? k + 1 : nk;
	w->slowest = worst[w->tried - 1] / worst[0];
}

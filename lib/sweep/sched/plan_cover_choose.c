/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's pairs chosen (plan_cover_choose.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cover_add.h"
#include "plan_cover_anchor.h"
#include "plan_cover_choose.h"
#include "plan_cover_lazy.h"
#include "plan_cover_pick.h"

static int cap_k(const struct cxd_cover_work *w, long v)
{
	return v < w->k ? (int) v : w->k;
}

/* Per component: the sure crossings the job can give it (at most k)
 * and the switch pairs that can give them (at most k). */
static void targets(struct cxd_cover_work *w)
{
	for (int sp = 0; sp < w->nused * w->nused; sp++) {
		long rp = cxd_cover_sp_pairs(w, sp);

		for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
			int c = w->x[e].comp;

			if (rp == 0 || !w->x[e].sure)
				continue;
			w->target[c] = cap_k(w, (long) w->target[c] + rp);
			w->kmax[c] = cap_k(w, (long) w->kmax[c] + 1);
		}
	}
	for (int r = 0; r < w->n; r++) {
		int s = w->tm->switch_of[r];
		int mates = w->rank_at[s + 1] - w->rank_at[s] - 1;

		w->target[r] = cap_k(w, w->n - 1);
		w->kmax[r] = cap_k(w, w->nused - 1 + (mates > 0));
	}
}

/* Component c's switch pairs (in_at, in_sp); every gain dirty. */
static int inverse(struct cxd_cover_work *w)
{
	size_t nsp = (size_t) w->nused * (size_t) w->nused;

	w->gain = calloc(nsp + 1, sizeof(double));
	w->dirty = malloc(nsp + 1);
	w->nicb = calloc((size_t) w->ns + 1, sizeof(double));
	w->in_at = calloc((size_t) w->ncomp + 2, sizeof(size_t));
	w->in_sp = malloc((w->nx + 1) * sizeof(int));
	if (!w->gain || !w->dirty || !w->nicb || !w->in_at || !w->in_sp)
		return -ENOMEM;
	memset(w->dirty, 1, nsp + 1);
	for (size_t e = 0; e < w->nx; e++)
		w->in_at[w->x[e].comp + 2]++;
	for (int c = 0; c < w->ncomp; c++)
		w->in_at[c + 2] += w->in_at[c + 1];
	/* in_at[c + 1] is c's fill point while filling, then its end */
	for (size_t sp = 0; sp < nsp; sp++)
		for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++)
			w->in_sp[w->in_at[w->x[e].comp + 1]++] = (int) sp;
	return 0;
}

static int init(struct cxd_cover_work *w)
{
	size_t nc = (size_t) w->ncomp + 1;
	size_t bits = (size_t) w->n * (size_t) w->n / 64 + 1;

	w->target = calloc(nc, sizeof(int));
	w->kmax = calloc(nc, sizeof(int));
	w->nkey = calloc(nc, sizeof(int));
	w->key = malloc(nc * (size_t) w->k * sizeof(int));
	w->taken = calloc(bits, sizeof(uint64_t));
	w->cls = calloc(nc, sizeof(int));
	w->csize = calloc(nc, sizeof(int));
	w->hits = calloc(nc, sizeof(int));
	w->newid = malloc(nc * sizeof(int));
	w->touched = malloc(nc * sizeof(int));
	w->sbuf = malloc((nc + 2) * sizeof(int));
	if (!w->target || !w->kmax || !w->nkey || !w->key || !w->taken ||
	    !w->cls || !w->csize || !w->hits || !w->newid || !w->touched ||
	    !w->sbuf)
		return -ENOMEM;
	w->csize[0] = w->ncomp; /* all alike: no pair crosses any yet */
	w->ncls = 1;
	targets(w);
	return inverse(w);
}

/* One phase: the best pair taken while one gains anything. */
static int phase(struct cxd_cover_work *w, bool tell)
{
	for (;;) {
		struct cxd_cover_best bt = { 0, -1, -1, -1 };
		int ret = 0;

		if (!w->exhaustive)
			ret = cxd_cover_pick_lazy(w, &bt, tell);
		else if (tell)
			cxd_cover_pick_split(w, &bt);
		else
			cxd_cover_pick_cover(w, &bt);
		if (ret)
			return ret;
		if (bt.sp < 0)
			return 0;
		if (w->max_pairs > 0 && w->npair >= w->max_pairs) {
			w->capped = 1;
			return 0;
		}
		ret = cxd_cover_add_pair(w, bt.sp, bt.a, bt.b);
		if (ret)
			return ret;
	}
}

int cxd_cover_choose(struct cxd_cover_work *w)
{
	int ret = init(w);

	if (ret == 0)
		ret = cxd_cover_anchor(w);
	if (ret == 0 && !w->capped)
		ret = phase(w, false);
	cxd_cover_lazy_free(w);
	if (ret == 0 && !w->capped)
		ret = phase(w, true);
	cxd_cover_lazy_free(w);
	return ret;
}

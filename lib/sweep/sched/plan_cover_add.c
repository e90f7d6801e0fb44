/* SPDX-License-Identifier: BSD-3-Clause */
/* A pair added to a covering plan being built (plan_cover_add.h). */
#include <errno.h>
#include <stdint.h>

#include "base/grow.h"
#include "plan_cover_add.h"
#include "plan_cover_lazy.h"
#include "plan_cover_pick.h"

/* The switch pairs whose gain component c's new crossing changes. */
static void dirty(struct cxd_cover_work *w, int c)
{
	for (size_t i = w->in_at[c]; i < w->in_at[c + 1]; i++)
		w->dirty[w->in_sp[i]] = 1;
}

/* The classes split by a new pair's sure crossings s[0 .. ns): the
 * members it crosses leave a class it crosses only in part. */
static void refine(struct cxd_cover_work *w, const int *s, int ns)
{
	int nt = 0;

	for (int i = 0; i < ns; i++)
		if (w->hits[w->cls[s[i]]]++ == 0)
			w->touched[nt++] = w->cls[s[i]];
	for (int i = 0; i < nt; i++) {
		int t = w->touched[i];

		w->newid[t] = w->hits[t] < w->csize[t] ? w->ncls++ : t;
	}
	for (int i = 0; i < ns; i++) {
		int t = w->cls[s[i]];

		if (w->newid[t] != t) {
			w->cls[s[i]] = w->newid[t];
			w->csize[t]--;
			w->csize[w->newid[t]]++;
		}
	}
	for (int i = 0; i < nt; i++)
		w->hits[w->touched[i]] = 0;
}

int cxd_cover_add_pair(struct cxd_cover_work *w, int sp, int a, int b)
{
	size_t i = cxd_cover_bit(w, a, b);
	int ns = 0;

	if (cxd_grow((void **) &w->pair, &w->pcap, (size_t) w->npair + 1,
		     sizeof(*w->pair)) ||
	    cxd_grow((void **) &w->pair_sp, &w->spcap, (size_t) w->npair + 1,
		     sizeof(int)))
		return -ENOMEM;
	w->pair[w->npair] = (struct cxd_cover_pair){ a < b ? a : b,
						     a < b ? b : a };
	w->pair_sp[w->npair++] = sp;
	w->taken[i / 64] |= (uint64_t) 1 << (i % 64);
	w->sbuf[ns++] = a;
	w->sbuf[ns++] = b;
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
		if (w->x[e].sure)
			w->sbuf[ns++] = w->x[e].comp;
		else
			w->comp[w->x[e].comp].maybe += w->x[e].p;
		dirty(w, w->x[e].comp);
	}
	for (int j = 0; j < ns; j++) {
		int c = w->sbuf[j], had = w->nkey[c];

		w->comp[c].sure++;
		if (!cxd_cover_has_key(w, c, sp) && w->nkey[c] < w->k)
			w->key[(size_t) c * (size_t) w->k +
			       (size_t) w->nkey[c]++] = sp;
		/* from new switch pairs only, until now: from any */
		if (had < w->kmax[c] && w->nkey[c] == w->kmax[c] &&
		    w->comp[c].sure < w->target[c])
			cxd_cover_lazy_rise(w, c);
	}
	refine(w, w->sbuf, ns);
	return 0;
}

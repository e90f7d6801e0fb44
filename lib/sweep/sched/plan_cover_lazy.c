/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's best next pair, lazily (plan_cover_lazy.h). At
 * 10,240 ranks the full weighing costs about a million switch pairs a
 * step for some 26,000 steps. */
#include <errno.h>
#include <stdlib.h>

#include "base/grow.h"
#include "plan_cover_lazy.h"

/* Gains closer than this are equal (as plan_cover_pick.c weighs). */
#define EPS 1e-9

/* A switch pair's best pair as weighed at step `step`; current while
 * ver is its switch pair's. */
struct ent {
	double g;
	int sp, a, b, ver, step;
};

struct cxd_cover_heap {
	struct ent *e;
	size_t n, cap;
	int *ver;             /* per switch pair */
	int *rise;            /* switch pairs to weigh before the next pick */
	size_t nrise, rcap;
	unsigned char *risen; /* per switch pair: in rise (after ver) */
	int step;
	bool tell; /* the telling-apart step's gains, not covering's */
};

static size_t nsp(const struct cxd_cover_work *w)
{
	return (size_t) w->nused * (size_t) w->nused;
}

/* Does x go above y: more gain, or as much and the lower switch pair. */
static int above(const struct ent *x, const struct ent *y)
{
	if (x->g > y->g + EPS || x->g < y->g - EPS)
		return x->g > y->g;
	return x->sp < y->sp;
}

static void swap(struct ent *x, struct ent *y)
{
	struct ent t = *x;

	*x = *y;
	*y = t;
}

static int push(struct cxd_cover_heap *h, const struct ent *x)
{
	size_t i = h->n;

	if (cxd_grow((void **) &h->e, &h->cap, h->n + 1, sizeof(*h->e)))
		return -ENOMEM;
	h->e[h->n++] = *x;
	while (i > 0 && above(&h->e[i], &h->e[(i - 1) / 2])) {
		swap(&h->e[i], &h->e[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

static void pop(struct cxd_cover_heap *h)
{
	size_t i = 0;

	h->e[0] = h->e[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && above(&h->e[l], &h->e[m]))
			m = l;
		if (r < h->n && above(&h->e[r], &h->e[m]))
			m = r;
		if (m == i)
			return;
		swap(&h->e[i], &h->e[m]);
		i = m;
	}
}

/* Switch pair sp weighed now, into the heap when it gains anything. */
static int weigh(struct cxd_cover_work *w, int sp)
{
	struct cxd_cover_heap *h = w->heap;
	struct ent x = { .sp = sp, .ver = h->ver[sp], .step = h->step };

	x.g = h->tell ? cxd_cover_sp_split_best(w, sp, &x.a, &x.b) :
			cxd_cover_sp_best(w, sp, &x.a, &x.b);
	return x.g > EPS ? push(h, &x) : 0;
}

static int build(struct cxd_cover_work *w, bool tell)
{
	struct cxd_cover_heap *h = calloc(1, sizeof(*h));
	int ret = 0;

	w->heap = h;
	if (!h)
		return -ENOMEM;
	h->tell = tell;
	if (tell)
		cxd_cover_nic_bounds(w, true);
	h->ver = calloc(nsp(w) + 1, sizeof(int) + 1);
	if (!h->ver)
		return -ENOMEM;
	h->risen = (unsigned char *) (h->ver + nsp(w) + 1);
	for (int sp = 0; ret == 0 && sp < (int) nsp(w); sp++)
		ret = weigh(w, sp);
	return ret;
}

/* The switch pairs whose gain rose, weighed again: their entries in
 * the heap (too low now) no longer current. */
static int rises(struct cxd_cover_work *w)
{
	struct cxd_cover_heap *h = w->heap;
	int ret = 0;

	for (size_t i = 0; i < h->nrise; i++) {
		int sp = h->rise[i];

		h->risen[sp] = 0;
		h->ver[sp]++;
		if (ret == 0)
			ret = weigh(w, sp);
	}
	h->nrise = 0;
	return ret;
}

/* The heap's top, current and weighed this step; NULL when dry. */
static struct ent *top(struct cxd_cover_work *w, int *ret)
{
	struct cxd_cover_heap *h = w->heap;

	while (h->n > 0 && *ret == 0) {
		struct ent x = h->e[0];

		if (x.ver == h->ver[x.sp] && x.step == h->step)
			return &h->e[0];
		pop(h);
		if (x.ver == h->ver[x.sp])
			*ret = weigh(w, x.sp);
	}
	return NULL;
}

int cxd_cover_pick_lazy(struct cxd_cover_work *w, struct cxd_cover_best *bt,
			bool tell)
{
	int ret = w->heap ? 0 : build(w, tell);
	struct ent *x;

	if (ret)
		return ret;
	w->heap->step++;
	ret = rises(w);
	x = top(w, &ret);
	if (ret)
		return ret;
	if (x) {
		*bt = (struct cxd_cover_best){ x->g, x->sp, x->a, x->b };
		return 0;
	}
	/* dry: one full weighing says whether anything was missed */
	if (tell)
		cxd_cover_pick_split(w, bt);
	else
		cxd_cover_pick_cover(w, bt);
	if (bt->sp < 0)
		return 0;
	cxd_cover_lazy_free(w);
	return build(w, tell);
}

static void rise_sp(struct cxd_cover_heap *h, int sp)
{
	if (h->risen[sp] ||
	    cxd_grow((void **) &h->rise, &h->rcap, h->nrise + 1, sizeof(int)))
		return; /* no room: a missed rise is found when dry */
	h->risen[sp] = 1;
	h->rise[h->nrise++] = sp;
}

void cxd_cover_lazy_rise(struct cxd_cover_work *w, int c)
{
	struct cxd_cover_heap *h = w->heap;
	int i = 0;

	if (!h)
		return;
	if (c >= w->n) {
		for (size_t k = w->in_at[c]; k < w->in_at[c + 1]; k++)
			rise_sp(h, w->in_sp[k]);
		return;
	}
	/* a NIC: every switch pair of its switch */
	while (i < w->nused && w->used[i] != w->tm->switch_of[c])
		i++;
	for (int j = 0; i < w->nused && j < w->nused; j++)
		rise_sp(h, i < j ? i * w->nused + j : j * w->nused + i);
}

void cxd_cover_lazy_free(struct cxd_cover_work *w)
{
	struct cxd_cover_heap *h = w->heap;

	w->heap = NULL;
	if (!h)
		return;
	free(h->e);
	free(h->ver); /* risen lies in the same block */
	free(h->rise);
	free(h);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's rounds (plan_cover_rounds.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "pack_rounds.h"
#include "plan_cover_rounds.h"

struct order {
	int nl, i;
};

static bool is_link(const struct cxd_cover_work *w, int c)
{
	return c >= w->n && c < w->n + w->tm->nlink;
}

/* Most links first; then as chosen (the sort is not stable). */
static int by_links(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->nl != b->nl)
		return a->nl > b->nl ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* The pairs in the order they are fitted. */
static int sorted(const struct cxd_cover_work *w, int *q)
{
	struct order *o = malloc(((size_t) w->npair + 1) * sizeof(*o));

	if (!o)
		return -ENOMEM;
	for (int i = 0; i < w->npair; i++) {
		int sp = w->pair_sp[i];

		o[i] = (struct order){ 0, i };
		for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++)
			o[i].nl += is_link(w, w->x[e].comp);
	}
	qsort(o, (size_t) w->npair, sizeof(*o), by_links);
	for (int i = 0; i < w->npair; i++)
		q[i] = o[i].i;
	free(o);
	return 0;
}

/* What the packing reads (pack_rounds.h), made from w: the pairs, their
 * switch pairs as classes, the crossings that are links with their
 * shares, each link line's count as its cap. */
struct input {
	struct cxd_pair *pair;
	int *x_link;
	double *x_load, *cap;
};

static int input_make(const struct cxd_cover_work *w, struct input *in)
{
	in->pair = malloc(((size_t) w->npair + 1) * sizeof(*in->pair));
	in->x_link = malloc((w->nx + 1) * sizeof(int));
	in->x_load = malloc((w->nx + 1) * sizeof(double));
	in->cap = malloc(((size_t) w->tm->nlink + 1) * sizeof(double));
	if (!in->pair || !in->x_link || !in->x_load || !in->cap)
		return -ENOMEM;
	for (int i = 0; i < w->npair; i++)
		in->pair[i] = (struct cxd_pair){ w->pair[i].a, w->pair[i].b };
	for (size_t e = 0; e < w->nx; e++) {
		in->x_link[e] = is_link(w, w->x[e].comp) ?
				w->x[e].comp - w->n : -1;
		in->x_load[e] = w->x[e].p;
	}
	for (int l = 0; l < w->tm->nlink; l++)
		in->cap[l] = w->tm->link[l].count;
	return 0;
}

int cxd_cover_rounds(const struct cxd_cover_work *w, int *ord,
		     int *round_at, int *nround)
{
	int *q = malloc(((size_t) w->npair + 1) * sizeof(int));
	struct input in = { NULL, NULL, NULL, NULL };
	int ret = q ? input_make(w, &in) : -ENOMEM;

	if (ret == 0)
		ret = sorted(w, q);
	if (ret == 0) {
		const struct cxd_pack pk = {
			.n = w->n, .npair = w->npair, .pair = in.pair,
			.cls = w->pair_sp, .x_at = w->x_at,
			.x_link = in.x_link, .x_load = in.x_load,
			.ncls = w->nused * w->nused, .nlink = w->tm->nlink,
			.cap = in.cap };

		ret = cxd_pack_rounds(&pk, q, ord, round_at, nround);
	}
	free(q);
	free(in.pair);
	free(in.x_link);
	free(in.x_load);
	free(in.cap);
	return ret;
}

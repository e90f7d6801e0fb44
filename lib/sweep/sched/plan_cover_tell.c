/* SPDX-License-Identifier: BSD-3-Clause */
/* What a covering plan tells apart (plan_cover_tell.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cover_tell.h"

/* One union of two components' signatures, by its hash. */
struct uni {
	uint64_t h;
	int x, y;
};

/* The covered components' signatures as bit sets of the pairs. */
struct sigs {
	int nc;      /* covered components */
	size_t nw;   /* words a set */
	uint64_t *b; /* nc * nw */
};

static int class_ids(const struct cxd_cover_work *w,
		     struct cxd_cover_plan *p, int *map)
{
	for (int c = 0; c < w->ncomp; c++)
		map[c] = -1;
	p->ncls = 0;
	for (int c = 0; c < p->ncomp; c++) {
		if (p->comp[c].sure == 0) {
			p->comp[c].cls = -1;
			continue;
		}
		if (map[w->cls[c]] < 0)
			map[w->cls[c]] = p->ncls++;
		p->comp[c].cls = map[w->cls[c]];
	}
	p->cls_at = calloc((size_t) p->ncls + 2, sizeof(int));
	p->member = malloc(((size_t) p->ncomp + 1) * sizeof(int));
	return p->cls_at && p->member ? 0 : -ENOMEM;
}

int cxd_cover_classes(const struct cxd_cover_work *w,
		      struct cxd_cover_plan *p)
{
	int *map = malloc(((size_t) w->ncomp + 1) * sizeof(int));
	int ret = map ? class_ids(w, p, map) : -ENOMEM;

	if (ret) {
		free(map);
		return ret;
	}
	/* map turns into each class's fill count */
	for (int c = 0; c < p->ncomp; c++)
		if (p->comp[c].cls >= 0)
			p->cls_at[p->comp[c].cls + 1]++;
	for (int i = 0; i < p->ncls; i++) {
		int size = p->cls_at[i + 1];

		p->nalike += size > 1;
		p->identifiable_one += size == 1;
		p->cls_at[i + 1] += p->cls_at[i];
		map[i] = 0;
	}
	for (int c = 0; c < p->ncomp; c++) {
		int k = p->comp[c].cls;

		if (k >= 0)
			p->member[p->cls_at[k] + map[k]++] = c;
	}
	free(map);
	return 0;
}

static int sigs_make(const struct cxd_cover_plan *p, struct sigs *s,
		     int *row)
{
	s->nc = 0;
	for (int c = 0; c < p->ncomp; c++)
		row[c] = p->comp[c].sure > 0 ? s->nc++ : -1;
	s->nw = ((size_t) p->npair + 63) / 64;
	s->b = calloc((size_t) s->nc * s->nw + 1, sizeof(uint64_t));
	if (!s->b)
		return -ENOMEM;
	for (int i = 0; i < p->npair; i++)
		for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++) {
			size_t at = (size_t) row[p->sure[e]] * s->nw;

			s->b[at + (size_t) i / 64] |= (uint64_t) 1 << (i % 64);
		}
	return 0;
}

/* Word i of the union of x's and y's signatures. */
static uint64_t word(const struct sigs *s, int x, int y, size_t i)
{
	return s->b[(size_t) x * s->nw + i] | s->b[(size_t) y * s->nw + i];
}

static uint64_t hash(const struct sigs *s, int x, int y)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a over the words */

	for (size_t i = 0; i < s->nw; i++)
		h = (h ^ word(s, x, y, i)) * 1099511628211ULL;
	return h;
}

static int by_hash(const void *a, const void *b)
{
	const struct uni *u = a, *v = b;

	return (u->h > v->h) - (u->h < v->h);
}

static bool same(const struct sigs *s, const struct uni *u,
		 const struct uni *v)
{
	for (size_t i = 0; i < s->nw; i++)
		if (word(s, u->x, u->y, i) != word(s, v->x, v->y, i))
			return false;
	return true;
}

/* 1 when every union differs, 0 when two are the same. */
static int unions_differ(const struct sigs *s, struct uni *u, size_t nu)
{
	size_t k = 0;

	for (int x = 0; x < s->nc; x++)
		for (int y = x + 1; y < s->nc; y++)
			u[k++] = (struct uni){ hash(s, x, y), x, y };
	qsort(u, nu, sizeof(*u), by_hash);
	for (size_t i = 0; i < nu; i++)
		for (size_t j = i + 1; j < nu && u[j].h == u[i].h; j++)
			if (same(s, &u[i], &u[j]))
				return 0;
	return 1;
}

/* 1, 0, -1 or -ENOMEM, as cxd_cover_two, from the signatures. */
static int two_of(const struct sigs *s, int nalike)
{
	size_t nu = (size_t) s->nc * (size_t) (s->nc > 0 ? s->nc - 1 : 0) / 2;
	struct uni *u;
	int ret;

	if (nalike > 0 && s->nc >= 3)
		return 0; /* x, y alike: {x, z} and {y, z} look the same */
	if (nu > (size_t) CXD_COVER_TWO_MAX)
		return -1;
	u = malloc((nu + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	ret = unions_differ(s, u, nu);
	free(u);
	return ret;
}

int cxd_cover_two(const struct cxd_cover_plan *p)
{
	struct sigs s = { 0 };
	int *row = malloc(((size_t) p->ncomp + 1) * sizeof(int));
	int ret = row ? sigs_make(p, &s, row) : -ENOMEM;

	if (ret == 0)
		ret = two_of(&s, p->nalike);
	free(s.b);
	free(row);
	return ret;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Naming suspects over the routes: the bookkeeping (judge_route_types.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "judge_route_types.h"

static int pairs(struct rstate *s)
{
	const struct cover *c = s->c;
	int ns = c->ns, k = 0;

	for (int a = 0; a < ns; a++)
		for (int b = a + 1; b < ns; b++)
			k += c->links[a * ns + b] > 0;
	s->pa = malloc(((size_t) k + 1) * sizeof(int));
	s->pb = malloc(((size_t) k + 1) * sizeof(int));
	s->n = malloc(((size_t) k + 1) * sizeof(double));
	s->bad = malloc(((size_t) k + 1) * sizeof(double));
	s->pred = calloc((size_t) k + 1, sizeof(double));
	s->covered = calloc(s->rt.nway + 1, sizeof(bool));
	if (!s->pa || !s->pb || !s->n || !s->bad || !s->pred || !s->covered)
		return -ENOMEM;
	for (int a = 0; a < ns; a++)
		for (int b = a + 1; b < ns; b++) {
			if (c->links[a * ns + b] <= 0)
				continue;
			s->pa[s->np] = a;
			s->pb[s->np] = b;
			s->n[s->np] = c->links[a * ns + b];
			s->bad[s->np++] = c->bad[a * ns + b];
		}
	return 0;
}

int cxd_route_state(struct rstate *s)
{
	int ret = cxd_routes_build(s->c->topo, s->c->n, &s->rt);

	if (ret)
		return ret;
	s->mark = calloc((size_t) s->c->topo->nlink + 1, 1);
	return s->mark ? pairs(s) : -ENOMEM;
}

void cxd_route_state_free(struct rstate *s)
{
	cxd_routes_free(&s->rt);
	free(s->pa);
	free(s->pb);
	free(s->n);
	free(s->bad);
	free(s->pred);
	free(s->covered);
	free(s->mark);
	free(s->cand);
	free(s->ent);
}

int cxd_route_grow(struct rstate *s, size_t ncand, size_t nent)
{
	if (cxd_grow((void **) &s->cand, &s->ccap, ncand, sizeof(*s->cand)) ||
	    cxd_grow((void **) &s->ent, &s->ecap, nent, sizeof(*s->ent)))
		return -ENOMEM;
	return 0;
}

/* Do x and y carry the same pairs in the same shares? */
static bool same_pairs(const struct rstate *s, const struct rcand *x,
		       const struct rcand *y)
{
	if (x->n != y->n)
		return false;
	for (size_t i = 0; i < x->n; i++) {
		const struct rent *a = &s->ent[x->first + i];
		const struct rent *b = &s->ent[y->first + i];

		if (a->pair != b->pair || fabs(a->f - b->f) > 1e-9)
			return false;
	}
	return true;
}

/* A link's suspect names its two switches. */
static void ids(const struct rstate *s, const struct rcand *x, int *id,
		int *id2)
{
	const struct cxd_topo_link *l = &s->c->topo->link[x->id];

	*id = x->kind == CXD_S_LINK ? l->a : x->id;
	*id2 = x->kind == CXD_S_LINK ? l->b : x->id2;
}

static void alike(const struct rstate *s, const struct rcand *x,
		  struct cxd_suspect *out)
{
	for (size_t i = 0; i < s->ncand; i++) {
		const struct rcand *y = &s->cand[i];
		int id, id2;

		/* a switch and its links of one kind: the switch is meant */
		if (y == x || !same_pairs(s, x, y) ||
		    (y->kind == CXD_S_SWITCH && x->kind == CXD_S_SWITCH &&
		     y->id == x->id))
			continue;
		ids(s, y, &id, &id2);
		if (out->nalike < CXD_SUSPECT_ALIKE)
			out->alike[out->nalike++] = (struct cxd_alike){
				y->kind, id, id2 };
	}
}

void cxd_route_name(struct rstate *s, const struct rcand *x)
{
	struct cover *c = s->c;
	struct cxd_suspect out;
	int id, id2;

	ids(s, x, &id, &id2);
	/* a link, or a switch no rank sits on (a spine): no ends' counts */
	if (x->kind == CXD_S_LINK ||
	    (x->kind == CXD_S_SWITCH && id >= c->ns))
		out = (struct cxd_suspect){ .kind = x->kind, .metric = c->m,
					    .id = id, .id2 = id2 };
	else
		cxd_judge_cover_suspect(c, x->kind, id, id2, &out);
	out.routed = true;
	out.bad = (int) lround(x->explain);
	out.links = (int) lround(x->expect);
	out.nalike = 0;
	alike(s, x, &out);
	cxd_judge_cover_put(c, &out);
	for (int r = 0; x->kind == CXD_S_SWITCH && r < c->n; r++)
		if (c->topo->switch_of[r] == id)
			c->covered[r] = true;
}

void cxd_route_left(struct rstate *s)
{
	struct cover *c = s->c;
	int ns = c->ns;

	for (int p = 0; p < s->np; p++) {
		double left = fmax(0.0, s->bad[p] - s->pred[p] * s->n[p]);

		c->bad[s->pa[p] * ns + s->pb[p]] = left;
		c->bad[s->pb[p] * ns + s->pa[p]] = left;
	}
}

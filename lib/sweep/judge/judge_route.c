/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects over the routes (judge_route.h). For each component X and
 * each two switches a, b: f, the share of the pairs between them whose
 * way crosses X; a fault in X makes about f of those pairs outliers.
 * The named components predict each switch pair's share out (its ways
 * crossing any of them); the next named is the one that brings that
 * prediction closest to what was measured, outliers newly explained
 * less good links newly called out, and only when most of what it would
 * newly call out was measured out (good pairs through it speak for it).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/model/route.h"
#include "judge_route.h"
#include "judge_route_types.h"

/* Share of measured pair p's ways that cross a marked link (fresh:
 * only those no named component crosses yet). */
static double marked_share(const struct rstate *s, int p, bool fresh)
{
	size_t nw;
	const struct cxd_way *w = cxd_routes_ways(&s->rt, s->pa[p], s->pb[p],
						  &nw);
	size_t first = (size_t) (w - s->rt.way);
	double f = 0;

	for (size_t i = 0; i < nw; i++) {
		if (fresh && s->covered[first + i])
			continue;
		for (int h = 0; h < w[i].len; h++)
			if (s->mark[s->rt.hop[w[i].first + (size_t) h]]) {
				f += w[i].share;
				break;
			}
	}
	return f;
}

/* The component whose links are marked: its pairs and counts. */
static int add_cand(struct rstate *s, enum cxd_suspect_kind kind, int id,
		    int id2)
{
	struct rcand *x;

	if (cxd_route_grow(s, s->ncand + 1, s->nent + (size_t) s->np))
		return -ENOMEM;
	x = &s->cand[s->ncand];
	*x = (struct rcand){ .kind = kind, .id = id, .id2 = id2,
			     .first = s->nent };
	for (int p = 0; p < s->np; p++) {
		double f = marked_share(s, p, false);

		if (f < 1e-12)
			continue;
		s->ent[s->nent++] = (struct rent){ p, f };
		x->expect += f * s->n[p];
		x->explain += fmin(s->bad[p], f * s->n[p]);
	}
	x->n = s->nent - x->first;
	if (x->n > 0)
		s->ncand++;
	else
		s->nent = x->first;
	return 0;
}

static int group_of(const struct rstate *s, int a)
{
	const int *sg = s->c->topo->switch_group;

	return sg ? sg[a] : -1;
}

/* Does switch id's component (id2: which of its links) hold link l? */
static bool switch_holds(const struct rstate *s, int l, int id, int id2)
{
	const struct cxd_topo_link *k = &s->c->topo->link[l];
	bool across = group_of(s, k->a) != group_of(s, k->b);

	if (k->a != id && k->b != id)
		return false;
	return id2 == CXD_SWL_ALL || across == (id2 == CXD_SWL_GLOBAL);
}

/* Mark the links a component holds: one link line, a switch's (all, or
 * those of one kind), the links between groups g and h, or (h < 0)
 * those leaving group g. */
static void mark(struct rstate *s, enum cxd_suspect_kind kind, int id,
		 int id2)
{
	const struct cxd_topo_map *tm = s->c->topo;

	for (int l = 0; l < tm->nlink; l++) {
		int a = tm->link[l].a, b = tm->link[l].b;
		int ga = group_of(s, a), gb = group_of(s, b);

		s->mark[l] = kind == CXD_S_LINK ? l == id :
			     kind == CXD_S_SWITCH ? switch_holds(s, l, id, id2) :
			     ga < 0 || gb < 0 || ga == gb ? 0 :
			     kind == CXD_S_BUNDLE ?
			     (ga == id && gb == id2) || (ga == id2 && gb == id) :
			     ga == id || gb == id;
	}
}

/* Has switch a links inside its group and links to other groups? */
static bool both_kinds(const struct rstate *s, int a)
{
	bool in = false, out = false;

	for (int l = 0; l < s->c->topo->nlink; l++) {
		in = in || switch_holds(s, l, a, CXD_SWL_LOCAL);
		out = out || switch_holds(s, l, a, CXD_SWL_GLOBAL);
	}
	return in && out;
}

/* Switch a's links by kind, each a component of its own. */
static int switch_parts(struct rstate *s, int a)
{
	int ret;

	mark(s, CXD_S_SWITCH, a, CXD_SWL_GLOBAL);
	ret = add_cand(s, CXD_S_SWITCH, a, CXD_SWL_GLOBAL);
	if (ret == 0) {
		mark(s, CXD_S_SWITCH, a, CXD_SWL_LOCAL);
		ret = add_cand(s, CXD_S_SWITCH, a, CXD_SWL_LOCAL);
	}
	return ret;
}

static int candidates(struct rstate *s)
{
	const struct cxd_topo_map *tm = s->c->topo;
	int ng = tm->route == CXD_TOPO_R_MINIMAL ? s->c->ng : 0, ret = 0;

	for (int l = 0; ret == 0 && l < tm->nlink; l++) {
		mark(s, CXD_S_LINK, l, -1);
		ret = add_cand(s, CXD_S_LINK, l, -1);
	}
	for (int a = 0; ret == 0 && a < s->rt.ns; a++) {
		mark(s, CXD_S_SWITCH, a, CXD_SWL_ALL);
		ret = add_cand(s, CXD_S_SWITCH, a, CXD_SWL_ALL);
		if (ret == 0 && ng > 0 && both_kinds(s, a))
			ret = switch_parts(s, a);
	}
	for (int g = 0; ret == 0 && g < ng; g++) {
		mark(s, CXD_S_GROUP, g, -1);
		ret = add_cand(s, CXD_S_GROUP, g, -1);
		for (int h = g + 1; ret == 0 && h < ng; h++) {
			mark(s, CXD_S_BUNDLE, g, h);
			ret = add_cand(s, CXD_S_BUNDLE, g, h);
		}
	}
	return ret;
}

/* How much closer the prediction comes to what was measured with x
 * named: over x's pairs, the outliers it would newly explain less the
 * good links it would newly call bad; *fresh: the links it would newly
 * predict out. */
static double fit_gain(struct rstate *s, const struct rcand *x,
		       double *fresh)
{
	double g = 0;

	mark(s, x->kind, x->id, x->id2);
	*fresh = 0;
	for (size_t i = x->first; i < x->first + x->n; i++) {
		int p = s->ent[i].pair;
		double beta = s->bad[p] / s->n[p], add = marked_share(s, p, true);
		double now = s->pred[p], then = fmin(1.0, now + add);

		g += s->n[p] * (fabs(beta - now) - fabs(beta - then));
		*fresh += s->n[p] * (then - now);
	}
	return g;
}

/* Ties: the better fit per link predicted, the fewer pairs (more
 * specific), the more concrete kind (a link, a switch, a bundle, a
 * group's links). */
static int order(const struct rcand *x)
{
	return x->kind == CXD_S_LINK ? 0 : x->kind == CXD_S_SWITCH ? 1 :
	       x->kind == CXD_S_BUNDLE ? 2 : 3;
}

static bool better(const struct rcand *x, double gx, double fx,
		   const struct rcand *y, double gy, double fy)
{
	double sx = gx / fx, sy = gy / fy;

	if (fabs(gx - gy) > 1e-6 * (gx + gy))
		return gx > gy;
	if (fabs(sx - sy) > 1e-9)
		return sx > sy;
	if (fabs(x->expect - y->expect) > 1e-9)
		return x->expect < y->expect;
	return order(x) < order(y);
}

/* The next component to name, or NULL: the one that brings the
 * prediction closest to the measurement, provided most of what it
 * would newly predict out was measured out (else good pairs through
 * it speak for it). */
static struct rcand *pick(struct rstate *s)
{
	struct rcand *best = NULL;
	double bg = 0, bf = 1;

	for (size_t i = 0; i < s->ncand; i++) {
		struct rcand *x = &s->cand[i];
		double g, fresh;

		if (x->named || x->explain <= 1.5)
			continue;
		g = fit_gain(s, x, &fresh);
		if (g < 1.5 || 2 * g < fresh)
			continue;
		if (best == NULL || better(x, g, fresh, best, bg, bf)) {
			best = x;
			bg = g;
			bf = fresh;
		}
	}
	return best;
}

/* x named: its ways are covered, its pairs' predictions rise. */
static void take_out(struct rstate *s, const struct rcand *x)
{
	mark(s, x->kind, x->id, x->id2);
	for (size_t i = x->first; i < x->first + x->n; i++) {
		int p = s->ent[i].pair;
		size_t nw;
		const struct cxd_way *w = cxd_routes_ways(
			&s->rt, s->pa[p], s->pb[p], &nw);
		size_t first = (size_t) (w - s->rt.way);

		s->pred[p] = fmin(1.0, s->pred[p] + marked_share(s, p, true));
		for (size_t k = 0; k < nw; k++)
			for (int h = 0; h < w[k].len && !s->covered[first + k];
			     h++)
				s->covered[first + k] =
					s->mark[s->rt.hop[w[k].first +
							  (size_t) h]];
	}
}

int cxd_judge_cover_routes(struct cover *c)
{
	struct rstate s = { .c = c };
	int ret = cxd_route_state(&s);

	if (ret == 0)
		ret = candidates(&s);
	for (int k = 0; ret == 0 && k < CXD_ROUTE_MOST_NAMED; k++) {
		struct rcand *x = pick(&s);

		if (x == NULL)
			break;
		x->named = true;
		take_out(&s, x);
		cxd_route_name(&s, x);
	}
	if (ret == 0)
		cxd_route_left(&s);
	cxd_route_state_free(&s);
	return ret ? -1 : 0;
}

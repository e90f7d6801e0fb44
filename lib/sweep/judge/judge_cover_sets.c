/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sets' arithmetic for naming suspects (judge_cover.c): the
 * topology's sizes, each candidate's share of links out, a suspect's
 * counts and the components no measured pair tells apart from it.
 */
#include <stdlib.h>
#include <string.h>

#include "judge_cover_types.h"

static void *zeroed(size_t n, size_t size, int *fail)
{
	void *p = calloc(n + 1, size);

	*fail |= p == NULL;
	return p;
}

/* Ranks per switch, a switch's group (its first rank's), ranks and
 * switches per group. */
static void sizes(struct cover *c)
{
	const struct cxd_topo_map *t = c->topo;

	for (int a = 0; a < c->ns; a++)
		c->gs[a] = -1;
	for (int r = c->n - 1; r >= 0; r--) {
		int a = t->switch_of[r], g = t->group_of[r];

		c->h[a]++;
		c->gs[a] = g >= 0 && g < c->ng ? g : -1;
	}
	for (int a = 0; a < c->ns; a++) {
		c->left[a] = c->h[a];
		if (c->h[a] > 0 && c->gs[a] >= 0) {
			c->gsize[c->gs[a]] += c->h[a];
			c->nsw[c->gs[a]]++;
		}
	}
}

/* The outliers between switches both ways, a switch's own inside. */
static void matrix(struct cover *c)
{
	const int *by = c->t->by_switch[c->m];
	int ns = c->ns;

	for (int a = 0; a < ns; a++)
		for (int b = 0; b < ns; b++)
			c->bad[a * ns + b] = by[a * ns + b] +
					     (a == b ? 0 : by[b * ns + a]);
}

int cxd_judge_cover_init(struct cover *c, const struct cxd_tally *t,
			 const struct cxd_topo_map *topo, enum cxd_metric m)
{
	int fail = 0, ns = topo ? t->nswitch : 0, ng = ns ? t->ngroup : 0;
	size_t s = (size_t) ns, g = (size_t) ng;

	*c = (struct cover){ .t = t, .topo = ns ? topo : NULL, .m = m,
			     .n = t->n, .ns = ns, .ng = ng };
	c->nic = zeroed((size_t) t->n, sizeof(bool), &fail);
	c->covered = zeroed((size_t) t->n, sizeof(bool), &fail);
	c->h = zeroed(s, sizeof(int), &fail);
	c->left = zeroed(s, sizeof(int), &fail);
	c->gs = zeroed(s, sizeof(int), &fail);
	c->gsize = zeroed(g, sizeof(int), &fail);
	c->nsw = zeroed(g, sizeof(int), &fail);
	c->bad = zeroed(s * s, sizeof(double), &fail);
	c->links = zeroed(s * s, sizeof(double), &fail);
	c->row0 = zeroed(s, sizeof(double), &fail);
	c->raw = zeroed(s * s, sizeof(double), &fail);
	c->bad0 = zeroed(s * s, sizeof(double), &fail);
	c->cand = zeroed(s + g + g * g, sizeof(*c->cand), &fail);
	c->score.sbad = zeroed(s, sizeof(double), &fail);
	c->score.slinks = zeroed(s, sizeof(double), &fail);
	c->score.gbad = zeroed(g, sizeof(double), &fail);
	c->score.glinks = zeroed(g, sizeof(double), &fail);
	c->score.bbad = zeroed(g * g, sizeof(double), &fail);
	c->score.blinks = zeroed(g * g, sizeof(double), &fail);
	if (fail)
		return -1;
	if (c->topo) {
		sizes(c);
		matrix(c);
		memcpy(c->raw, c->bad, s * s * sizeof(double));
	}
	return 0;
}

void cxd_judge_cover_free(struct cover *c)
{
	void *all[] = { c->nic, c->covered, c->h, c->left, c->gs, c->gsize,
			c->nsw, c->bad, c->links, c->row0, c->cand,
			c->raw, c->bad0,
			c->score.sbad,
			c->score.slinks, c->score.gbad, c->score.glinks,
			c->score.bbad, c->score.blinks };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
}

void cxd_judge_cover_put(struct cover *c, const struct cxd_suspect *s)
{
	if (*c->k < c->cap)
		c->out[*c->k] = *s;
	(*c->k)++;
}

static void add(double *bad, double *links, int i, double x, double l)
{
	bad[i] += x;
	links[i] += l;
}

void cxd_judge_cover_score(struct cover *c)
{
	struct cover_score *s = &c->score;
	int ns = c->ns, ng = c->ng;

	memset(s->sbad, 0, (size_t) ns * sizeof(double));
	memset(s->slinks, 0, (size_t) ns * sizeof(double));
	memset(s->gbad, 0, (size_t) ng * sizeof(double));
	memset(s->glinks, 0, (size_t) ng * sizeof(double));
	memset(s->bbad, 0, (size_t) ng * ng * sizeof(double));
	memset(s->blinks, 0, (size_t) ng * ng * sizeof(double));
	for (int a = 0; a < ns; a++)
		for (int b = a + 1; b < ns; b++) {
			double x = c->bad[a * ns + b], l = c->links[a * ns + b];
			int ga = c->gs[a], gb = c->gs[b];

			add(s->sbad, s->slinks, a, x, l);
			add(s->sbad, s->slinks, b, x, l);
			if (ga == gb)
				continue;
			if (ga >= 0)
				add(s->gbad, s->glinks, ga, x, l);
			if (gb >= 0)
				add(s->gbad, s->glinks, gb, x, l);
			if (ga >= 0 && gb >= 0)
				add(s->bbad, s->blinks, ga < gb ?
				    ga * ng + gb : gb * ng + ga, x, l);
		}
}

static void alike_add(struct cxd_suspect *s, enum cxd_suspect_kind kind,
		      int id, int id2)
{
	if (s->nalike < CXD_SUSPECT_ALIKE)
		s->alike[s->nalike++] = (struct cxd_alike){ kind, id, id2 };
}

/* The one group holding every rank outside group g; -1: none such. */
static int other_group(const struct cover *c, int g)
{
	int o = -1;

	for (int a = 0; a < c->ns; a++) {
		if (c->h[a] == 0 || c->gs[a] == g)
			continue;
		if (c->gs[a] < 0 || (o >= 0 && o != c->gs[a]))
			return -1;
		o = c->gs[a];
	}
	return o;
}

/* What crosses exactly the measured pairs s crosses: a rank's switch
 * when it is alone on it, a switch's group when it is all of it, and a
 * group's one bundle when a single other group holds the rest. */
static void alike(const struct cover *c, struct cxd_suspect *s)
{
	int a, g, o;

	if (c->topo == NULL)
		return;
	switch (s->kind) {
	case CXD_S_RANK:
		a = c->topo->switch_of[s->id];
		if (c->h[a] != 1)
			return;
		alike_add(s, CXD_S_SWITCH, a, -1);
		g = c->gs[a];
		if (g < 0 || c->gsize[g] != 1)
			return;
		alike_add(s, CXD_S_GROUP, g, -1);
		break;
	case CXD_S_SWITCH:
		g = c->gs[s->id];
		if (g < 0 || c->gsize[g] != c->h[s->id])
			return;
		alike_add(s, CXD_S_GROUP, g, -1);
		break;
	case CXD_S_GROUP:
		g = s->id;
		break;
	default:
		return;
	}
	o = other_group(c, g);
	if (o >= 0)
		alike_add(s, CXD_S_BUNDLE, g < o ? g : o, g < o ? o : g);
}

/* Is switch a in the set (a bundle: on side id or id2)? */
static bool member(const struct cover *c, const struct cxd_suspect *s,
		   int a, bool second)
{
	if (s->kind == CXD_S_SWITCH)
		return a == s->id;
	return c->gs[a] == (second ? s->id2 : s->id);
}

/* A set's outliers and links, from the symmetric switch matrix x with
 * size[a] ranks on switch a: leaving it and inside it (a bundle: between
 * its groups). */
static void set_counts(const struct cover *c, const double *x,
		       const int *size, struct cxd_suspect *s)
{
	bool pair = s->kind == CXD_S_BUNDLE;
	double bad = 0, in = 0;
	int all = 0, mine = 0, other = 0;

	for (int a = 0; a < c->ns; a++) {
		all += size[a];
		mine += member(c, s, a, false) ? size[a] : 0;
		other += pair && member(c, s, a, true) ? size[a] : 0;
		for (int b = a; b < c->ns; b++) {
			bool ia = member(c, s, a, false);
			bool ib = member(c, s, b, pair);
			double v = x[a * c->ns + b];

			if (pair)
				bad += (ia && ib) || (member(c, s, a, true) &&
						      member(c, s, b, false)) ?
				       v : 0;
			else if (ia && ib)
				in += v;
			else if (ia || ib)
				bad += v;
		}
	}
	s->bad = (int) (bad + 0.5);
	s->bad_in = (int) (in + 0.5);
	s->links = 2 * mine * (pair ? other : all - mine);
	s->in = pair ? 0 : mine * (mine - 1);
}

void cxd_judge_cover_suspect(const struct cover *c,
			     enum cxd_suspect_kind kind, int id, int id2,
			     struct cxd_suspect *s)
{
	*s = (struct cxd_suspect){ .kind = kind, .metric = c->m, .id = id,
				   .id2 = id2 };
	if (kind == CXD_S_RANK) {
		s->bad = c->t->rank[c->m][id];
		s->links = 2 * (c->n - 1);
	} else if (c->net) {
		set_counts(c, c->bad0, c->left, s);
		for (int r = 0; r < c->n; r++)
			s->aside += c->nic[r];
	} else {
		set_counts(c, c->raw, c->h, s);
	}
	alike(c, s);
}

/* Suspects of a kind among this metric's named that touch group g. */
static int named_in(const struct cover *c, enum cxd_suspect_kind kind, int g)
{
	int k = 0;

	for (size_t j = c->first; j < *c->k; j++) {
		const struct cxd_suspect *s = &c->out[j];

		k += s->kind == kind && (kind == CXD_S_SWITCH ?
					 c->gs[s->id] == g :
					 s->id == g || s->id2 == g);
	}
	return k;
}

/* The bundles one switch's ports can carry whole: a group's global links
 * to the other groups dealt over its switches, one a pair at least. */
static int per_switch(const struct cover *c, int g)
{
	int groups = 0;

	for (int h = 0; h < c->ng; h++)
		groups += c->gsize[h] > 0;
	return (groups - 1 + c->nsw[g] - 1) / c->nsw[g];
}

void cxd_judge_cover_ports(struct cover *c)
{
	for (int g = 0; g < c->ng && *c->k <= c->cap; g++) {
		int sw = named_in(c, CXD_S_SWITCH, g);
		int nb = named_in(c, CXD_S_BUNDLE, g);
		size_t w = c->first;

		if (sw == 0 || nb < 2 || nb > sw * per_switch(c, g))
			continue;
		for (size_t j = c->first; j < *c->k; j++)
			if (c->out[j].kind != CXD_S_BUNDLE ||
			    (c->out[j].id != g && c->out[j].id2 != g))
				c->out[w++] = c->out[j];
		*c->k = w;
	}
}

/* Does group g's every switch stand among out[from, to)? */
static bool all_named(const struct cover *c, int g, size_t to)
{
	int named = 0;

	for (size_t j = c->first; j < to; j++)
		named += c->out[j].kind == CXD_S_SWITCH &&
			 c->gs[c->out[j].id] == g;
	return named >= c->nsw[g];
}

void cxd_judge_cover_groups(struct cover *c)
{
	struct cxd_suspect s;

	for (int g = 0; g < c->ng && *c->k <= c->cap; g++) {
		size_t w = c->first;

		if (c->nsw[g] < 2 || !all_named(c, g, *c->k))
			continue;
		for (size_t j = c->first; j < *c->k; j++)
			if (c->out[j].kind != CXD_S_SWITCH ||
			    c->gs[c->out[j].id] != g)
				c->out[w++] = c->out[j];
		*c->k = w;
		cxd_judge_cover_suspect(c, CXD_S_GROUP, g, -1, &s);
		cxd_judge_cover_put(c, &s);
	}
}

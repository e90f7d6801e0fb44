/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects from the outliers: an admin drains a node or replaces a cable,
 * so the report names the one thing most links point at (a rank, a
 * switch, a group, or the whole fabric) rather than every pair.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "judge_kinds.h"
#include "judge_suspects.h"

int cxd_judge_tally_init(struct cxd_tally *t, int n,
			 const struct cxd_topo_map *topo)
{
	size_t ns = topo ? (size_t) topo->nswitch : 0;
	size_t ng = topo ? (size_t) topo->ngroup : 0;
	size_t per = (size_t) n + ns * ns + ng * ng;
	int *all = calloc(2 * per + 1, sizeof(int));

	*t = (struct cxd_tally){ n, (int) ns, (int) ng, { 0 }, { 0 },
				 { 0 } };
	if (all == NULL)
		return -ENOMEM;
	for (int m = 0; m < 2; m++) {
		t->rank[m] = all + m * per;
		t->by_switch[m] = t->rank[m] + n;
		t->by_group[m] = t->by_switch[m] + ns * ns;
	}
	return 0;
}

void cxd_judge_tally_add(struct cxd_tally *t, const struct cxd_topo_map *topo,
			 const struct cxd_outlier *o)
{
	int m = o->metric;
	const int *sof = topo ? topo->switch_of : NULL;
	const int *gof = topo ? topo->group_of : NULL;

	t->rank[m][o->src]++;
	t->rank[m][o->dst]++;
	if (topo && t->nswitch && sof[o->src] >= 0 && sof[o->dst] >= 0)
		t->by_switch[m][sof[o->src] * t->nswitch + sof[o->dst]]++;
	if (topo && t->ngroup && gof[o->src] >= 0 && gof[o->dst] >= 0)
		t->by_group[m][gof[o->src] * t->ngroup + gof[o->dst]]++;
}

int *cxd_judge_tally_counts(struct cxd_tally *t, size_t *len)
{
	*len = 2 * ((size_t) t->n + (size_t) t->nswitch * t->nswitch +
		    (size_t) t->ngroup * t->ngroup);
	return t->rank[0];
}

void cxd_judge_tally_free(struct cxd_tally *t)
{
	free(t->rank[0]);
	t->rank[0] = NULL;
}

/* The outlying links of a set: leaving it (one end inside) and inside it;
 * a set is a rank, or the ranks of switch or group id. */
static void count_set(const struct cxd_tally *t, enum cxd_metric m,
		      enum cxd_suspect_kind kind, int id, int size,
		      struct cxd_suspect *s)
{
	const int *c = kind == CXD_S_SWITCH ? t->by_switch[m] : t->by_group[m];
	int k = kind == CXD_S_SWITCH ? t->nswitch : t->ngroup;

	s->links = 2 * size * (t->n - size);
	s->in = size * (size - 1);
	s->bad = s->bad_in = 0;
	if (kind == CXD_S_RANK) {
		s->bad = t->rank[m][id];
		return;
	}
	for (int b = 0; b < k; b++)
		if (b != id)
			s->bad += c[id * k + b] + c[b * k + id];
	s->bad_in = c[id * k + id];
}

/* Most of its links out: a strict majority, at least two. */
static bool mostly_out(const struct cxd_suspect *s)
{
	return s->bad >= 2 && 2 * s->bad > s->links;
}

static void mask_of(const int *idx, int id, int n, bool *in)
{
	for (int i = 0; i < n; i++)
		in[i] = idx[i] == id;
}

struct ctx {
	const struct cxd_tally *t;
	int n;
	enum cxd_metric m;
	bool *in, *covered;
	struct cxd_suspect *out;
	size_t cap, k;
};

static void add(struct ctx *c, const struct cxd_suspect *s)
{
	for (int i = 0; i < c->n; i++)
		c->covered[i] |= c->in[i];
	if (c->k < c->cap)
		c->out[c->k] = *s;
	c->k++;
}

/* Sets of two ranks or more (switches or groups) mostly cut off, whose
 * ranks are not named yet; want: the sets' own suspect flags or NULL. */
static void sets(struct ctx *c, enum cxd_suspect_kind kind, const int *idx,
		 int nset, bool *flag)
{
	for (int id = 0; id < nset; id++) {
		struct cxd_suspect s = { kind, c->m, id, 0, 0, 0, 0, -1 };
		int size = 0, fresh = 0;

		mask_of(idx, id, c->n, c->in);
		for (int i = 0; i < c->n; i++) {
			size += c->in[i];
			fresh += c->in[i] && !c->covered[i];
		}
		if (size < 2 || 2 * size >= c->n || fresh == 0)
			continue;
		count_set(c->t, c->m, kind, id, size, &s);
		if (!mostly_out(&s))
			continue;
		if (flag)
			flag[id] = true;
		add(c, &s);
	}
}

/* A group all of whose switches (two or more) are suspect replaces them:
 * its links to other groups are the common factor. */
static void groups(struct ctx *c, const struct cxd_topo_map *t,
		   const bool *sw_bad, size_t first_sw)
{
	for (int g = 0; g < t->ngroup; g++) {
		int sws = 0, bad = 0;

		for (int s = 0; s < t->nswitch; s++) {
			bool has = false;

			for (int i = 0; i < c->n; i++)
				has |= t->group_of[i] == g &&
				       t->switch_of[i] == s;
			sws += has;
			bad += has && sw_bad[s];
		}
		if (sws < 2 || bad < sws)
			continue;
		/* Drop the group's switches, name the group. */
		size_t w = first_sw;

		for (size_t j = first_sw; j < c->k && j < c->cap; j++) {
			int r = 0;

			while (r < c->n && t->switch_of[r] != c->out[j].id)
				r++;
			if (r < c->n && t->group_of[r] == g)
				continue;
			c->out[w++] = c->out[j];
		}
		c->k = w;
		struct cxd_suspect s = { CXD_S_GROUP, c->m, g, 0, 0, 0, 0, -1 };

		int size = 0;

		mask_of(t->group_of, g, c->n, c->in);
		for (int i = 0; i < c->n; i++)
			size += c->in[i];
		count_set(c->t, c->m, CXD_S_GROUP, g, size, &s);
		add(c, &s);
	}
}

static void ranks(struct ctx *c)
{
	for (int r = 0; r < c->n; r++) {
		struct cxd_suspect s = { CXD_S_RANK, c->m, r, 0, 0, 0, 0, -1 };

		if (c->covered[r])
			continue;
		memset(c->in, 0, (size_t) c->n * sizeof(bool));
		c->in[r] = true;
		count_set(c->t, c->m, CXD_S_RANK, r, 1, &s);
		if (mostly_out(&s) || (c->n == 2 && s.bad == 2))
			add(c, &s);
	}
}

/* The links between two groups mostly out while neither group holds a
 * suspect switch or is one: the global links between them (a bundle),
 * which no node's drain would mend. Each group pair's links both ways:
 * 2 x na x nb. (A suspect switch's global ports are part of its group's
 * bundles: it is named, not they.) */
static void bundles(struct ctx *c, const struct cxd_topo_map *t,
		    bool *grp_named)
{
	int k = c->t->ngroup, *size = calloc((size_t) k + 1, sizeof(int));
	const int *g = c->t->by_group[c->m];

	if (size == NULL)
		return;
	for (int i = 0; i < c->n; i++)
		if (t->group_of[i] >= 0 && t->group_of[i] < k) {
			size[t->group_of[i]]++;
			grp_named[t->group_of[i]] |= c->covered[i];
		}
	for (int a = 0; a < k; a++)
		for (int b = a + 1; b < k; b++) {
			struct cxd_suspect s = { CXD_S_BUNDLE, c->m, a, 0,
						 2 * size[a] * size[b], 0, 0,
						 b };

			if (grp_named[a] || grp_named[b] || !s.links)
				continue;
			s.bad = g[a * k + b] + g[b * k + a];
			if (!mostly_out(&s))
				continue;
			if (c->k < c->cap)
				c->out[c->k] = s;
			c->k++;
		}
	free(size);
}

/* Half the ranks or more under suspicion: not a node but a change that
 * touched everything (firmware, settings, cabling, a baseline from
 * another system). */
static void fabric(struct ctx *c, size_t first)
{
	int named = 0;
	long long ends = 0;
	int bad;

	for (int i = 0; i < c->n; i++) {
		named += c->covered[i];
		ends += c->t->rank[c->m][i];
	}
	if (c->n < 3 || 2 * named < c->n)
		return;
	bad = (int) (ends / 2); /* each link counted at both its ends */
	c->k = first;
	if (c->k < c->cap)
		c->out[c->k] = (struct cxd_suspect){ CXD_S_FABRIC, c->m, 0, bad,
						     c->n * (c->n - 1), 0, 0,
						     -1 };
	c->k++;
}

static void one_metric(struct ctx *c, const struct cxd_topo_map *t)
{
	size_t first = c->k;

	memset(c->covered, 0, (size_t) c->n * sizeof(bool));
	if (t != NULL && t->nswitch > 0) {
		bool *sw_bad = calloc((size_t) t->nswitch, sizeof(bool));

		if (sw_bad != NULL) {
			sets(c, CXD_S_SWITCH, t->switch_of, t->nswitch, sw_bad);
			groups(c, t, sw_bad, first);
			free(sw_bad);
		}
	}
	if (t != NULL && t->ngroup > 0) {
		bool *named = calloc((size_t) t->ngroup, sizeof(bool));

		sets(c, CXD_S_GROUP, t->group_of, t->ngroup, named);
		for (size_t j = first; named && j < c->k && j < c->cap; j++)
			if (c->out[j].kind == CXD_S_GROUP)
				named[c->out[j].id] = true;
		if (named)
			bundles(c, t, named);
		free(named);
	}
	ranks(c);
	fabric(c, first);
}

size_t cxd_judge_suspects_tally(const struct cxd_tally *t,
				const struct cxd_topo_map *topo,
				struct cxd_suspect *out, size_t cap)
{
	struct ctx c = { t, t->n, CXD_M_BW, NULL, NULL, out, cap, 0 };

	c.in = calloc((size_t) t->n + 1, sizeof(bool));
	c.covered = calloc((size_t) t->n + 1, sizeof(bool));
	if (c.in && c.covered) {
		one_metric(&c, topo);
		c.m = CXD_M_LAT;
		one_metric(&c, topo);
	}
	free(c.in);
	free(c.covered);
	return c.k;
}

size_t cxd_judge_suspects(const struct cxd_outlier *o, size_t nout, int n,
			  const struct cxd_topo_map *topo,
			  struct cxd_suspect *out, size_t cap)
{
	struct cxd_tally t;
	size_t k;

	if (cxd_judge_tally_init(&t, n, topo) != 0)
		return 0;
	for (size_t i = 0; i < nout; i++)
		cxd_judge_tally_add(&t, topo, &o[i]);
	k = cxd_judge_suspects_tally(&t, topo, out, cap);
	cxd_judge_tally_free(&t);
	return k;
}

/* The set of rank r at a level of the topology; -1: none. */
static int set_of(const struct cxd_topo_map *topo, enum cxd_suspect_level l,
		  int r)
{
	if (topo == NULL || l == CXD_LEVEL_NONE)
		return -1;
	return l == CXD_LEVEL_SWITCH ? topo->switch_of[r] : topo->group_of[r];
}

bool cxd_judge_link_suspect(const struct cxd_suspect *s, size_t ns,
			    int src, int dst, const struct cxd_topo_map *topo)
{
	for (size_t i = 0; i < ns; i++) {
		const struct cxd_suspect_row *row = cxd_judge_kind(s[i].kind);
		int ga = set_of(topo, row->level, src);
		int gb = set_of(topo, row->level, dst);

		if (row->shape == CXD_SHAPE_ALL ||
		    cxd_judge_rank_suspect(&s[i], 1, src, topo) ||
		    cxd_judge_rank_suspect(&s[i], 1, dst, topo))
			return true;
		if (row->shape == CXD_SHAPE_PAIR && ga >= 0 && gb >= 0 &&
		    ((ga == s[i].id && gb == s[i].id2) ||
		     (ga == s[i].id2 && gb == s[i].id)))
			return true;
	}
	return false;
}

bool cxd_judge_rank_suspect(const struct cxd_suspect *s, size_t ns, int r,
			    const struct cxd_topo_map *topo)
{
	for (size_t i = 0; i < ns; i++) {
		const struct cxd_suspect_row *row = cxd_judge_kind(s[i].kind);

		/* a pair or the fabric: no one node to drain */
		if (!row->drain)
			continue;
		if (row->shape == CXD_SHAPE_RANK ? s[i].id == r :
		    set_of(topo, row->level, r) == s[i].id)
			return true;
	}
	return false;
}

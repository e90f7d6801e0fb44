/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Several faults at once, named one by one, the way fault localizers do
 * (NetBouncer, 007): components first (a NIC: its rank out to nearly
 * everyone, its own switch's ranks included), then the fewest switches,
 * groups and bundles of global links that explain the outliers left
 * (greedy set cover). Each candidate is scored by the share of its own
 * links that are out, not by how many outliers it would take: a group
 * holding one bad switch and one bad bundle covers them all, yet its
 * other switches and bundles are fine, and naming it would send the
 * admin to the wrong cables; the switch and the bundle score higher and
 * leave it nothing of its own to explain.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "judge_cover.h"
#include "judge_cover_types.h"
#include "judge_route.h"

/* Most of its links out: a strict majority, at least two. */
static bool mostly(double bad, double links)
{
	return bad > 1.5 && 2 * bad > links;
}

/* The ranks a drainable suspect stands for are covered. */
static void cover_set(struct cover *c, enum cxd_suspect_kind kind, int id)
{
	for (int r = 0; r < c->n; r++)
		if (kind == CXD_S_RANK ? r == id :
		    kind == CXD_S_SWITCH ? c->topo->switch_of[r] == id :
		    c->topo->group_of[r] == id)
			c->covered[r] = true;
}

/* Rank r's NIC: most of its links out, and most of those to its nearest
 * peers too (its switch's, else its group's), which a fault above the
 * NIC leaves fine. A rank alone in its group has no such peers. */
static bool is_nic(const struct cover *c, int r)
{
	int all = c->t->rank[c->m][r], a, g;

	if (!mostly(all, 2.0 * (c->n - 1)))
		return false;
	if (c->topo == NULL)
		return true;
	a = c->topo->switch_of[r];
	g = c->gs[a];
	if (c->h[a] >= 2)
		return c->t->mate[c->m][r] > c->h[a] - 1;
	if (g >= 0 && c->gsize[g] >= 2)
		return c->t->kin[c->m][r] > c->gsize[g] - 1;
	return true;
}

/* A named NIC's outliers are explained: out of the switch matrix. The
 * tally knows how many leave its switch, not where to: spread evenly
 * over the ranks off its switch (a NIC is out to nearly all of them).
 * Pairs with a NIC taken out before are out already (left). */
static void drop_nic(struct cover *c, int r)
{
	const struct cxd_tally *t = c->t;
	int a = c->topo->switch_of[r], ns = c->ns;
	int away = c->n - c->h[a];
	double leaving = t->rank[c->m][r] - t->mate[c->m][r];

	for (int b = 0; b < ns && away > 0; b++) {
		double x = b == a ? 0 : leaving * c->left[b] / away;

		c->bad[a * ns + b] -= x;
		if (b != a)
			c->bad[b * ns + a] -= x;
	}
	if (c->h[a] > 1)
		c->bad[a * ns + a] -= (double) t->mate[c->m][r] *
				      (c->left[a] - 1) / (c->h[a] - 1);
	c->left[a]--;
	for (int b = 0; b < ns; b++) {
		if (c->bad[a * ns + b] < 0)
			c->bad[a * ns + b] = 0;
		c->bad[b * ns + a] = c->bad[a * ns + b];
	}
}

/* A switch of two ranks or more, under half of them all, whose every
 * rank is a NIC: the switch itself, as Pingmesh blames a level up only
 * when everything under it looks bad. */
static bool all_nics(const struct cover *c, int a)
{
	if (c->h[a] < 2 || 2 * c->h[a] >= c->n)
		return false;
	for (int r = 0; r < c->n; r++)
		if (c->topo->switch_of[r] == a && !c->nic[r])
			return false;
	return true;
}

static void name_nics(struct cover *c)
{
	struct cxd_suspect s;

	for (int r = 0; r < c->n; r++)
		c->nic[r] = is_nic(c, r);
	for (int a = 0; a < c->ns; a++)
		if (all_nics(c, a)) {
			cxd_judge_cover_suspect(c, CXD_S_SWITCH, a, -1, &s);
			cxd_judge_cover_put(c, &s);
			cover_set(c, CXD_S_SWITCH, a);
		}
	for (int r = 0; r < c->n; r++) {
		if (!c->nic[r] || c->covered[r])
			continue;
		cxd_judge_cover_suspect(c, CXD_S_RANK, r, -1, &s);
		cxd_judge_cover_put(c, &s);
		c->covered[r] = true;
	}
	for (int r = 0; r < c->n && c->topo; r++)
		if (c->nic[r])
			drop_nic(c, r);
}

/* The links between switches not yet explained (both ways; a switch's
 * own on the diagonal), the NICs' left out; no more outliers than
 * links, whatever the NICs' spread left behind. */
static void links_left(struct cover *c)
{
	int ns = c->ns;

	for (int i = 0; i < ns * ns; i++) {
		int a = i / ns, b = i % ns;

		c->links[i] = a == b ? (double) c->left[a] * (c->left[a] - 1) :
			      2.0 * c->left[a] * c->left[b];
		if (c->bad[i] > c->links[i])
			c->bad[i] = c->links[i];
		c->row0[a] += c->bad[i];
	}
	memcpy(c->bad0, c->bad, (size_t) ns * ns * sizeof(double));
	c->net = true;
}

/* The order candidates are weighed in: the largest share of their links
 * out first, then the fewest ranks (the most specific), then the kind. */
static int by_share(const void *x, const void *y)
{
	const struct cover_cand *a = x, *b = y;
	double sa = a->bad / a->links, sb = b->bad / b->links;

	if (sa > sb + 1e-9 || sa < sb - 1e-9)
		return sa > sb ? -1 : 1;
	if (a->ranks != b->ranks)
		return a->ranks < b->ranks ? -1 : 1;
	if (a->kind != b->kind)
		return (int) a->kind - (int) b->kind;
	return a->id != b->id ? a->id - b->id : a->id2 - b->id2;
}

static void consider(struct cover *c, enum cxd_suspect_kind kind, int id,
		     int id2, double bad, double links, int ranks)
{
	if (links > 0 && mostly(bad, links))
		c->cand[c->ncand++] = (struct cover_cand){ kind, id, id2, bad,
							   links, ranks };
}

/* Every set most of whose links are out, the NICs' aside, in order. */
static void candidates(struct cover *c)
{
	const struct cover_score *x = &c->score;
	int ng = c->ng;

	cxd_judge_cover_score(c);
	for (int a = 0; a < c->ns; a++)
		if (c->h[a] >= 2 && 2 * c->h[a] < c->n)
			consider(c, CXD_S_SWITCH, a, -1, x->sbad[a],
				 x->slinks[a], c->h[a]);
	/* A group of one switch is that switch's candidate already. */
	for (int g = 0; g < ng; g++)
		if (c->nsw[g] >= 2 && 2 * c->gsize[g] < c->n)
			consider(c, CXD_S_GROUP, g, -1, x->gbad[g],
				 x->glinks[g], c->gsize[g]);
	for (int g = 0; g < ng; g++)
		for (int h = g + 1; h < ng; h++)
			consider(c, CXD_S_BUNDLE, g, h, x->bbad[g * ng + h],
				 x->blinks[g * ng + h],
				 c->gsize[g] + c->gsize[h]);
	qsort(c->cand, c->ncand, sizeof(*c->cand), by_share);
}

/* A candidate's outliers not explained yet (c->score as it stands). */
static double unexplained(const struct cover *c, const struct cover_cand *p)
{
	const struct cover_score *x = &c->score;

	if (p->kind == CXD_S_SWITCH)
		return x->sbad[p->id];
	if (p->kind == CXD_S_GROUP)
		return x->gbad[p->id];
	return x->bbad[p->id * c->ng + p->id2];
}

/* Take out what the named candidate explains. */
static void explain(struct cover *c, const struct cover_cand *p)
{
	int ns = c->ns;

	for (int a = 0; a < ns; a++)
		for (int b = 0; b < ns; b++) {
			int ga = c->gs[a], gb = c->gs[b];
			bool in = p->kind == CXD_S_SWITCH ?
				  a == p->id || b == p->id :
				  p->kind == CXD_S_GROUP ?
				  ga == p->id || gb == p->id :
				  (ga == p->id && gb == p->id2) ||
				  (ga == p->id2 && gb == p->id);

			if (in)
				c->bad[a * ns + b] = c->links[a * ns + b] = 0;
		}
}

/*
 * Strongest first, a candidate is named unless the suspects named
 * before it explain half its outliers or more. Its share is weighed on
 * all its links, not on those left: two faults overlap (a switch's links
 * to the group beyond a bad bundle are out twice over), and the weaker
 * must not vanish into the stronger's links.
 */
static void greedy(struct cover *c)
{
	struct cxd_suspect s;
	bool stale = false;

	candidates(c);
	for (size_t i = 0; i < c->ncand; i++) {
		const struct cover_cand *p = &c->cand[i];
		double left;

		if (stale)
			cxd_judge_cover_score(c);
		stale = false;
		left = unexplained(c, p);
		if (left < 1.5 || 2 * left < p->bad)
			continue;
		explain(c, p);
		stale = true;
		cxd_judge_cover_suspect(c, p->kind, p->id, p->id2, &s);
		cxd_judge_cover_put(c, &s);
		if (p->kind != CXD_S_BUNDLE)
			cover_set(c, p->kind, p->id);
	}
}

/* Most of rank r's links to its own switch's ranks out too, where it
 * has such peers (is_nic's second test). */
static bool near_peers_bad(const struct cover *c, int r)
{
	int a = c->topo ? c->topo->switch_of[r] : -1;

	return a < 0 || c->h[a] < 2 || c->t->mate[c->m][r] > c->h[a] - 1;
}

/* A rank not named yet with most of its links out, and as many not
 * explained: its own share of what its switch has left. */
static void leftover(struct cover *c)
{
	struct cxd_suspect s;

	for (int r = 0; r < c->n; r++) {
		double bad = c->t->rank[c->m][r];

		if (c->covered[r])
			continue;
		if (c->topo) {
			int a = c->topo->switch_of[r];
			double row = 0;

			for (int b = 0; b < c->ns; b++)
				row += c->bad[a * c->ns + b];
			bad = c->row0[a] > 0 ? bad * row / c->row0[a] : 0;
		}
		/* Its links to its own switch's ranks fine: the fault sits
		 * above the NIC (a fat tree's spine slows the links into
		 * every rank it carries, and names none of them). */
		if (!mostly(bad, 2.0 * (c->n - 1)) || !near_peers_bad(c, r))
			continue;
		cxd_judge_cover_suspect(c, CXD_S_RANK, r, -1, &s);
		cxd_judge_cover_put(c, &s);
		c->covered[r] = true;
	}
}

/* Half the ranks or more under suspicion: not a node but a change that
 * touched everything (firmware, settings, cabling, a baseline from
 * another system). */
static void fabric(struct cover *c)
{
	int named = 0;
	long long ends = 0;

	for (int i = 0; i < c->n; i++) {
		named += c->covered[i];
		ends += c->t->rank[c->m][i];
	}
	if (c->n < 3 || 2 * named < c->n)
		return;
	*c->k = c->first;
	/* each link counted at both its ends */
	cxd_judge_cover_put(c, &(struct cxd_suspect){
		.kind = CXD_S_FABRIC, .metric = c->m,
		.bad = (int) (ends / 2), .links = c->n * (c->n - 1),
		.id2 = -1 });
}

/* With the fabric's links in --topology, the suspects come from the
 * routes pairs take (judge_route.c), not from the ends of the links. */
static bool by_routes(struct cover *c)
{
	return c->topo->nlink > 0 && c->topo->route != CXD_TOPO_R_NONE &&
	       cxd_judge_cover_routes(c) == 0;
}

void cxd_judge_cover(const struct cxd_tally *t,
		     const struct cxd_topo_map *topo, enum cxd_metric m,
		     struct cxd_suspect *out, size_t cap, size_t *k)
{
	struct cover c;

	if (cxd_judge_cover_init(&c, t, topo, m) != 0) {
		cxd_judge_cover_free(&c);
		return;
	}
	c.out = out;
	c.cap = cap;
	c.k = k;
	c.first = *k;
	name_nics(&c);
	if (c.topo != NULL) {
		links_left(&c);
		if (!by_routes(&c)) {
			greedy(&c);
			cxd_judge_cover_ports(&c);
			cxd_judge_cover_groups(&c);
		}
	}
	leftover(&c);
	fabric(&c);
	cxd_judge_cover_free(&c);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A covering plan (lib/sweep/sched/plan_cover.c): few pairs, chosen
 * from the routes, that cross every component of a job k times for
 * sure, packed into rounds, with the components no outcome tells apart.
 * Each plan is checked against a reference computed here from the
 * routes alone: what every pair of the job crosses (walking its ways),
 * the rounds' ranks and link loads, the signatures behind the classes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/model/route.h"
#include "sweep/sched/plan_cover.h"
#include "sweep/sched/plan_cover_tell.h"

#define MAXR 160
#define MAXS 64
#define MAXG 16
#define MAXL 640
#define MAXC (MAXR + MAXL + MAXG * MAXG + MAXS)
#define MAXP 4096
#define WORDS (MAXP / 64)
#define KMAX 4

/* The reference: the plan's component indices by kind, and what one
 * pair crosses (sure, or its chance), walked here from the ways. */
struct ref {
	const struct tfab *f;
	const struct cxd_routes *rt;
	int nic[MAXR], link[MAXL], sw[MAXS], bun[MAXG][MAXG];
	double p[MAXC];
	char sure[MAXC];
};

static void ref_init(struct ref *x, const struct tfab *f,
		     const struct cxd_routes *rt,
		     const struct cxd_cover_plan *p)
{
	x->f = f;
	x->rt = rt;
	for (int r = 0; r < f->n; r++)
		x->nic[r] = cxd_cover_find(p, CXD_COVER_NIC, r, -1);
	for (int l = 0; l < f->nl; l++)
		x->link[l] = cxd_cover_find(p, CXD_COVER_LINK, l, -1);
	for (int s = 0; s < f->ns; s++)
		x->sw[s] = cxd_cover_find(p, CXD_COVER_SWITCH, s, -1);
	for (int g = 0; g < MAXG; g++)
		for (int h = 0; h < MAXG; h++)
			x->bun[g][h] = g < f->ng && h < f->ng ?
				cxd_cover_find(p, CXD_COVER_BUNDLE, g, h) : -1;
}

/* One way walked switch by switch from the lower switch: what it
 * crosses marked in on[]. */
static void ref_way(const struct ref *x, const struct cxd_way *w, int s,
		    int t, bool *on)
{
	const struct tfab *f = x->f;
	int cur = s < t ? s : t;

	for (int h = 0; h < w->len; h++) {
		const struct cxd_topo_link *k =
			&f->l[x->rt->hop[w->first + (size_t) h]];
		int nxt = k->a == cur ? k->b : k->a;

		assert_true(k->a == cur || k->b == cur); /* a connected way */
		assert_true(x->link[k - f->l] >= 0);
		on[x->link[k - f->l]] = true;
		if (f->ng > 0 && f->sg[k->a] != f->sg[k->b])
			on[x->bun[f->sg[k->a]][f->sg[k->b]]] = true;
		if (nxt != s && nxt != t)
			on[x->sw[nxt]] = true;
		cur = nxt;
	}
	assert_int_equal(cur, s < t ? t : s);
}

static void ref_cross(struct ref *x, int a, int b)
{
	int s = x->f->sof[a], t = x->f->sof[b], cnt[MAXC] = { 0 };
	int ends[4] = { x->nic[a], x->nic[b], x->sw[s], x->sw[t] };
	size_t nw = 0;
	const struct cxd_way *w;
	bool on[MAXC];

	memset(x->p, 0, sizeof(x->p));
	memset(x->sure, 0, sizeof(x->sure));
	/* two ranks on one switch: their NICs only (no link of it) */
	for (int i = 0; i < (s == t ? 2 : 4); i++) {
		assert_true(ends[i] >= 0);
		x->p[ends[i]] = x->sure[ends[i]] = 1;
	}
	if (s == t)
		return;
	w = cxd_routes_ways(x->rt, s, t, &nw);
	assert_true(nw > 0);
	for (size_t i = 0; i < nw; i++) {
		memset(on, 0, sizeof(on));
		ref_way(x, &w[i], s, t, on);
		for (int c = 0; c < MAXC; c++)
			if (on[c]) {
				cnt[c]++;
				x->p[c] += w[i].share;
			}
	}
	for (int c = 0; c < MAXC; c++)
		if (cnt[c] == (int) nw) {
			x->sure[c] = 1;
			x->p[c] = 1;
		}
}

/* The plan checked against the reference. */
struct chk {
	struct ref x;
	const struct cxd_cover_plan *p;
	int k;
	/* over every pair of the job */
	int nsure[MAXC], nkeys[MAXC], last_sp[MAXC];
	double pmaybe[MAXC];
	char maybe[MAXC];
	/* over the plan's pairs */
	int sure[MAXC], dsp[MAXC][KMAX], ndsp[MAXC];
	double exp[MAXC];
	uint64_t sig[MAXC][WORDS];
};

/* One pair of the job, of switch pair sp, counted. */
static void job_pair(struct chk *c, int a, int b, int sp)
{
	ref_cross(&c->x, a, b);
	for (int i = 0; i < MAXC; i++) {
		if (!c->x.sure[i]) {
			c->pmaybe[i] += c->x.p[i];
			c->maybe[i] |= c->x.p[i] > 0;
			continue;
		}
		c->nsure[i]++;
		c->nkeys[i] += c->last_sp[i] != sp;
		c->last_sp[i] = sp;
	}
}

/* Every pair of the job, switch pair by switch pair: what could be
 * crossed, how often, from how many switch pairs. */
static void job_all(struct chk *c)
{
	const struct tfab *f = c->x.f;

	for (int i = 0; i < MAXC; i++)
		c->last_sp[i] = -1;
	for (int s = 0; s < f->ns; s++)
		for (int t = s; t < f->ns; t++)
			for (int a = 0; a < f->n; a++)
				for (int b = 0; b < f->n; b++)
					if (f->sof[a] == s && f->sof[b] == t &&
					    (s != t || a < b))
						job_pair(c, a, b, s * MAXS + t);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *) a > *(const int *) b) -
	       (*(const int *) a < *(const int *) b);
}

/* Plan pair j's maybe list: what some of its ways cross, not all (the
 * reference's walk of pair j, just made). */
static void maybe_ok(const struct chk *c, int j)
{
	const struct cxd_cover_plan *p = c->p;
	int want[MAXC], nw = 0, got[MAXC];
	int ng = (int) (p->maybe_at[j + 1] - p->maybe_at[j]);

	for (int i = 0; i < MAXC; i++)
		if (!c->x.sure[i] && c->x.p[i] > 0)
			want[nw++] = i;
	assert_int_equal(ng, nw);
	memcpy(got, p->maybe + p->maybe_at[j], (size_t) ng * sizeof(int));
	qsort(got, (size_t) ng, sizeof(int), cmp_int);
	assert_memory_equal(got, want, (size_t) nw * sizeof(int));
}

/* Plan pair j: its sure and maybe lists are the reference's; counted. */
static void plan_pair(struct chk *c, int j)
{
	const struct cxd_cover_plan *p = c->p;
	int a = p->pair[j].a, b = p->pair[j].b, want[MAXC], nw = 0, got[MAXC];
	int ng = (int) (p->sure_at[j + 1] - p->sure_at[j]);
	int s = c->x.f->sof[a], t = c->x.f->sof[b];
	int sp = s < t ? s * MAXS + t : t * MAXS + s;

	assert_true(a >= 0 && a < b && b < c->x.f->n);
	ref_cross(&c->x, a, b);
	for (int i = 0; i < MAXC; i++)
		if (c->x.sure[i]) {
			want[nw++] = i;
			c->sure[i]++;
			c->sig[i][j / 64] |= (uint64_t) 1 << (j % 64);
		} else {
			c->exp[i] += c->x.p[i];
		}
	assert_int_equal(ng, nw);
	memcpy(got, p->sure + p->sure_at[j], (size_t) ng * sizeof(int));
	qsort(got, (size_t) ng, sizeof(int), cmp_int);
	assert_memory_equal(got, want, (size_t) nw * sizeof(int));
	maybe_ok(c, j);
	for (int i = 0; i < nw; i++) {
		int *d = c->dsp[want[i]], *nd = &c->ndsp[want[i]], seen = 0;

		for (int e = 0; e < *nd; e++)
			seen |= d[e] == sp;
		if (!seen && *nd < KMAX)
			d[(*nd)++] = sp;
	}
}

static int min_i(int a, int b)
{
	return a < b ? a : b;
}

/* Each component: counted right, reached as the job can, covered k
 * times from distinct switch pairs as far as the job allows. */
static void comps_ok(const struct chk *c)
{
	const struct cxd_cover_plan *p = c->p;
	int thin = 0;

	for (int i = 0; i < p->ncomp; i++) {
		const struct cxd_cover_comp *m = &p->comp[i];
		int reach = c->nsure[i] ? CXD_COVER_SURE :
			    c->maybe[i] ? CXD_COVER_MAYBE : CXD_COVER_NONE;

		thin += c->nsure[i] > 0 && c->nsure[i] < c->k;

		assert_int_equal(m->sure, c->sure[i]);
		assert_true(fabs(m->maybe - c->exp[i]) < 1e-9);
		assert_int_equal(m->reach, reach);
		assert_int_equal(m->cls < 0, m->sure == 0);
		if (p->capped)
			continue;
		assert_int_equal(m->want, min_i(c->k, c->nsure[i]));
		assert_true(m->sure >= m->want);
		assert_true(c->ndsp[i] >= min_i(c->k, c->nkeys[i]));
		if (reach == CXD_COVER_MAYBE)
			assert_true(m->maybe > fmin(c->k, c->pmaybe[i]) - 1e-9);
	}
	for (int i = p->ncomp; i < MAXC; i++)
		assert_int_equal(c->sure[i] + c->nsure[i] + c->maybe[i], 0);
	assert_int_equal(p->nthin, thin);
}

/* Pair (a, b)'s load on each link: its ways' shares. */
static void pair_load(const struct chk *c, int a, int b, double *load)
{
	const struct tfab *f = c->x.f;
	size_t nw = 0;
	const struct cxd_way *w;

	if (f->sof[a] == f->sof[b])
		return;
	w = cxd_routes_ways(c->x.rt, f->sof[a], f->sof[b], &nw);
	for (size_t i = 0; i < nw; i++)
		for (int h = 0; h < w[i].len; h++)
			load[c->x.rt->hop[w[i].first + (size_t) h]] +=
				w[i].share;
}

/* Rounds: each pair once, no rank twice in a round, no link line over
 * its count, each pair loading its ways' links by their shares. */
static void rounds_ok(const struct chk *c)
{
	const struct cxd_cover_plan *p = c->p;
	const struct tfab *f = c->x.f;

	assert_int_equal(p->round_at[0], 0);
	assert_int_equal(p->round_at[p->nround], p->npair);
	for (int r = 0; r < p->nround; r++) {
		double load[MAXL] = { 0 };
		bool busy[MAXR] = { false };

		assert_true(p->round_at[r] < p->round_at[r + 1]);
		for (int j = p->round_at[r]; j < p->round_at[r + 1]; j++) {
			int a = p->pair[j].a, b = p->pair[j].b;

			assert_false(busy[a] || busy[b]);
			busy[a] = busy[b] = true;
			pair_load(c, a, b, load);
		}
		for (int l = 0; l < f->nl; l++)
			assert_true(load[l] <= f->l[l].count + 1e-9);
	}
}

static bool sig_eq(const struct chk *c, int a, int b)
{
	return memcmp(c->sig[a], c->sig[b], sizeof(c->sig[a])) == 0;
}

/* Classes: one class exactly when one signature; lists match. */
static void classes_ok(const struct chk *c)
{
	const struct cxd_cover_plan *p = c->p;
	int single = 0, listed = 0, covered = 0, alike = 0;

	for (int a = 0; a < p->ncomp; a++) {
		covered += p->comp[a].cls >= 0;
		for (int b = a + 1; b < p->ncomp; b++) {
			int ca = p->comp[a].cls, cb = p->comp[b].cls;

			if (ca >= 0 && cb >= 0)
				assert_int_equal(ca == cb, sig_eq(c, a, b));
		}
	}
	for (int k = 0; k < p->ncls; k++) {
		int size = p->cls_at[k + 1] - p->cls_at[k];

		assert_true(size > 0);
		single += size == 1;
		alike += size > 1;
		for (int i = p->cls_at[k]; i < p->cls_at[k + 1]; i++, listed++)
			assert_int_equal(p->comp[p->member[i]].cls, k);
	}
	assert_int_equal(listed, covered);
	assert_int_equal(single, p->identifiable_one);
	assert_int_equal(alike, p->nalike);
	assert_int_equal(p->nuncovered, p->ncomp - covered);
}

/* Two faults, by brute force where small: some two component pairs
 * with one union of signatures? */
static void two_ok(const struct chk *c)
{
	const struct cxd_cover_plan *p = c->p;
	int cov[MAXC], nc = 0, same = 0;

	for (int i = 0; i < p->ncomp; i++)
		if (p->comp[i].cls >= 0)
			cov[nc++] = i;
	if (nc > 48 || p->identifiable_two < 0)
		return;
	for (int x = 0; x < nc && !same; x++)
		for (int y = x + 1; y < nc && !same; y++)
			for (int u = x; u < nc && !same; u++)
				for (int v = u + 1; v < nc && !same; v++) {
					bool eq = (u != x || v > y);

					for (int w = 0; eq && w < WORDS; w++)
						eq = (c->sig[cov[x]][w] |
						      c->sig[cov[y]][w]) ==
						     (c->sig[cov[u]][w] |
						      c->sig[cov[v]][w]);
					same = eq;
				}
	assert_int_equal(p->identifiable_two, !same);
}

static void check_plan(const struct tfab *f, const struct cxd_routes *rt,
		       const struct cxd_cover_plan *p, int k)
{
	struct chk *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	assert_true(p->npair <= MAXP);
	c->p = p;
	c->k = k;
	ref_init(&c->x, f, rt, p);
	job_all(c);
	for (int j = 0; j < p->npair; j++)
		plan_pair(c, j);
	for (int i = 0; i + 1 < p->npair; i++)
		for (int j = i + 1; j < p->npair; j++)
			assert_false(p->pair[i].a == p->pair[j].a &&
				     p->pair[i].b == p->pair[j].b);
	comps_ok(c);
	rounds_ok(c);
	classes_ok(c);
	two_ok(c);
	free(c);
}

/* Built, checked and described; the caller frees rt and p. */
static void plan(const struct tfab *f, struct cxd_routes *rt,
		 const struct cxd_cover_opts *o, struct cxd_cover_plan *p,
		 const char *what)
{
	assert_int_equal(cxd_routes_build(&f->tm, f->n, rt), 0);
	assert_int_equal(cxd_cover_plan_build(&f->tm, f->n, rt, o, p), 0);
	check_plan(f, rt, p, o && o->k > 0 ? o->k : CXD_COVER_K);
	print_message("%s: %d ranks, %d pairs of %d, %d rounds, %d "
		      "components, %d classes (%d alike), %d uncovered (%d "
		      "maybe), two faults %d\n", what, f->n, p->npair,
		      f->n * (f->n - 1) / 2, p->nround, p->ncomp, p->ncls,
		      p->nalike, p->nuncovered, p->nmaybe,
		      p->identifiable_two);
}

static void done(struct cxd_routes *rt, struct cxd_cover_plan *p)
{
	cxd_cover_plan_free(p);
	cxd_routes_free(rt);
}

static int comp_of(const struct cxd_cover_plan *p, int kind, int id, int id2)
{
	int c = cxd_cover_find(p, kind, id, id2);

	assert_true(c >= 0);
	return c;
}

/* 3 groups x 2 switches x 2 ranks: every NIC, link line and bundle
 * crossed for sure twice, in far fewer pairs than all. */
static void test_dragonfly_small(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p;

	(void) state;
	tfab_dragonfly(&f, 3, 2, 2, 2, 1);
	plan(&f, &rt, NULL, &p, "dragonfly 3x2x2");
	assert_int_equal(p.ncomp, 12 + 6 + 3 + 6);
	for (int c = 0; c < p.ncomp; c++) {
		assert_int_equal(p.comp[c].reach, CXD_COVER_SURE);
		assert_true(p.comp[c].sure >= 2);
	}
	assert_int_equal(p.nuncovered + p.nshort + p.nmaybe + p.nnone, 0);
	assert_true(p.npair <= 66 / 3);
	/* a bundle of one link line is that line: one class */
	for (int g = 0; g < 3; g++)
		for (int h = g + 1; h < 3; h++) {
			int b = comp_of(&p, CXD_COVER_BUNDLE, h, g);
			int l = tfab_find_link(&f, g * 2 + h % 2,
						h * 2 + g % 2);
			int lc = comp_of(&p, CXD_COVER_LINK, l, -1);

			assert_int_equal(p.comp[b].cls, p.comp[lc].cls);
		}
	assert_int_equal(p.identifiable_two, 0);
	done(&rt, &p);
}

/* Two spines of equal cost: they and the leaves' uplinks are crossed
 * only maybe, covered in expectation; the leaves for sure. */
static void test_fat_tree_spines_maybe(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p;

	(void) state;
	tfab_fat_tree(&f, 4, 2, 2);
	plan(&f, &rt, NULL, &p, "fat tree 4 leaves x 2, 2 spines");
	for (int s = 4; s < 6; s++) {
		const struct cxd_cover_comp *m =
			&p.comp[comp_of(&p, CXD_COVER_SWITCH, s, -1)];

		assert_int_equal(m->reach, CXD_COVER_MAYBE);
		assert_int_equal(m->sure, 0);
		assert_true(m->maybe >= 2 - 1e-9);
	}
	for (int l = 0; l < f.nl; l++) {
		const struct cxd_cover_comp *m =
			&p.comp[comp_of(&p, CXD_COVER_LINK, l, -1)];

		assert_int_equal(m->reach, CXD_COVER_MAYBE);
		assert_true(m->maybe >= 2 - 1e-9);
	}
	for (int s = 0; s < 4; s++) {
		int c = comp_of(&p, CXD_COVER_SWITCH, s, -1);

		assert_int_equal(p.comp[c].reach, CXD_COVER_SURE);
		assert_true(p.comp[c].sure >= 2);
	}
	assert_int_equal(p.nmaybe, 2 + 8);
	assert_int_equal(p.nmaybe_short, 0);
	assert_int_equal(p.nuncovered, 2 + 8);
	assert_int_equal(p.nshort, 0);
	done(&rt, &p);
}

/*
 * s0 - s1 - s2 with s1 bare and linked to nothing else, s3 on s0: every
 * pair over link s0-s1 also takes s1 and link s1-s2, and every pair out
 * of s2 takes them (its own ranks' pair leaves it by no link), so the
 * four are one class, and two faults cannot be told apart then.
 */
static void test_chain_alike(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p;
	int l01, l12, s1;

	(void) state;
	memset(&f, 0, sizeof(f));
	f.ns = 4;
	tfab_ranks_on(&f, 0, 2);
	tfab_ranks_on(&f, 2, 2);
	tfab_ranks_on(&f, 3, 2);
	tfab_link_add(&f, 0, 1, 1);
	tfab_link_add(&f, 1, 2, 1);
	tfab_link_add(&f, 0, 3, 1);
	tfab_map(&f, CXD_TOPO_R_ECMP);
	plan(&f, &rt, NULL, &p, "chain");
	l01 = comp_of(&p, CXD_COVER_LINK, tfab_find_link(&f, 0, 1), -1);
	l12 = comp_of(&p, CXD_COVER_LINK, tfab_find_link(&f, 1, 2), -1);
	s1 = comp_of(&p, CXD_COVER_SWITCH, 1, -1);
	assert_true(p.comp[l01].cls >= 0);
	assert_int_equal(p.comp[l12].cls, p.comp[l01].cls);
	assert_int_equal(p.comp[s1].cls, p.comp[l01].cls);
	assert_int_equal(p.comp[comp_of(&p, CXD_COVER_SWITCH, 2, -1)].cls,
			 p.comp[l01].cls);
	assert_int_equal(p.cls_at[p.comp[l01].cls + 1] -
			 p.cls_at[p.comp[l01].cls], 4);
	/* and s3, whose pairs out all take link s0-s3, with that link */
	assert_int_equal(p.comp[comp_of(&p, CXD_COVER_SWITCH, 3, -1)].cls,
			 p.comp[comp_of(&p, CXD_COVER_LINK,
					tfab_find_link(&f, 0, 3), -1)].cls);
	assert_int_equal(p.nalike, 2);
	assert_int_equal(p.identifiable_two, 0);
	done(&rt, &p);
}

/* No link lines, no routes to choose from; a rank off the map. */
static void test_no_links_refused(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p;

	(void) state;
	memset(&rt, 0, sizeof(rt));
	tfab_dragonfly(&f, 2, 2, 2, 2, 1);
	f.tm.nlink = 0;
	f.tm.link = NULL;
	f.tm.route = CXD_TOPO_R_NONE;
	assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, NULL, &p),
			 -EINVAL);
	assert_null(p.pair);
	assert_int_equal(p.npair, 0);
	/* a rank the map places on no switch */
	tfab_map(&f, CXD_TOPO_R_MINIMAL);
	assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), 0);
	f.sof[3] = -1;
	assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, NULL, &p),
			 -EINVAL);
	assert_null(p.comp);
	cxd_routes_free(&rt);
}

/* 8 groups x 4 switches x 4 ranks, every group pair joined. */
static void test_dragonfly_large(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p;

	(void) state;
	tfab_dragonfly(&f, 8, 4, 4, 2, 1);
	plan(&f, &rt, NULL, &p, "dragonfly 8x4x4");
	assert_int_equal(p.ncomp, 128 + 8 * 6 + 28 + 28 + 32);
	assert_int_equal(p.nuncovered + p.nshort + p.nmaybe + p.nnone, 0);
	assert_true(p.npair <= 4 * p.ncomp);
	/* the anchors add a ring of pairs on each switch: one a rank */
	assert_true(p.npair <= p.ncomp + f.n);
	assert_true(p.nround < p.npair);
	done(&rt, &p);
}

/* The same input, the same plan; a limit on the pairs is kept and
 * said, and what it leaves short is counted. */
static void test_deterministic_and_capped(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	struct cxd_cover_plan p, q;
	struct cxd_cover_opts o = { .k = 3, .max_pairs = 0 };

	(void) state;
	tfab_dragonfly(&f, 3, 3, 2, 2, 1);
	plan(&f, &rt, &o, &p, "dragonfly 3x3x2 k 3");
	assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, &o, &q), 0);
	assert_int_equal(p.npair, q.npair);
	assert_memory_equal(p.pair, q.pair, (size_t) p.npair * sizeof(*p.pair));
	assert_int_equal(p.nshort, 0);
	cxd_cover_plan_free(&q);
	o.max_pairs = 5;
	assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, &o, &q), 0);
	check_plan(&f, &rt, &q, 3);
	assert_int_equal(q.npair, 5);
	assert_int_equal(q.capped, 1);
	assert_true(q.nshort > 0);
	cxd_cover_plan_free(&q);
	done(&rt, &p);
}

/* A seeded generator (no rand: the same fabrics everywhere). */
static int draw(unsigned *s, int lo, int hi)
{
	*s = *s * 1103515245u + 12345u;
	return lo + (int) ((*s >> 16) % (unsigned) (hi - lo + 1));
}

/* Groups of switches (full mesh or, from 4, a ring: equal ways inside
 * a group), each group pair joined by one or two link lines. */
static void random_dragonfly(struct tfab *f, unsigned *s)
{
	int g = draw(s, 1, 5), k = draw(s, g == 1 ? 2 : 1, 4);
	bool ring = k >= 4 && draw(s, 0, 1);

	f->ns = g * k;
	f->ng = g;
	for (int a = 0; a < f->ns; a++) {
		f->sg[a] = a / k;
		tfab_ranks_on(f, a, draw(s, 0, 4));
	}
	for (int i = 0; i < g; i++)
		for (int x = 0; x < k; x++)
			for (int y = x + 1; y < k; y++)
				if (!ring || y == x + 1 || y - x == k - 1)
					tfab_link_add(f, i * k + x, i * k + y,
						 draw(s, 1, 3));
	for (int i = 0; i < g; i++)
		for (int j = i + 1; j < g; j++)
			for (int m = draw(s, 1, 2); m > 0; m--) {
				int a = i * k + draw(s, 0, k - 1);
				int b = j * k + draw(s, 0, k - 1);

				if (tfab_find_link(f, a, b) < 0)
					tfab_link_add(f, a, b, draw(s, 1, 3));
			}
	tfab_map(f, CXD_TOPO_R_MINIMAL);
}

static void random_tree(struct tfab *f, unsigned *s)
{
	int leaves = draw(s, 2, 6), spines = draw(s, 1, 3);

	f->ns = leaves + spines;
	for (int a = 0; a < leaves; a++)
		tfab_ranks_on(f, a, draw(s, 0, 4));
	for (int a = 0; a < leaves; a++)
		for (int p = 0; p < spines; p++)
			tfab_link_add(f, a, leaves + p, draw(s, 1, 2));
	tfab_map(f, CXD_TOPO_R_ECMP);
}

static void random_fabric(struct tfab *f, unsigned seed)
{
	unsigned s = seed;

	memset(f, 0, sizeof(*f));
	if (draw(&s, 0, 1))
		random_dragonfly(f, &s);
	else
		random_tree(f, &s);
	while (f->n < 3) /* a job of a few ranks at least */
		tfab_ranks_on(f, f->n % f->ns, 1);
}

/* The plan's pairs between two ranks of switch s: the distinct mates
 * rank r has there, at most 2 counted. */
static int mates_in_plan(const struct tfab *f, const struct cxd_cover_plan *p,
			 int r)
{
	int m[2], k = 0;

	for (int i = 0; i < p->npair && k < 2; i++) {
		int a = p->pair[i].a, b = p->pair[i].b, o = a == r ? b : a;

		if ((a == r || b == r) && f->sof[a] == f->sof[b] &&
		    (k == 0 || m[0] != o))
			m[k++] = o;
	}
	return k;
}

/* Pairs of the plan between the two switches of link line l. */
static int pairs_on_line(const struct tfab *f, const struct cxd_cover_plan *p,
			 int l)
{
	int k = 0;

	for (int i = 0; i < p->npair; i++) {
		int sa = f->sof[p->pair[i].a], sb = f->sof[p->pair[i].b];

		k += (sa == f->l[l].a && sb == f->l[l].b) ||
		     (sa == f->l[l].b && sb == f->l[l].a);
	}
	return k;
}

/* The anchors (plan_cover_anchor.h): each rank has pairs with two mates
 * on its switch (one where it has one), and each link line inside a
 * group between two switches with ranks k pairs of their own ranks
 * (fewer where they have fewer). */
static void anchored(const struct tfab *f, const struct cxd_cover_plan *p)
{
	if (p->capped)
		return;
	for (int r = 0; r < f->n; r++) {
		int h = 0;

		for (int q = 0; q < f->n; q++)
			h += q != r && f->sof[q] == f->sof[r];
		assert_int_equal(mates_in_plan(f, p, r), h < 2 ? h : 2);
	}
	for (int l = 0; l < f->nl; l++) {
		int a = f->l[l].a, b = f->l[l].b, ha = 0, hb = 0;

		if (f->sg[a] < 0 || f->sg[a] != f->sg[b])
			continue;
		for (int q = 0; q < f->n; q++) {
			ha += f->sof[q] == a;
			hb += f->sof[q] == b;
		}
		if (ha && hb) {
			int most = ha > hb ? ha : hb;

			assert_true(pairs_on_line(f, p, l) >=
				    (most < p->k ? most : p->k));
		}
	}
}

/* Twenty drawn fabrics, each plan checked whole; k 1 and 3 too. */
static void test_random_shapes(void **state)
{
	(void) state;
	for (unsigned seed = 1; seed <= 20; seed++) {
		struct tfab f;
		struct cxd_routes rt;
		struct cxd_cover_plan p;
		struct cxd_cover_opts o = { .k = 1 + (int) seed % 3 };
		char what[64];

		random_fabric(&f, seed * 7919u);
		snprintf(what, sizeof(what), "random %u (k %d, %d switches, "
			 "%d links)", seed, o.k, f.ns, f.nl);
		plan(&f, &rt, &o, &p, what);
		assert_int_equal(p.nshort, 0);
		anchored(&f, &p);
		done(&rt, &p);
	}
}

/* The lazy pick's plan is the full weighing's, pair for pair, on 300
 * drawn fabrics (dragonflies and trees, k 1 to 3, some capped). */
static void test_lazy_is_full(void **state)
{
	(void) state;
	for (unsigned seed = 1; seed <= 300; seed++) {
		static struct tfab f;
		struct cxd_routes rt;
		struct cxd_cover_plan p, q;
		struct cxd_cover_opts o = { .k = 1 + (int) seed % 3,
					    .max_pairs = seed % 7 ? 0 : 9 };

		random_fabric(&f, seed * 104729u);
		assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), 0);
		assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, &o, &p),
				 0);
		o.exhaustive = 1;
		assert_int_equal(cxd_cover_plan_build(&f.tm, f.n, &rt, &o, &q),
				 0);
		assert_int_equal(p.npair, q.npair);
		assert_int_equal(p.nround, q.nround);
		assert_int_equal(p.ncls, q.ncls);
		assert_memory_equal(p.pair, q.pair,
				    (size_t) p.npair * sizeof(*p.pair));
		cxd_cover_plan_free(&q);
		done(&rt, &p);
	}
}

/* A plan of nc components and np pairs by hand, for the check on two
 * faults alone: pair i crosses the components whose bit i is set in
 * sig[c]. */
static void two_faults(const unsigned *sig, int nc, int np, int want)
{
	struct cxd_cover_plan p = { .ncomp = nc, .npair = np };
	int at = 0;

	p.comp = calloc((size_t) nc, sizeof(*p.comp));
	p.sure_at = calloc((size_t) np + 1, sizeof(size_t));
	p.sure = calloc((size_t) nc * (size_t) np + 1, sizeof(int));
	assert_true(p.comp && p.sure_at && p.sure);
	for (int i = 0; i < np; i++) {
		for (int c = 0; c < nc; c++)
			if (sig[c] >> i & 1) {
				p.sure[at++] = c;
				p.comp[c].sure++;
			}
		p.sure_at[i + 1] = (size_t) at;
	}
	assert_int_equal(cxd_cover_two(&p), want);
	free(p.comp);
	free(p.sure_at);
	free(p.sure);
}

/* Two faults told apart when every two components' union differs;
 * not when one union is another's; not checked past the bound. */
static void test_two_faults(void **state)
{
	static const unsigned apart[] = { 1, 2, 4, 8, 16 };
	static const unsigned hidden[] = { 3, 6, 5, 7 };
	static unsigned many[3000];

	(void) state;
	two_faults(apart, 5, 5, 1);
	two_faults(hidden, 4, 3, 0); /* {0, 1} and {0, 3}: pairs 0, 1, 2 */
	for (int c = 0; c < 3000; c++)
		many[c] = 1;
	two_faults(many, 3000, 1, -1); /* 4.5 million unions */
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_dragonfly_small),
	cmocka_unit_test(test_fat_tree_spines_maybe),
	cmocka_unit_test(test_chain_alike),
	cmocka_unit_test(test_no_links_refused),
	cmocka_unit_test(test_dragonfly_large),
	cmocka_unit_test(test_deterministic_and_capped),
	cmocka_unit_test(test_two_faults),
	cmocka_unit_test(test_random_shapes),
	cmocka_unit_test(test_lazy_is_full))

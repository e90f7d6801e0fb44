/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget's naming of ways (lib/sweep/judge/judge_budget_ways.c)
 * on fat trees drawn at random (leaves of 1 to 8 ranks, 2 to 6 spines,
 * equal-cost routes): a slow spine makes bad the pairs the fabric's hash
 * sends over it (by destination, d-mod-k, both directions measured, or by
 * a hash of the pair), and is named as a way, the spines it cannot be
 * told from beside it, never a NIC; a bad NIC is that NIC alone, never a
 * spine, wherever it sits (alone on its leaf too); no bad pair names
 * nothing. On dragonflies drawn at random (1 to 3 global links a group
 * pair: ways too), each class's fault is that class, never a way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/judge/judge_budget.h"
#include "sweep/model/route.h"
#include "sweep/sched/plan_cover.h"

#define CAP 32
#define SHAPES 60

struct fab {
	struct tfab t;
	int leaves, spines;
	struct cxd_routes rt;
	struct cxd_cover_plan p;
};

static unsigned draw(unsigned *seed, unsigned lo, unsigned hi)
{
	*seed = *seed * 1103515245u + 12345u;
	return lo + (*seed >> 16) % (hi - lo + 1);
}

/* A fat tree of 2 to 12 leaves of 1 to 8 ranks each (at most 150), 2 to
 * 6 spines, every leaf linked to every spine. */
static void fat_tree(struct fab *f, unsigned *seed)
{
	memset(f, 0, sizeof(*f));
	f->leaves = (int) draw(seed, 2, 12);
	f->spines = (int) draw(seed, 2, 6);
	f->t.ns = f->leaves + f->spines;
	for (int a = 0; a < f->leaves; a++)
		tfab_ranks_on(&f->t, a, (int) draw(seed, 1, 8));
	for (int a = 0; a < f->leaves; a++)
		for (int s = 0; s < f->spines; s++)
			tfab_link_add(&f->t, a, f->leaves + s, 1);
	tfab_map(&f->t, CXD_TOPO_R_ECMP);
	f->t.tm.nswitch = f->leaves;
	assert_int_equal(cxd_routes_build(&f->t.tm, f->t.n, &f->rt), 0);
	assert_int_equal(cxd_cover_plan_build(&f->t.tm, f->t.n, &f->rt, NULL,
					      &f->p), 0);
	assert_true(f->p.npair <= 8192); /* struct run's room */
}

/* One naming: the outcome, the suspects, the counts. */
struct run {
	unsigned char out[8192];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int ns;
};

static void judge(const struct fab *f, struct run *r)
{
	r->ns = cxd_judge_budget_name(&f->p, &f->t.tm, r->out, CXD_M_BW,
				      NULL, r->s, CAP, &r->st);
}

static void done(struct fab *f)
{
	cxd_cover_plan_free(&f->p);
	cxd_routes_free(&f->rt);
}

/* The spine the fabric sends a to b over: by b (d-mod-k), or by a
 * hash of the two. */
static int spine_of(const struct fab *f, int a, int b, bool hashed)
{
	unsigned h = (unsigned) a * 2654435761u ^ (unsigned) b * 40503u;

	return hashed ? (int) (h >> 7) % f->spines : b % f->spines;
}

/* Spine k slow: a pair between two leaves is bad when either direction
 * takes it. Returns the bad pairs. */
static int spine_slow(const struct fab *f, int k, bool hashed,
		      unsigned char *out)
{
	int nbad = 0;

	for (int i = 0; i < f->p.npair; i++) {
		int a = f->p.pair[i].a, b = f->p.pair[i].b;
		bool cross = f->t.sof[a] != f->t.sof[b];

		out[i] = cross && (spine_of(f, a, b, hashed) == k ||
				   spine_of(f, b, a, hashed) == k) ?
			 CXD_BO_BAD : CXD_BO_GOOD;
		nbad += out[i] == CXD_BO_BAD;
	}
	return nbad;
}

/* Bad pairs spine k makes (hashed) away from leaf la. */
static int spine_slow_count(const struct fab *f, int k, int la)
{
	int nbad = 0;

	for (int i = 0; i < f->p.npair; i++) {
		int a = f->p.pair[i].a, b = f->p.pair[i].b;

		nbad += f->t.sof[a] != f->t.sof[b] && f->t.sof[a] != la &&
			f->t.sof[b] != la && (spine_of(f, a, b, true) == k ||
					      spine_of(f, b, a, true) == k);
	}
	return nbad;
}

/* Expected crossings of spine k among the plan's pairs. */
static double spine_expect(const struct fab *f, int k)
{
	int c = cxd_cover_find(&f->p, CXD_COVER_SWITCH, f->leaves + k, -1);

	assert_true(c >= 0);
	return f->p.comp[c].maybe;
}

/* Does suspect s name component a (itself, or alike)? */
static bool names(const struct cxd_suspect *s, const struct cxd_alike *a)
{
	bool got = s->kind == a->kind && s->id == a->id && s->id2 == a->id2;

	for (int j = 0; j < s->nalike; j++)
		got |= s->alike[j].kind == a->kind && s->alike[j].id == a->id &&
		       s->alike[j].id2 == a->id2;
	return got;
}

static bool names_switch(const struct cxd_suspect *s, int sw)
{
	struct cxd_alike a = { CXD_S_SWITCH, sw, CXD_SWL_ALL };

	return names(s, &a);
}

/* A rank suspect only alone on its leaf and not told apart from it:
 * by d-mod-k, every pair's traffic to rank r takes spine r mod S, so
 * with that spine slow every pair of a rank alone on its leaf is slow
 * (both directions are measured), as if its NIC were; with the hash
 * unknown the outcome cannot tell, but a rank with mates is cleared by
 * its pairs on its leaf, and one alone is named with its leaf (which
 * the prolog never drains for). */
static void rank_as_its_leaf(const struct fab *f, const struct cxd_suspect *s)
{
	int mates = 0;

	if (s->kind != CXD_S_RANK)
		return;
	for (int q = 0; q < f->t.n; q++)
		mates += q != s->id && f->t.sof[q] == f->t.sof[s->id];
	assert_int_equal(mates, 0);
	assert_true(names_switch(s, f->t.sof[s->id]));
}

/* A slow spine on each shape and routing: a way that holds it, and no
 * NIC but one not told apart from its leaf (rank_as_its_leaf). */
static void test_slow_spine(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 7;
	int tried = 0;

	(void) state;
	for (int t = 0; t < SHAPES; t++) {
		int k, nbad;

		fat_tree(&f, &seed);
		k = (int) draw(&seed, 0, (unsigned) f.spines - 1);
		nbad = spine_slow(&f, k, t % 2, r.out);
		judge(&f, &r);
		/* too few bad pairs to stand for a spine: the plan's
		 * sure crossings speak (not this test's) */
		if (nbad >= 2 && nbad >= 0.5 * spine_expect(&f, k)) {
			tried++;
			assert_true(r.ns >= 1);
			assert_true(r.s[0].maybe);
			assert_true(names_switch(&r.s[0], f.leaves + k));
			for (int j = 0; j < r.ns; j++)
				rank_as_its_leaf(&f, &r.s[j]);
			assert_int_equal(r.st.nunexplained, 0);
		}
		done(&f);
	}
	assert_true(tried >= SHAPES / 2);
}

/* A bad NIC (every pair it is in bad) on each shape: that rank alone. */
static void test_bad_nic(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 11;

	(void) state;
	for (int t = 0; t < SHAPES; t++) {
		int n;

		fat_tree(&f, &seed);
		n = (int) draw(&seed, 0, (unsigned) f.t.n - 1);
		for (int i = 0; i < f.p.npair; i++)
			r.out[i] = f.p.pair[i].a == n || f.p.pair[i].b == n ?
				   CXD_BO_BAD : CXD_BO_GOOD;
		judge(&f, &r);
		assert_int_equal(r.ns, 1);
		assert_false(r.s[0].maybe);
		assert_true(r.s[0].kind == CXD_S_RANK ? r.s[0].id == n :
			    f.p.comp[n].cls >= 0);
		/* alone on its leaf, the leaf is alike; a spine never */
		for (int j = 0; j < r.s[0].nalike; j++)
			assert_false(r.s[0].alike[j].kind == CXD_S_SWITCH &&
				     r.s[0].alike[j].id >= f.leaves);
		done(&f);
	}
}

/* Two slow leaves (every pair out of them bad) on shapes of 5 spines or
 * more: the two leaves, never a way, though one spine may carry every
 * bad pair: a spine would have made all of a leaf's pairs bad by a
 * chance under one in a hundred. */
static void test_two_leaves(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 13;
	int tried = 0;

	(void) state;
	for (int t = 0; t < 4 * SHAPES && tried < SHAPES / 2; t++) {
		int la, lb, ca, cb, na = 0, nb = 0;

		fat_tree(&f, &seed);
		la = (int) draw(&seed, 0, (unsigned) f.leaves - 1);
		lb = (la + 1) % f.leaves;
		ca = cxd_cover_find(&f.p, CXD_COVER_SWITCH, la, -1);
		cb = cxd_cover_find(&f.p, CXD_COVER_SWITCH, lb, -1);
		for (int i = 0; i < f.p.npair; i++) {
			int sa = f.t.sof[f.p.pair[i].a];
			int sb = f.t.sof[f.p.pair[i].b];
			bool cross = sa != sb;

			r.out[i] = cross && (sa == la || sb == la || sa == lb ||
					     sb == lb) ? CXD_BO_BAD : CXD_BO_GOOD;
			na += cross && (sa == la || sb == la);
			nb += cross && (sa == lb || sb == lb);
		}
		if (f.spines < 5 || f.leaves < 4 || na < 5 || nb < 5 ||
		    ca < 0 || cb < 0 || f.p.comp[ca].cls == f.p.comp[cb].cls) {
			done(&f);
			continue;
		}
		tried++;
		judge(&f, &r);
		assert_true(r.ns >= 2);
		for (int j = 0; j < r.ns; j++)
			assert_false(r.s[j].maybe);
		assert_true(names_switch(&r.s[0], la) ||
			    names_switch(&r.s[0], lb));
		assert_true(names_switch(&r.s[1], la) ||
			    names_switch(&r.s[1], lb));
		done(&f);
	}
	assert_true(tried >= 5);
}

/* A slow spine and a slow leaf (every pair out of it bad) together, on
 * shapes of 5 spines or more: the spine among the ways, and the leaf
 * too, though the spine's way may carry each of the leaf's bad pairs. */
static void test_spine_and_leaf(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 17;
	int tried = 0;

	(void) state;
	for (int t = 0; t < 8 * SHAPES && tried < SHAPES / 2; t++) {
		int k, la, nl = 0, way = -1, leaf = -1;

		fat_tree(&f, &seed);
		k = (int) draw(&seed, 0, (unsigned) f.spines - 1);
		la = (int) draw(&seed, 0, (unsigned) f.leaves - 1);
		spine_slow(&f, k, true, r.out);
		for (int i = 0; i < f.p.npair; i++) {
			int sa = f.t.sof[f.p.pair[i].a];
			int sb = f.t.sof[f.p.pair[i].b];

			if (sa != sb && (sa == la || sb == la)) {
				r.out[i] = CXD_BO_BAD;
				nl++;
			}
		}
		if (f.spines < 5 || nl < 8 ||
		    spine_slow_count(&f, k, la) < 4) {
			done(&f);
			continue;
		}
		tried++;
		judge(&f, &r);
		for (int j = 0; j < r.ns; j++) {
			if (r.s[j].maybe && names_switch(&r.s[j], f.leaves + k))
				way = j;
			if (!r.s[j].maybe && names_switch(&r.s[j], la))
				leaf = j;
		}
		assert_true(way >= 0);
		assert_true(leaf >= 0);
		done(&f);
	}
	assert_true(tried >= 5);
}

/* A dragonfly of 2 to 5 groups of 1 to 4 switches of 1 to 4 ranks, 1
 * or 2 cables a local link, 1 to 3 global links a group pair. */
static void dragonfly(struct fab *f, unsigned *seed)
{
	int g = (int) draw(seed, 2, 5), s = (int) draw(seed, 1, 4);
	int h = (int) draw(seed, 1, 4), local = (int) draw(seed, 1, 2);

	memset(f, 0, sizeof(*f));
	tfab_dragonfly(&f->t, g, s, h, local, (int) draw(seed, 1, 3));
	assert_int_equal(cxd_routes_build(&f->t.tm, f->t.n, &f->rt), 0);
	assert_int_equal(cxd_cover_plan_build(&f->t.tm, f->t.n, &f->rt, NULL,
					      &f->p), 0);
	assert_true(f->p.npair <= 8192);
}

/* Every pair crossing component comp for sure bad, the rest good. */
static void sure_bad(const struct fab *f, int comp, struct run *r)
{
	for (int i = 0; i < f->p.npair; i++) {
		r->out[i] = CXD_BO_GOOD;
		for (size_t e = f->p.sure_at[i]; e < f->p.sure_at[i + 1]; e++)
			if (f->p.sure[e] == comp)
				r->out[i] = CXD_BO_BAD;
	}
}

/* Each class's component bad, on drawn dragonflies: one suspect, that
 * class's, not a way. */
static void test_dragonfly_classes(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 5;

	(void) state;
	for (int t = 0; t < 40; t++) {
		dragonfly(&f, &seed);
		for (int c = 0; c < f.p.ncls; c++) {
			int comp = f.p.member[f.p.cls_at[c]];
			struct cxd_alike a;

			sure_bad(&f, comp, &r);
			judge(&f, &r);
			assert_int_equal(r.ns, 1);
			assert_false(r.s[0].maybe);
			cxd_judge_budget_ids(&f.p, &f.t.tm, comp, &a);
			assert_true(names(&r.s[0], &a));
			assert_int_equal(r.st.nunexplained, 0);
		}
		done(&f);
	}
}

/* Healthy: nothing named. */
static void test_none(void **state)
{
	static struct fab f;
	static struct run r;
	unsigned seed = 3;

	(void) state;
	fat_tree(&f, &seed);
	memset(r.out, CXD_BO_GOOD, sizeof(r.out));
	judge(&f, &r);
	assert_int_equal(r.ns, 0);
	done(&f);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_slow_spine),
	cmocka_unit_test(test_bad_nic),
	cmocka_unit_test(test_two_leaves),
	cmocka_unit_test(test_spine_and_leaf),
	cmocka_unit_test(test_dragonfly_classes),
	cmocka_unit_test(test_none))

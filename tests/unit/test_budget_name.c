/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget's naming (lib/sweep/judge/judge_budget.c): a
 * covering plan's pairs made bad as one component would make them (every
 * pair crossing it for sure), the rest good; the class of that
 * component is named, whole ("cannot be told apart" where it holds
 * several), and nothing else. No bad pair: nothing named. A switch's
 * pairs that only may cross it explained by it, not named apart. Two
 * faults apart: both. A pair not judged clears nothing. The ring plan
 * (plan_ring.c): rounds without a rank twice, every NIC crossed, a bad
 * NIC named. A good pair slower by design (across groups) clears nothing
 * faster pairs cross.
 */
#include <errno.h>
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
#include "sweep/sched/plan_ring.h"

#define CAP 32

struct fab {
	struct tfab t;
	struct cxd_routes rt;
	struct cxd_cover_plan p;
};

static void plan(struct fab *f, int route)
{
	tfab_map(&f->t, route);
	assert_int_equal(cxd_routes_build(&f->t.tm, f->t.n, &f->rt), 0);
	assert_int_equal(cxd_cover_plan_build(&f->t.tm, f->t.n, &f->rt, NULL,
					      &f->p), 0);
}

/* sim/platgen.py's dragonfly as the e2e test runs it: g groups of s
 * switches of h hosts, the switches of a group all linked, group pair
 * (i, j) joined by nb global links, link b from switch (j + b) mod s of
 * i to (i + b) mod s of j (platgen deals a bundle over the switches:
 * with nb 2 a pair between the groups may take either). */
static void dragonfly_nb(struct fab *f, int g, int s, int h, int nb)
{
	memset(f, 0, sizeof(*f));
	tfab_dragonfly(&f->t, g, s, h, 1, nb);
	plan(f, CXD_TOPO_R_MINIMAL);
}

static void dragonfly(struct fab *f, int g, int s, int h)
{
	dragonfly_nb(f, g, s, h, 1);
}

static void done(struct fab *f)
{
	cxd_cover_plan_free(&f->p);
	cxd_routes_free(&f->rt);
}

static bool crosses(const struct cxd_cover_plan *p, int i, int comp)
{
	for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++)
		if (p->sure[e] == comp)
			return true;
	return false;
}

/* Pairs crossing any of comps for sure bad, the rest good. */
static void outcome_of(const struct cxd_cover_plan *p, const int *comps,
		       int nc, unsigned char *out)
{
	for (int i = 0; i < p->npair; i++) {
		out[i] = CXD_BO_GOOD;
		for (int k = 0; k < nc; k++)
			if (crosses(p, i, comps[k]))
				out[i] = CXD_BO_BAD;
	}
}

/* Suspect s names exactly the members of class c (itself, then alike). */
static void names_class(const struct cxd_cover_plan *p,
			const struct cxd_topo_map *tm,
			const struct cxd_suspect *s, int c)
{
	int size = p->cls_at[c + 1] - p->cls_at[c];

	assert_int_equal(s->nalike + 1, size);
	for (int k = p->cls_at[c]; k < p->cls_at[c + 1]; k++) {
		struct cxd_alike a;
		bool found = false;

		cxd_judge_budget_ids(p, tm, p->member[k], &a);
		found = s->kind == a.kind && s->id == a.id && s->id2 == a.id2;
		for (int j = 0; j < s->nalike; j++)
			found |= s->alike[j].kind == a.kind &&
				 s->alike[j].id == a.id &&
				 s->alike[j].id2 == a.id2;
		assert_true(found);
	}
}

static int name(const struct fab *f, const unsigned char *out,
		struct cxd_suspect *s, struct cxd_budget_named *st)
{
	return cxd_judge_budget_name(&f->p, &f->t.tm, out, CXD_M_BW, NULL, s, CAP,
				     st);
}

/* Every class of a 4 x 4 x 4 dragonfly's plan named alone when its
 * component is bad (NICs, links, bundles, switches alike), with one and
 * two global links a group pair. */
static void test_every_class_named(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;

	(void) state;
	for (int nb = 1; nb <= 2; nb++) {
		dragonfly_nb(&f, 4, 4, 4, nb);
		assert_true(f.p.npair < 64 * 63 / 4);
		for (int c = 0; c < f.p.ncls; c++) {
			int comp = f.p.member[f.p.cls_at[c]];

			outcome_of(&f.p, &comp, 1, out);
			assert_int_equal(name(&f, out, s, &st), 1);
			assert_true(s[0].routed);
			assert_int_equal(s[0].bad, f.p.comp[comp].sure);
			assert_int_equal(st.nbad, f.p.comp[comp].sure);
			assert_int_equal(st.nsure, st.nbad);
			assert_int_equal(st.nunexplained, 0);
			names_class(&f.p, &f.t.tm, &s[0], c);
		}
		done(&f);
	}
}

/* A switch slow on its links only (its uplinks, as platgen's --slow
 * switch: makes it): the pairs between two of its own ranks stay good
 * and clear it of nothing; it is named. Each switch with such a pair
 * in the plan is tried. */
static void slow_uplinks(const struct fab *f, unsigned char *out,
			 struct cxd_suspect *s)
{
	struct cxd_budget_named st;
	int tried = 0;

	for (int sw = 0; sw < f->t.ns; sw++) {
		int c = cxd_cover_find(&f->p, CXD_COVER_SWITCH, sw, -1);
		bool inner = false;

		outcome_of(&f->p, &c, 1, out);
		for (int i = 0; i < f->p.npair; i++)
			if (f->t.sof[f->p.pair[i].a] == sw &&
			    f->t.sof[f->p.pair[i].b] == sw) {
				out[i] = CXD_BO_GOOD;
				inner = true;
			}
		if (!inner)
			continue;
		tried++;
		assert_int_equal(name(f, out, s, &st), 1);
		assert_int_equal(s[0].kind, CXD_S_SWITCH);
		assert_int_equal(s[0].id, sw);
	}
	assert_true(tried > 0);
}

/* A bad NIC is that rank; a bad switch that switch, slow on its links
 * only too; nothing bad, nothing named. */
static void test_nic_switch_none(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int nic, sw;

	(void) state;
	dragonfly(&f, 4, 4, 4);
	nic = cxd_cover_find(&f.p, CXD_COVER_NIC, 21, -1);
	outcome_of(&f.p, &nic, 1, out);
	assert_int_equal(name(&f, out, s, &st), 1);
	assert_int_equal(s[0].kind, CXD_S_RANK);
	assert_int_equal(s[0].id, 21);
	assert_int_equal(s[0].nalike, 0);
	sw = cxd_cover_find(&f.p, CXD_COVER_SWITCH, 5, -1);
	outcome_of(&f.p, &sw, 1, out);
	assert_int_equal(name(&f, out, s, &st), 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].id, 5);
	assert_int_equal(s[0].id2, CXD_SWL_ALL);
	slow_uplinks(&f, out, s);
	outcome_of(&f.p, NULL, 0, out);
	assert_int_equal(name(&f, out, s, &st), 0);
	assert_int_equal(st.nbad, 0);
	done(&f);
}

/* A NIC at three quarters of a node link on a dragonfly whose global
 * cables run at half: its pairs on its switch and in its group are bad,
 * those across groups good (the global cable binds them). Every NIC
 * tried. With the pairs' speeds, those slower pairs clear nothing the
 * faster ones cross, and the NIC is named alone; without, a good pair
 * across groups clears it (where the plan has one: most NICs). */
static void test_speed_clears(void **state)
{
	static struct fab f;
	static double v[4096];
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	struct cxd_budget_speed sp = { v, 0.9 };
	int tried = 0;

	(void) state;
	dragonfly(&f, 3, 2, 3);
	assert_true(f.p.npair < 4096);
	for (int i = 0; i < f.p.npair; i++)
		v[i] = f.t.gof[f.p.pair[i].a] == f.t.gof[f.p.pair[i].b] ?
		       24000.0 : 12000.0;
	for (int r = 0; r < f.t.n; r++) {
		int across = 0;

		for (int i = 0; i < f.p.npair; i++) {
			bool mine = f.p.pair[i].a == r || f.p.pair[i].b == r;

			out[i] = mine && v[i] > 20000.0 ? CXD_BO_BAD :
				 CXD_BO_GOOD;
			across += mine && v[i] < 20000.0;
		}
		assert_int_equal(cxd_judge_budget_name(&f.p, &f.t.tm, out,
						       CXD_M_BW, &sp, s, CAP,
						       &st), 1);
		assert_int_equal(s[0].kind, CXD_S_RANK);
		assert_int_equal(s[0].id, r);
		assert_int_equal(s[0].nalike, 0);
		if (across == 0)
			continue;
		tried++;
		assert_int_equal(cxd_judge_budget_name(&f.p, &f.t.tm, out,
						       CXD_M_BW, NULL, s, CAP,
						       &st) == 1 &&
				 s[0].kind == CXD_S_RANK && s[0].id == r, 0);
	}
	assert_true(tried >= f.t.n / 2);
	done(&f);
}

/* A switch slow on every way through it: the pairs that only may take
 * it (one of their ways) are bad too, and explained maybe by it; no NIC
 * or link is named for them. Each switch some pair may cross tried. */
static void test_maybe_through(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int tried = 0;

	(void) state;
	dragonfly_nb(&f, 4, 4, 4, 2);
	for (int sw = 0; sw < f.t.ns; sw++) {
		int c = cxd_cover_find(&f.p, CXD_COVER_SWITCH, sw, -1), nm = 0;

		outcome_of(&f.p, &c, 1, out);
		for (int i = 0; i < f.p.npair; i++)
			for (size_t e = f.p.maybe_at[i];
			     e < f.p.maybe_at[i + 1]; e++)
				if (f.p.maybe[e] == c && out[i] != CXD_BO_BAD) {
					out[i] = CXD_BO_BAD;
					nm++;
				}
		if (nm == 0)
			continue;
		tried++;
		assert_int_equal(name(&f, out, s, &st), 1);
		assert_int_equal(s[0].kind, CXD_S_SWITCH);
		assert_int_equal(s[0].id, sw);
		assert_int_equal(st.nmaybe, nm);
		assert_int_equal(st.nunexplained, 0);
	}
	assert_true(tried > 0);
	done(&f);
}

/* Two bad NICs in different groups: both named, nothing more. */
static void test_two_apart(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int c[2], got = 0;

	(void) state;
	dragonfly(&f, 4, 4, 4);
	c[0] = cxd_cover_find(&f.p, CXD_COVER_NIC, 2, -1);
	c[1] = cxd_cover_find(&f.p, CXD_COVER_NIC, 45, -1);
	outcome_of(&f.p, c, 2, out);
	assert_int_equal(name(&f, out, s, &st), 2);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(s[k].kind, CXD_S_RANK);
		got |= s[k].id == 2 ? 1 : s[k].id == 45 ? 2 : 4;
	}
	assert_int_equal(got, 3);
	assert_int_equal(st.nunexplained, 0);
	done(&f);
}

/* A pair not judged is neither good nor bad: the bad NIC is named from
 * its other pairs, one bad pair fewer. */
static void test_unjudged_clears_nothing(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int nic, first = -1;

	(void) state;
	dragonfly(&f, 4, 4, 4);
	nic = cxd_cover_find(&f.p, CXD_COVER_NIC, 9, -1);
	outcome_of(&f.p, &nic, 1, out);
	for (int i = 0; i < f.p.npair; i++)
		if (out[i] == CXD_BO_BAD && first < 0)
			first = i;
	assert_true(first >= 0);
	out[first] = CXD_BO_UNJUDGED;
	assert_int_equal(name(&f, out, s, &st), 1);
	assert_int_equal(s[0].kind, CXD_S_RANK);
	assert_int_equal(s[0].id, 9);
	assert_int_equal(st.nbad, f.p.comp[nic].sure - 1);
	done(&f);
}

/* s0 - s1 - s2, s1 bare, s3 on s0: the two links, s1 and s2 (whose
 * pairs out all take them) are one class, named as one suspect that
 * cannot be told apart from the other three. */
static void test_class_of_three(void **state)
{
	static struct fab f;
	unsigned char out[4096];
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	int l01;

	(void) state;
	memset(&f, 0, sizeof(f));
	f.t.ns = 4;
	tfab_ranks_on(&f.t, 0, 2);
	tfab_ranks_on(&f.t, 2, 2);
	tfab_ranks_on(&f.t, 3, 2);
	tfab_link_add(&f.t, 0, 1, 1);
	tfab_link_add(&f.t, 1, 2, 1);
	tfab_link_add(&f.t, 0, 3, 1);
	plan(&f, CXD_TOPO_R_ECMP);
	l01 = cxd_cover_find(&f.p, CXD_COVER_LINK, 0, -1);
	outcome_of(&f.p, &l01, 1, out);
	assert_int_equal(name(&f, out, s, &st), 1);
	assert_int_equal(s[0].nalike, 3);
	assert_int_equal(s[0].kind, CXD_S_LINK);
	assert_int_equal(s[0].id, 0); /* a link: its switches */
	assert_int_equal(s[0].id2, 1);
	names_class(&f.p, &f.t.tm, &s[0], f.p.comp[l01].cls);
	done(&f);
}

/* The ring: rounds with no rank twice, every NIC crossed twice a shift;
 * a bad NIC named alone; two ranks are one class of two. */
static void test_ring(void **state)
{
	struct cxd_cover_plan p;
	struct cxd_suspect s[CAP];
	struct cxd_budget_named st;
	unsigned char out[256];
	int nic = 5;

	(void) state;
	assert_int_equal(cxd_cover_ring_build(12, 2, &p), 0);
	assert_int_equal(p.npair, 24);
	for (int r = 0; r < p.nround; r++) {
		int seen[12] = { 0 };

		for (int i = p.round_at[r]; i < p.round_at[r + 1]; i++)
			assert_int_equal(seen[p.pair[i].a]++ +
					 seen[p.pair[i].b]++, 0);
	}
	for (int c = 0; c < 12; c++)
		assert_int_equal(p.comp[c].sure, 4);
	assert_int_equal(p.ncls, 12);
	assert_int_equal(p.nalike, 0);
	outcome_of(&p, &nic, 1, out);
	assert_int_equal(cxd_judge_budget_name(&p, NULL, out, CXD_M_LAT, NULL, s,
					       CAP, &st), 1);
	assert_int_equal(s[0].kind, CXD_S_RANK);
	assert_int_equal(s[0].id, 5);
	assert_int_equal(s[0].metric, CXD_M_LAT);
	cxd_cover_plan_free(&p);
	assert_int_equal(cxd_cover_ring_build(2, 1, &p), 0);
	assert_int_equal(p.ncls, 1);
	nic = 0;
	outcome_of(&p, &nic, 1, out);
	assert_int_equal(cxd_judge_budget_name(&p, NULL, out, CXD_M_BW, NULL, s,
					       CAP, &st), 1);
	assert_int_equal(s[0].nalike, 1);
	assert_int_equal(s[0].alike[0].id, s[0].id == 0 ? 1 : 0);
	cxd_cover_plan_free(&p);
	assert_int_equal(cxd_cover_ring_build(12, 7, &p), -EINVAL);
	assert_int_equal(cxd_cover_ring_build(1, 1, &p), -EINVAL);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_every_class_named),
	cmocka_unit_test(test_nic_switch_none),
	cmocka_unit_test(test_speed_clears),
	cmocka_unit_test(test_maybe_through),
	cmocka_unit_test(test_two_apart),
	cmocka_unit_test(test_unjudged_clears_nothing),
	cmocka_unit_test(test_class_of_three),
	cmocka_unit_test(test_ring))

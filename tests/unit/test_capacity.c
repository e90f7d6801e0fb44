/* SPDX-License-Identifier: BSD-3-Clause */
/* The capacity pass, pure: its plan from a placement and its judging of
 * the figures (capacity.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/capacity/capacity.h"
#include "sweep/capacity/capacity_model.h"

#define MAXN 64

/* n ranks, h per switch, s switches per group (0: no groups), each on
 * its own host. */
struct fab {
	int n;
	int sof[MAXN], gof[MAXN], sg[MAXN];
	struct cxd_sweep_rank r[MAXN];
	struct cxd_topo_link l[MAXN * MAXN];
	struct cxd_topo_map tm;
};

/* The fabric's links (with groups): every two switches of a group, and
 * each group pair's one link from switch (j mod s) of group i to switch
 * (i mod s) of group j, as a --topology file's link lines say. */
static void fab_links(struct fab *f, int s)
{
	int ns = f->tm.nswitch, ng = f->tm.ngroup, k = 0;

	for (int a = 0; a < ns; a++)
		f->sg[a] = a / s;
	for (int a = 0; a < ns; a++)
		for (int b = a + 1; b < ns; b++)
			if (a / s == b / s)
				f->l[k++] = (struct cxd_topo_link){ a, b, 1, 0 };
	for (int i = 0; i < ng; i++)
		for (int j = i + 1; j < ng; j++)
			f->l[k++] = (struct cxd_topo_link){ i * s + j % s,
							     j * s + i % s, 1, 0 };
	f->tm.link = f->l;
	f->tm.nlink = k;
	f->tm.switch_group = f->sg;
	f->tm.route = CXD_TOPO_R_MINIMAL;
}

/* The plan of f as cxd_cap_plan makes it (first load). */
static int plan_of(const struct fab *f, const bool *skip,
		   const bool *skip_pair, const int *width, const bool *stated,
		   int max_at_once, struct cxd_cap_plan *pl)
{
	const struct cxd_cap_want w = { skip, skip_pair, width, stated,
					max_at_once, 0 };

	return cxd_cap_plan(&f->tm, f->r, f->n, &w, pl);
}

/* The model over the fabric's links (freed by the caller). */
static struct cxd_cap_model *model(const struct fab *f)
{
	struct cxd_cap_model *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	assert_int_equal(cxd_cap_model_init(m, &f->tm, f->n), 0);
	return m;
}

static void model_free(struct cxd_cap_model *m)
{
	cxd_cap_model_free(m);
	free(m);
}

static void fab_make(struct fab *f, int n, int h, int s)
{
	memset(f, 0, sizeof(*f));
	f->n = n;
	for (int i = 0; i < n; i++) {
		f->sof[i] = i / h;
		f->gof[i] = s ? i / (h * s) : -1;
		snprintf(f->r[i].host, sizeof(f->r[i].host), "nid%03d", i);
		snprintf(f->r[i].nic, sizeof(f->r[i].nic), "cxi0");
	}
	f->tm = (struct cxd_topo_map){
		.switch_of = f->sof, .group_of = s ? f->gof : NULL,
		.nswitch = n / h, .ngroup = s ? n / (h * s) : 0 };
}

/* n ranks, h a switch, s switches a group, linked; the plan of the
 * widths, its model, and room for its figures (zeroed). */
static double *judge_setup(struct fab *f, int n, int h, int s,
			   const int *width, const bool *stated,
			   struct cxd_cap_plan *pl, struct cxd_cap_model **m)
{
	double *fig;

	fab_make(f, n, h, s);
	fab_links(f, s);
	assert_int_equal(plan_of(f, NULL, NULL, width, stated, 64, pl), 0);
	*m = model(f);
	fig = calloc(CXD_CAP_NFIG(pl->nunits), sizeof(double));
	assert_non_null(fig);
	return fig;
}

static const int width1[CXD_TOPO_W_KINDS] = { 1, 1, 1 };
static const int width2[CXD_TOPO_W_KINDS] = { 2, 2, 2 };
static const bool unstated[CXD_TOPO_W_KINDS] = { false, false, false };

/* No rank twice in a round; each pair's ends on the unit's parts. */
static void check_rounds(const struct fab *f, const struct cxd_cap_plan *pl)
{
	for (int r = 0; r < pl->nrounds; r++) {
		int seen[MAXN] = { 0 };

		for (int u = 0; u < pl->nunits; u++) {
			const struct cxd_cap_unit *x = &pl->unit[u];

			for (int i = 0; x->round == r && i < x->np; i++) {
				const int *dom = x->scope == CXD_CAP_BUNDLE ?
						 f->gof : f->sof;

				assert_int_equal(seen[x->p[0][i].a]++, 0);
				assert_int_equal(seen[x->p[0][i].b]++, 0);
				assert_int_equal(dom[x->p[0][i].a], x->a);
				assert_int_equal(dom[x->p[0][i].b], x->b);
			}
		}
	}
}

/* 3 groups x 2 switches x 2 hosts, widths 1: every group pair in the
 * circle's 3 rounds, every switch pair inside its group in one, two
 * pairs (the width and one) on each, a group's pairs spread over its
 * switches. */
static void test_plan_dragonfly(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;

	(void) state;
	fab_make(&f, 12, 2, 2);
	assert_int_equal(plan_of(&f, NULL, NULL, width1, unstated, 64, &pl), 0);
	assert_int_equal(pl.cls[CXD_CAP_BUNDLE].units, 3);
	assert_int_equal(pl.cls[CXD_CAP_BUNDLE].load, 2);
	assert_int_equal(pl.cls[CXD_CAP_BUNDLE].nrounds, 3);
	assert_int_equal(pl.cls[CXD_CAP_SWITCHES].units, 3);
	assert_int_equal(pl.cls[CXD_CAP_SWITCHES].nrounds, 1);
	assert_false(pl.cls[CXD_CAP_LEAVES].present);
	assert_int_equal(pl.nrounds, 4);
	for (int u = 0; u < pl.nunits; u++) {
		assert_int_equal(pl.unit[u].np, 2);
		assert_int_equal(pl.unit[u].state, CXD_CAP_SKIPPED);
	}
	/* the bundle's two pairs leave from both switches of group a */
	assert_int_not_equal(f.sof[pl.unit[0].p[0][0].a],
			     f.sof[pl.unit[0].p[0][1].a]);
	check_rounds(&f, &pl);
	cxd_cap_plan_free(&pl);
}

/* A rank named sits out (its switch keeps one rank: its switch pair is
 * not loaded), a bundle named too; few pairs at once split the rounds;
 * an unknown width loads nothing and says why. */
static void test_plan_skips(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	bool skip[MAXN] = { false }, skip_pair[9] = { false };
	int w[CXD_TOPO_W_KINDS] = { 0, 1, 0 }, loaded = 0;

	(void) state;
	fab_make(&f, 12, 2, 2);
	skip[1] = true;         /* g0s0 keeps rank 0 only */
	skip_pair[1 * 3 + 2] = true; /* g1-g2 */
	assert_int_equal(plan_of(&f, skip, skip_pair, width1, unstated, 2, &pl), 0);
	for (int u = 0; u < pl.nunits; u++) {
		const struct cxd_cap_unit *x = &pl.unit[u];

		for (int i = 0; i < x->np; i++)
			assert_true(x->p[0][i].a != 1 && x->p[0][i].b != 1);
		if (x->scope == CXD_CAP_SWITCHES && x->a == 0)
			assert_int_equal(x->np, 0);
		if (x->scope == CXD_CAP_BUNDLE && x->a == 1 && x->b == 2)
			assert_int_equal(x->np, 0);
		loaded += x->np > 0;
	}
	assert_int_equal(loaded, 4);
	/* 2 pairs at once at most: one unit a round (the bundles' 3
	 * circle rounds, one of them empty, then 2 for the switches) */
	assert_int_equal(pl.cls[CXD_CAP_SWITCHES].nrounds, 2);
	assert_int_equal(pl.nrounds, 5);
	check_rounds(&f, &pl);
	cxd_cap_plan_free(&pl);
	assert_int_equal(plan_of(&f, NULL, NULL, w, unstated, 64, &pl), 0);
	assert_true(pl.cls[CXD_CAP_SWITCHES].present);
	assert_int_equal(pl.cls[CXD_CAP_SWITCHES].load, 0);
	assert_string_equal(pl.cls[CXD_CAP_SWITCHES].why,
			    "its width is unknown");
	assert_int_equal(pl.cls[CXD_CAP_BUNDLE].load, 2);
	cxd_cap_plan_free(&pl);
}

/* No groups: leaves, each against CXD_CAP_LEAF_ROUNDS others. */
static void test_plan_leaves(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	int units_of[8] = { 0 };

	(void) state;
	fab_make(&f, 32, 4, 0);
	assert_int_equal(plan_of(&f, NULL, NULL, width1, unstated, 64, &pl), 0);
	assert_true(pl.cls[CXD_CAP_LEAVES].present);
	assert_false(pl.cls[CXD_CAP_BUNDLE].present);
	assert_int_equal(pl.nrounds, CXD_CAP_LEAF_ROUNDS);
	for (int u = 0; u < pl.nunits; u++) {
		units_of[pl.unit[u].a]++;
		units_of[pl.unit[u].b]++;
	}
	for (int l = 0; l < 8; l++)
		assert_int_equal(units_of[l], CXD_CAP_LEAF_ROUNDS);
	check_rounds(&f, &pl);
	cxd_cap_plan_free(&pl);
}

/* Every pair of unit u at v MB/s each way, in every repeat. */
static void fill(double *fig, const struct cxd_cap_plan *pl, int u, double v)
{
	for (int i = 0; i < pl->unit[u].np; i++)
		for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
			fig[CXD_CAP_FIG(u, i, rep, 0)] = v;
			fig[CXD_CAP_FIG(u, i, rep, 1)] = v * 1.1;
		}
}

static int find(const struct cxd_cap_plan *pl, enum cxd_cap_scope s, int a,
		int b)
{
	for (int u = 0; u < pl->nunits; u++)
		if (pl->unit[u].scope == s && pl->unit[u].a == a &&
		    pl->unit[u].b == b)
			return u;
	fail();
	return -1;
}

/* The model's draws: 2 groups x 2 switches x 4 hosts, one global link
 * at half a pair's rate: every bundle unit (2 pairs) carries that half,
 * bound by the global link, whichever way is drawn; at a pair's rate the
 * L1 link before it or the global link bind, never more than one pair
 * each crosses, and never less than one link's worth. */
static void test_model_draws(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	struct cxd_cap_model *m;
	double tot[CXD_CAP_DRAWS], half[CXD_CAP_L_KINDS] = { 10, 5, 10 };
	double full[CXD_CAP_L_KINDS] = { 10, 10, 10 };
	int kind, seen = 0;

	(void) state;
	free(judge_setup(&f, 16, 4, 2, width1, unstated, &pl, &m));
	for (int u = 0; u < pl.nunits; u++) {
		const struct cxd_cap_unit *x = &pl.unit[u];

		if (x->scope != CXD_CAP_BUNDLE || x->np != 2)
			continue;
		seen++;
		assert_int_equal(cxd_cap_model_draws(m, x, half, 10, tot,
						     &kind), 0);
		assert_int_equal(kind, CXD_CAP_L_GLOBAL);
		for (int d = 0; d < CXD_CAP_DRAWS; d++)
			assert_true(fabs(tot[d] - 5) < 1e-6);
		assert_int_equal(cxd_cap_model_draws(m, x, full, 10, tot,
						     &kind), 0);
		assert_true(kind == CXD_CAP_L_GLOBAL ||
			    kind == CXD_CAP_L_LOCAL);
		for (int d = 0; d < CXD_CAP_DRAWS; d++)
			assert_true(fabs(tot[d] - 10) < 1e-6);
	}
	assert_int_equal(seen, 1);
	model_free(m);
	cxd_cap_plan_free(&pl);
}

/* A leaf pair short one way only (its pairs into one leaf at half, out
 * of it in full): a hash by destination, not uplinks down, so it is
 * one_way and not named; short both ways it is named. A bundle short
 * one way is short (a dragonfly's links down may spare one way). */
static void slow_way(double *fig, const struct cxd_cap_plan *pl, int u,
		     int dir, double v)
{
	for (int rep = 0; rep < CXD_CAP_REPS; rep++)
		for (int i = 0; i < pl->unit[u].np; i++)
			fig[CXD_CAP_FIG(u, i, rep, dir)] = v;
}

static void test_one_way(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	struct cxd_cap_res res;
	struct cxd_cap_model *m;
	double *fig;
	int u;

	(void) state;
	/* 6 leaves of 4 (no links: judged against the typical leaf pair) */
	fab_make(&f, 24, 4, 0);
	assert_int_equal(plan_of(&f, NULL, NULL, width1, unstated, 64, &pl), 0);
	fig = calloc(CXD_CAP_NFIG(pl.nunits), sizeof(double));
	assert_non_null(fig);
	for (int k = 0; k < pl.nunits; k++)
		fill(fig, &pl, k, 50.0);
	u = 0;
	slow_way(fig, &pl, u, 0, 20.0);
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       NULL, &res), 0);
	assert_int_equal(pl.unit[u].state, CXD_CAP_ONE_WAY);
	cxd_cap_res_free(&res);
	slow_way(fig, &pl, u, 1, 20.0);
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       NULL, &res), 0);
	assert_int_equal(pl.unit[u].state, CXD_CAP_NEEDS_LINKS);
	cxd_cap_res_free(&res);
	cxd_cap_plan_free(&pl);
	free(fig);
	/* a bundle short one way is short, and named */
	fig = judge_setup(&f, 48, 3, 4, width2, unstated, &pl, &m);
	for (int k = 0; k < pl.nunits; k++)
		fill(fig, &pl, k, 50.0);
	u = find(&pl, CXD_CAP_BUNDLE, 1, 3);
	slow_way(fig, &pl, u, 0, 25.0);
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       m, &res), 0);
	assert_int_equal(pl.unit[u].state, CXD_CAP_SHORT);
	assert_int_equal(res.nfound, 1);
	cxd_cap_res_free(&res);
	cxd_cap_plan_free(&pl);
	model_free(m);
	free(fig);
}

/* The same fabric and faults as test_judge_names, then a reload from
 * other hosts (its own plan and figures): the bundle carries its full
 * load there (a collision of the first load's pairs), so it is cleared
 * and not named; the switch's units are short again and it stays named;
 * a unit the reload could not judge (a busy host) is unsure. */
static void test_confirm(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl, again;
	struct cxd_cap_res res, res2;
	struct cxd_cap_model *m;
	double *fig, *fig2;
	const struct cxd_cap_want w = { NULL, NULL, width2, unstated, 64, 1 };
	int bundle, busy, ab;

	(void) state;
	fig = judge_setup(&f, 48, 3, 4, width2, unstated, &pl, &m);
	assert_int_equal(cxd_cap_plan(&f.tm, f.r, f.n, &w, &again), 0);
	assert_int_equal(again.nunits, pl.nunits);
	fig2 = calloc(CXD_CAP_NFIG(again.nunits), sizeof(double));
	assert_non_null(fig2);
	bundle = find(&pl, CXD_CAP_BUNDLE, 1, 3);
	busy = find(&pl, CXD_CAP_SWITCHES, 4, 5);
	for (int u = 0; u < pl.nunits; u++) {
		bool sw5 = pl.unit[u].scope == CXD_CAP_SWITCHES &&
			   (pl.unit[u].a == 5 || pl.unit[u].b == 5);

		fill(fig, &pl, u, u == bundle ? 25.0 : sw5 ? 20.0 : 50.0);
		fill(fig2, &again, u, sw5 ? 20.0 : 50.0);
	}
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       m, &res), 0);
	assert_int_equal(res.nfound, 2);
	assert_true(cxd_cap_to_confirm(&pl));
	assert_int_equal(cxd_cap_judge(&again, fig2, NULL, 60.0, 0.1, false,
				       m, &res2), 0);
	again.unit[busy].state = CXD_CAP_UNSURE;
	assert_int_equal(cxd_cap_confirm(&pl, &again, &res), 0);
	assert_int_equal(pl.unit[bundle].state, CXD_CAP_CLEARED);
	assert_int_equal(pl.unit[busy].state, CXD_CAP_UNSURE);
	assert_int_equal(res.nunsure, 1);
	assert_int_equal(res.nfound, 1);
	assert_int_equal(res.found[0].scope, CXD_CAP_SWITCHES);
	assert_true(res.found[0].part);
	assert_int_equal(res.found[0].a, 5);
	/* A reload that carried its own expected but less than the bundle
	 * should have (bound 0.75 of it): its pairs' routes on fewer cables
	 * fit cables down as well as a healthy bundle: unproven, neither
	 * named nor cleared. */
	ab = find(&again, CXD_CAP_BUNDLE, 1, 3);
	for (int k = 0; k < 2; k++) {
		double got = k ? 0.8 : 0.7;

		pl.unit[bundle].state = CXD_CAP_SHORT;
		again.unit[ab].carried = got * pl.unit[bundle].expected;
		again.unit[ab].state = CXD_CAP_OK;
		assert_int_equal(cxd_cap_confirm(&pl, &again, &res), 0);
		assert_int_equal(pl.unit[bundle].state,
				 got < 0.75 ? CXD_CAP_UNPROVEN :
					      CXD_CAP_CLEARED);
		assert_int_equal(res.nunproven, got < 0.75);
		assert_int_equal(res.nfound, 1);
	}
	cxd_cap_res_free(&res);
	cxd_cap_res_free(&res2);
	cxd_cap_plan_free(&again);
	cxd_cap_plan_free(&pl);
	model_free(m);
	free(fig);
	free(fig2);
}

/* 4 groups x 4 switches x 3 hosts, widths 2 (3 pairs on each unit): a
 * bundle at half and every switch
 * pair of one switch at half are named, the bundle as itself, the
 * switch as the part most of whose units came short (its partners'
 * one short unit each explained by it); the slower direction counts. */
static void test_judge_names(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	struct cxd_cap_res res;
	struct cxd_cap_model *m;
	double *fig;

	(void) state;
	fig = judge_setup(&f, 48, 3, 4, width2, unstated, &pl, &m);
	for (int u = 0; u < pl.nunits; u++)
		fill(fig, &pl, u, 50.0); /* 3 pairs: 150 MB/s */
	fill(fig, &pl, find(&pl, CXD_CAP_BUNDLE, 1, 3), 25.0);
	for (int t = 4; t < 8; t++)
		if (t != 5)
			fill(fig, &pl, find(&pl, CXD_CAP_SWITCHES,
					    t < 5 ? t : 5, t < 5 ? 5 : t),
			     20.0);
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       m, &res), 0);
	assert_float_equal(pl.cls[CXD_CAP_BUNDLE].expected, 150.0, 1e-9);
	assert_float_equal(pl.cls[CXD_CAP_BUNDLE].bound, 0.75, 1e-9);
	assert_false(pl.cls[CXD_CAP_BUNDLE].from_width);
	assert_int_equal(res.nfound, 2);
	assert_int_equal(res.nunsure, 0);
	assert_int_equal(res.found[0].scope, CXD_CAP_SWITCHES);
	assert_true(res.found[0].part);
	assert_int_equal(res.found[0].a, 5);
	assert_int_equal(res.found[0].nshort, 3);
	assert_float_equal(res.found[0].ratio, 0.4, 1e-9);
	assert_int_equal(res.found[1].scope, CXD_CAP_BUNDLE);
	assert_false(res.found[1].part);
	assert_int_equal(res.found[1].a, 1);
	assert_int_equal(res.found[1].b, 3);
	assert_float_equal(res.found[1].carried, 75.0, 1e-9);
	cxd_cap_res_free(&res);
	/* pairs of 30 MB/s: the typical unit is 5 pairs wide, not the
	 * width's 2; half a pair of it is the bound */
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 30.0, 0.1, false,
				       m, &res), 0);
	assert_float_equal(pl.cls[CXD_CAP_SWITCHES].bound, 0.9, 1e-9);
	cxd_cap_res_free(&res);
	/* the same figures without the fabric's links: nothing named, the
	 * short units need links (the verdict is inconclusive) */
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 60.0, 0.1, false,
				       NULL, &res), 0);
	assert_int_equal(res.nfound, 0);
	assert_int_equal(res.nneeds, 4);
	assert_int_equal(pl.unit[find(&pl, CXD_CAP_BUNDLE, 1, 3)].state,
			 CXD_CAP_NEEDS_LINKS);
	cxd_cap_res_free(&res);
	free(fig);
	model_free(m);
	cxd_cap_plan_free(&pl);
}

/* A short unit with a busy rank, or under a poor tolerance, cannot be
 * judged; the larger repeat counts (noise only lowers a figure); a
 * stated width sets the expected from the typical pair. */
static void test_judge_unsure_and_stated(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	struct cxd_cap_res res;
	const bool stated[CXD_TOPO_W_KINDS] = { true, true, true };
	struct cxd_cap_model *m;
	double *fig, *busy;
	int u;

	(void) state;
	fig = judge_setup(&f, 32, 2, 4, width1, stated, &pl, &m);
	busy = calloc(CXD_CAP_NFIG(pl.nunits), sizeof(double));
	for (u = 0; u < pl.nunits; u++)
		fill(fig, &pl, u, 50.0);
	u = find(&pl, CXD_CAP_BUNDLE, 0, 2);
	fill(fig, &pl, u, 20.0);
	fig[CXD_CAP_FIG(u, 0, 1, 0)] = fig[CXD_CAP_FIG(u, 0, 1, 1)] = 500.0;
	fig[CXD_CAP_FIG(u, 1, 1, 0)] = fig[CXD_CAP_FIG(u, 1, 1, 1)] = 500.0;
	u = find(&pl, CXD_CAP_BUNDLE, 1, 3);
	fill(fig, &pl, u, 20.0);
	/* one run of the second pair waited for a CPU a third of its time;
	 * a fifth (CXD_JUDGE_BUSY_MAX) elsewhere is within bounds */
	busy[CXD_CAP_FIG(u, 1, 1, 0)] = 0.33;
	busy[CXD_CAP_FIG(find(&pl, CXD_CAP_BUNDLE, 0, 1), 0, 0, 1)] = 0.2;
	/* width 1 x 90 MB/s: 2 pairs at 50 carry 100, enough */
	assert_int_equal(cxd_cap_judge(&pl, fig, busy, 90.0, 0.1, false,
				       m, &res), 0);
	assert_true(pl.cls[CXD_CAP_BUNDLE].from_width);
	assert_float_equal(pl.cls[CXD_CAP_BUNDLE].expected, 90.0, 1e-9);
	assert_int_equal(pl.unit[find(&pl, CXD_CAP_BUNDLE, 0, 2)].state,
			 CXD_CAP_OK);
	assert_int_equal(pl.unit[u].state, CXD_CAP_UNSURE);
	assert_int_equal(res.nfound, 0);
	assert_int_equal(res.nunsure, 1);
	cxd_cap_res_free(&res);
	assert_int_equal(cxd_cap_judge(&pl, fig, NULL, 90.0, 0.4, true,
				       m, &res), 0);
	assert_int_equal(res.nfound, 0);
	assert_int_equal(res.nunsure, 1);
	assert_int_equal(pl.unit[u].state, CXD_CAP_UNSURE);
	cxd_cap_res_free(&res);
	free(fig);
	free(busy);
	model_free(m);
	cxd_cap_plan_free(&pl);
}

/* Stated widths as the model's rates: a kind's pairs over the cables
 * of one of its connections (a group pair's one cable here, a switch
 * pair's line of one); a kind not stated is fitted (NAN). The judging
 * above kept a stated bundle's 90 MB/s where the units carried 40: a
 * fitted rate would have taken the shortfall for the bundle's rate. */
static void test_stated_rates(void **state)
{
	struct fab f;
	struct cxd_cap_plan pl;
	struct cxd_cap_model *m;
	const bool stated[CXD_TOPO_W_KINDS] = { true, true, false };
	double fixed[CXD_CAP_L_KINDS];

	(void) state;
	free(judge_setup(&f, 32, 2, 4, width2, stated, &pl, &m));
	pl.cls[CXD_CAP_BUNDLE].pair = 80.0; /* its class's own pair */
	assert_int_equal(cxd_cap_stated_rates(&f.tm, &pl, 90.0, fixed), 0);
	assert_float_equal(fixed[CXD_CAP_L_GLOBAL], 160.0, 1e-9);
	assert_float_equal(fixed[CXD_CAP_L_LOCAL], 180.0, 1e-9);
	assert_true(isnan(fixed[CXD_CAP_L_UPLINK]));
	for (int l = 0; l < f.tm.nlink; l++)
		f.l[l].count = 4; /* four cables each: a quarter each */
	assert_int_equal(cxd_cap_stated_rates(&f.tm, &pl, 90.0, fixed), 0);
	assert_float_equal(fixed[CXD_CAP_L_GLOBAL], 40.0, 1e-9);
	assert_float_equal(fixed[CXD_CAP_L_LOCAL], 45.0, 1e-9);
	model_free(m);
	cxd_cap_plan_free(&pl);
}

/* The bundles set out of the pass by suspect s, as a bit per group
 * pair: (0,1) 1, (0,2) 2, (1,2) 4. */
static int skipped(const struct tfab *f, const struct cxd_suspect *s)
{
	char sp[9] = { 0 };

	cxd_cap_skip_named(&f->tm, f->n, s, sp);
	return sp[0 * 3 + 1] | sp[0 * 3 + 2] << 1 | sp[1 * 3 + 2] << 2;
}

/* Three groups of two switches, one rank each; bundle (0,1) from
 * switch 1 to switch 2, (0,2) from 0 to 4, (1,2) from 2 to 5. A gateway
 * switch named only alike (with a link it holds, with its one rank)
 * sets out the bundles with a link on it, as one named does; without
 * link lines, every bundle of its group. */
static void test_skip_named(void **state)
{
	static struct tfab f;
	struct cxd_suspect s = { .kind = CXD_S_LINK, .id = 0, .id2 = 1 };

	(void) state;
	tfab_dragonfly(&f, 3, 2, 1, 1, 1);
	assert_int_equal(skipped(&f, &s), 0); /* a link inside g0 */
	s.alike[s.nalike++] = (struct cxd_alike){ CXD_S_SWITCH, 1,
						  CXD_SWL_ALL };
	assert_int_equal(skipped(&f, &s), 1);
	s = (struct cxd_suspect){ .kind = CXD_S_RANK, .id = 2, .id2 = -1 };
	assert_int_equal(skipped(&f, &s), 0);
	s.alike[s.nalike++] = (struct cxd_alike){ CXD_S_SWITCH, 2,
						  CXD_SWL_ALL };
	assert_int_equal(skipped(&f, &s), 1 | 4);
	s = (struct cxd_suspect){ .kind = CXD_S_BUNDLE, .id = 1, .id2 = 2 };
	assert_int_equal(skipped(&f, &s), 4);
	s = (struct cxd_suspect){ .kind = CXD_S_SWITCH, .id = 1,
				  .id2 = CXD_SWL_ALL };
	assert_int_equal(skipped(&f, &s), 1);
	f.tm.nlink = 0; /* places only: where its links land is unknown */
	assert_int_equal(skipped(&f, &s), 1 | 2);
}

/* The leaf pairs set out, without groups: three leaves of one rank,
 * two spines (switches 3, 4); a bit per leaf pair as skipped's. */
static int leaf_pairs_out(const struct tfab *f, const struct cxd_suspect *s)
{
	char sp[9] = { 0 };

	assert_int_equal(cxd_cap_skip_parts(&f->tm), 3);
	cxd_cap_skip_named(&f->tm, f->n, s, sp);
	return sp[0 * 3 + 1] | sp[0 * 3 + 2] << 1 | sp[1 * 3 + 2] << 2;
}

/* A fat tree: a spine named takes out the pairs of the leaves linked to
 * it (all three), a leaf its own two, a link its leaf end's, a rank
 * none (its NIC sits out by the ranks' list). */
static void test_skip_leaves(void **state)
{
	static struct tfab f;
	struct cxd_suspect s = { .kind = CXD_S_SWITCH, .id = 3,
				 .id2 = CXD_SWL_ALL };

	(void) state;
	tfab_fat_tree(&f, 3, 1, 2);
	assert_int_equal(leaf_pairs_out(&f, &s), 7);
	s.id = 1;
	assert_int_equal(leaf_pairs_out(&f, &s), 1 | 4);
	s = (struct cxd_suspect){ .kind = CXD_S_LINK, .id = 2, .id2 = 4 };
	assert_int_equal(leaf_pairs_out(&f, &s), 2 | 4);
	s = (struct cxd_suspect){ .kind = CXD_S_RANK, .id = 0, .id2 = -1 };
	assert_int_equal(leaf_pairs_out(&f, &s), 0);
	s.alike[s.nalike++] = (struct cxd_alike){ CXD_S_SWITCH, 0,
						  CXD_SWL_ALL };
	assert_int_equal(leaf_pairs_out(&f, &s), 1 | 2);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_skip_named),
	cmocka_unit_test(test_skip_leaves),
	cmocka_unit_test(test_plan_dragonfly),
	cmocka_unit_test(test_plan_skips),
	cmocka_unit_test(test_plan_leaves),
	cmocka_unit_test(test_model_draws),
	cmocka_unit_test(test_judge_names),
	cmocka_unit_test(test_confirm),
	cmocka_unit_test(test_one_way),
	cmocka_unit_test(test_judge_unsure_and_stated),
	cmocka_unit_test(test_stated_rates))

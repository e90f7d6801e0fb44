/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routed main pass (lib/sweep/sched/sched_routed.c) and the packing
 * it shares with the covering plan (pack_rounds.c): every pair of the
 * job once; no rank twice in a round; no link line over its cap in a
 * round (every way of a pair counted, a pair alone on a line let be);
 * the bound from the ways' shares. Each plan is checked against what
 * is walked here from the routes, on hand-made fabrics, seeded random
 * ones, and (not timed, only printed) a 1,024-rank dragonfly.
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
#include <time.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/model/route.h"
#include "sweep/sched/pack_rounds.h"
#include "sweep/sched/sched.h"
#include "sweep/sched/sched_listed.h"
#include "sweep/sched/sched_routed.h"

/* What a round loads, walked from the ways: every link of every way of
 * each pair, once a pair. */
struct ref {
	const struct cxd_topo_map *tm;
	const struct cxd_routes *rt;
	double *cap;
	int *load, *seen, *busy;
};

static void ref_pair(struct ref *x, const struct cxd_pair *p, int stamp)
{
	int a = x->tm->switch_of[p->a], b = x->tm->switch_of[p->b];
	size_t nw = 0;
	const struct cxd_way *w = a != b ? cxd_routes_ways(x->rt, a, b, &nw) :
				  NULL;

	for (size_t k = 0; k < nw; k++)
		for (int h = 0; h < w[k].len; h++) {
			int l = x->rt->hop[w[k].first + (size_t) h];

			if (x->seen[l] != stamp) {
				x->seen[l] = stamp;
				x->load[l]++;
			}
		}
}

/* Plan pl against the rules; returns its rounds. */
static int check_plan(const struct cxd_topo_map *tm,
		      const struct cxd_routes *rt, int n, const double *cap,
		      int most, const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	size_t nl = (size_t) tm->nlink + 1;
	struct ref x = { tm, rt, NULL, calloc(nl, sizeof(int)),
			 calloc(nl, sizeof(int)), calloc((size_t) n, sizeof(int)) };
	unsigned char *met = calloc((size_t) n * (size_t) n, 1);
	size_t total = 0;
	int stamp = 0;

	assert_non_null(ls);
	assert_true(x.load && x.seen && x.busy && met);
	for (int r = 0; r < pl->nrounds; r++) {
		const struct cxd_pair *p = ls->pairs + ls->first[r];

		assert_true(ls->count[r] > 0);
		assert_true(most <= 0 || ls->count[r] <= most);
		memset(x.load, 0, nl * sizeof(int));
		for (int j = 0; j < ls->count[r]; j++) {
			assert_true(p[j].a < p[j].b && p[j].b < n);
			assert_int_not_equal(x.busy[p[j].a], r + 1);
			assert_int_not_equal(x.busy[p[j].b], r + 1);
			x.busy[p[j].a] = x.busy[p[j].b] = r + 1;
			assert_int_equal(met[(size_t) p[j].a * n + p[j].b], 0);
			met[(size_t) p[j].a * n + p[j].b] = 1;
			ref_pair(&x, &p[j], ++stamp);
		}
		for (int l = 0; l < tm->nlink; l++)
			assert_true(x.load[l] <= 1 ||
				    x.load[l] <= cap[l] + 1e-9);
		total += (size_t) ls->count[r];
	}
	assert_int_equal(total, (size_t) n * (size_t) (n - 1) / 2);
	free(x.load);
	free(x.seen);
	free(x.busy);
	free(met);
	return pl->nrounds;
}

/* The bound walked here: the ways' shares of every pair. */
static int ref_bound(const struct cxd_topo_map *tm,
		     const struct cxd_routes *rt, int n, const double *cap)
{
	double *share = calloc((size_t) tm->nlink + 1, sizeof(double));
	int most = cxd_pairs_nrounds(n);

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			int s = tm->switch_of[a], t = tm->switch_of[b];
			size_t nw = 0;
			const struct cxd_way *w = s != t ?
				cxd_routes_ways(rt, s, t, &nw) : NULL;

			for (size_t k = 0; k < nw; k++)
				for (int h = 0; h < w[k].len; h++)
					share[rt->hop[w[k].first + h]] +=
						w[k].share;
		}
	for (int l = 0; l < tm->nlink; l++) {
		double at = cap[l] > 1 ? cap[l] : 1;
		int need = (int) ceil(share[l] / at - 1e-9);

		most = need > most ? need : most;
	}
	free(share);
	return most;
}

/* Each line's cap by the rule (routed_load.h), walked here: a width
 * over its kind's largest unit's cables, times the line's cables. */
static void ref_caps(const struct cxd_topo_map *tm, const int *width,
		     double *cap)
{
	int ns = tm->nswitch_all, ng = tm->ngroup > 0 ? tm->ngroup : 1;
	long *deg = calloc((size_t) ns, sizeof(long));
	long *bun = calloc((size_t) ng * ng, sizeof(long));
	long most[CXD_TOPO_W_KINDS] = { 0 };
	int *kind = calloc((size_t) tm->nlink + 1, sizeof(int));
	long *unit = calloc((size_t) tm->nlink + 1, sizeof(long));

	for (int l = 0; l < tm->nlink; l++) {
		const struct cxd_topo_link *k = &tm->link[l];
		int ga = tm->ngroup ? tm->switch_group[k->a] : -1;
		int gb = tm->ngroup ? tm->switch_group[k->b] : -1;

		deg[k->a] += k->count;
		deg[k->b] += k->count;
		kind[l] = ga < 0 ? CXD_TOPO_W_UPLINK : ga == gb ?
			  CXD_TOPO_W_LOCAL : CXD_TOPO_W_GLOBAL;
		if (kind[l] == CXD_TOPO_W_GLOBAL)
			bun[ga * ng + gb] += k->count;
	}
	for (int l = 0; l < tm->nlink; l++) {
		const struct cxd_topo_link *k = &tm->link[l];
		int ga = tm->ngroup ? tm->switch_group[k->a] : -1;
		int gb = tm->ngroup ? tm->switch_group[k->b] : -1;

		/* the fabrics here put ranks on the lower switch (leaves
		 * before spines) */
		unit[l] = kind[l] == CXD_TOPO_W_LOCAL ? k->count :
			  kind[l] == CXD_TOPO_W_GLOBAL ? bun[ga * ng + gb] +
			  bun[gb * ng + ga] : deg[k->a];
		most[kind[l]] = unit[l] > most[kind[l]] ? unit[l] :
				most[kind[l]];
	}
	for (int l = 0; l < tm->nlink; l++)
		cap[l] = tm->link[l].count *
			 (width[kind[l]] > 0 ? (double) width[kind[l]] /
			  most[kind[l]] : 1.0);
	free(deg);
	free(bun);
	free(kind);
	free(unit);
}

/* The routed plan of map tm checked, its facts against the walk. */
static int run_map(const struct cxd_topo_map *tm, int n, const int *width,
		   int most)
{
	struct cxd_routes rt = { 0 };
	struct cxd_routed_facts fx;
	struct cxd_plan pl;
	double *cap = calloc((size_t) tm->nlink + 1, sizeof(double));
	int rounds;

	assert_int_equal(cxd_routes_build(tm, n, &rt), 0);
	ref_caps(tm, width, cap);
	assert_int_equal(cxd_sched_routed(tm, &rt, n, width, most, &pl, &fx),
			 0);
	rounds = check_plan(tm, &rt, n, cap, most, &pl);
	assert_int_equal(fx.rounds, rounds);
	assert_int_equal(fx.bound, ref_bound(tm, &rt, n, cap));
	assert_true(fx.bound <= rounds);
	assert_true(fx.bound <= fx.full && fx.full <= rounds);
	if (fx.busiest >= 0)
		assert_true(fabs(fx.cap - (cap[fx.busiest] > 1 ?
					   cap[fx.busiest] : 1)) < 1e-9);
	cxd_sched_free(&pl);
	cxd_routes_free(&rt);
	free(cap);
	return rounds;
}

static const int no_width[CXD_TOPO_W_KINDS] = { 0, 0, 0 };

/* A small dragonfly: the global links bind (each pair between two
 * groups counts on the whole bundle, every way being possible), and
 * the plan is every pair once within the caps. */
static void dragonfly(void **state)
{
	static struct tfab f;
	const int width[CXD_TOPO_W_KINDS] = { 2, 2, 0 };
	int r;

	(void) state;
	tfab_dragonfly(&f, 4, 4, 4, 2, 2);
	r = run_map(&f.tm, f.n, width, 0);
	/* a group pair's 16 pairs cross its bundle's both lines, one pair
	 * at a time on the pair's ways: at least 16 rounds, the ranks 63 */
	assert_true(r >= 63);
	run_map(&f.tm, f.n, no_width, 0);
	run_map(&f.tm, f.n, width, 5); /* a round of at most 5 pairs */
}

/* A fat tree: the leaves' uplinks spread over equal-cost spines. */
static void fat_tree(void **state)
{
	static struct tfab f;
	const int width[CXD_TOPO_W_KINDS] = { 0, 0, 4 };

	(void) state;
	tfab_fat_tree(&f, 6, 5, 3); /* odd ranks on a leaf: 30 ranks */
	run_map(&f.tm, f.n, width, 0);
	run_map(&f.tm, f.n, no_width, 0);
}

/* Seeded random dragonflies: uneven switches, cables and bundles. */
static void random_fabrics(void **state)
{
	static struct tfab f;
	unsigned seed = 12345;

	(void) state;
	for (int t = 0; t < 12; t++) {
		int g = 2 + (int) (rand_r(&seed) % 4);
		int s = 1 + (int) (rand_r(&seed) % 4);
		int width[CXD_TOPO_W_KINDS] = { (int) (rand_r(&seed) % 5),
						(int) (rand_r(&seed) % 5), 0 };

		memset(&f, 0, sizeof(f));
		f.ns = g * s;
		f.ng = g;
		for (int a = 0; a < f.ns; a++) {
			f.sg[a] = a / s;
			tfab_ranks_on(&f, a, 1 + (int) (rand_r(&seed) % 6));
		}
		for (int k = 0; k < g; k++)
			for (int x = 0; x < s; x++)
				for (int y = x + 1; y < s; y++)
					tfab_link_add(&f, k * s + x, k * s + y,
						      1 + (int) (rand_r(&seed) % 3));
		for (int i = 0; i < g; i++)
			for (int j = i + 1; j < g; j++) {
				/* no two lines on one switch pair */
				int nb = 1 + (int) (rand_r(&seed) % (unsigned) s);

				for (int b = 0; b < nb; b++)
					tfab_link_add(&f, i * s + (j + b) % s,
						      j * s + (i + b) % s, 1);
			}
		tfab_map(&f, CXD_TOPO_R_MINIMAL);
		run_map(&f.tm, f.n, width, (int) (rand_r(&seed) % 8));
	}
}

/* The packing's rules on a hand-made case: two pairs on a line of cap
 * 1 go in two rounds; a pair whose load is over a cap runs alone on it;
 * a busy rank waits; the most a round holds. */
static void pack_rules(void **state)
{
	const struct cxd_pair pair[] = { { 0, 1 }, { 2, 3 }, { 4, 5 },
					 { 0, 2 } };
	const int cls[] = { 0, 0, 1, 2 };
	const size_t x_at[] = { 0, 1, 2, 2 };
	const int x_link[] = { 0, 1 };
	const double x_load[] = { 1.0, 3.0 }, cap[] = { 1.0, 2.0 };
	struct cxd_pack pk = { .n = 6, .npair = 4, .pair = pair, .cls = cls,
			       .x_at = x_at, .x_link = x_link,
			       .x_load = x_load, .ncls = 3, .nlink = 2,
			       .cap = cap };
	int q[4] = { 0, 1, 2, 3 }, ord[4], at[5], nr;

	(void) state;
	assert_int_equal(cxd_pack_rounds(&pk, q, ord, at, &nr), 0);
	/* round 0: (0,1) and (4,5), its line over cap but alone on it;
	 * round 1: (2,3) (the line of cap 1 was taken), then (0,2) waits
	 * for rank 2 */
	assert_int_equal(nr, 3);
	assert_int_equal(at[1], 2);
	assert_int_equal(ord[0], 0);
	assert_int_equal(ord[1], 2);
	assert_int_equal(ord[2], 1);
	assert_int_equal(ord[3], 3);
	pk.most = 1;
	for (int i = 0; i < 4; i++)
		q[i] = i;
	assert_int_equal(cxd_pack_rounds(&pk, q, ord, at, &nr), 0);
	assert_int_equal(nr, 4);
}

/* A 1,024-rank dragonfly as docs/sim-narrow.md's (16 groups of 8
 * switches of 8 nodes, two L1 cables, bundles of 4 dealt round-robin
 * over a group's switches): built and checked for every pair once and
 * no rank twice, its time and rounds printed, not asserted. */
struct big {
	int *sof, *gof, *sg;
	struct cxd_topo_link *l;
	int nl;
};

static void big_links(struct big *b, int G, int S, int W)
{
	for (int g = 0; g < G; g++)
		for (int x = 0; x < S; x++)
			for (int y = x + 1; y < S; y++, b->nl++)
				b->l[b->nl] = tfab_link(g * S + x, g * S + y, 2,
							b->nl + 1);
	for (int i = 0; i < G; i++)
		for (int j = i + 1; j < G; j++)
			for (int k = 0; k < W; k++, b->nl++) {
				int pi = j - 1, pj = i; /* peers' places */
				int x = i * S + (pi * W + k) % S;
				int y = j * S + (pj * W + k) % S;

				b->l[b->nl] = tfab_link(x, y, 1, b->nl + 1);
			}
}

/* Every pair of plan pl once, no rank twice in a round (the caps are
 * left to the smaller fabrics' full check). */
static void all_once(const struct cxd_plan *pl, int n)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	unsigned char *met = calloc((size_t) n * n, 1);
	int *busy = malloc(n * sizeof(int));
	size_t total = 0;

	for (int r = 0; r < n; r++)
		busy[r] = -1;
	for (int r = 0; r < pl->nrounds; r++)
		for (int j = 0; j < ls->count[r]; j++) {
			const struct cxd_pair *p = &ls->pairs[ls->first[r] + j];

			assert_int_not_equal(busy[p->a], r);
			assert_int_not_equal(busy[p->b], r);
			busy[p->a] = busy[p->b] = r;
			assert_int_equal(met[(size_t) p->a * n + p->b], 0);
			met[(size_t) p->a * n + p->b] = 1;
			total++;
		}
	assert_int_equal(total, (size_t) n * (n - 1) / 2);
	free(met);
	free(busy);
}

static void scale_smoke(void **state)
{
	const int G = 16, S = 8, H = 8, W = 4, n = G * S * H;
	const int width[CXD_TOPO_W_KINDS] = { 2, 4, 0 };
	struct big b = { malloc(n * sizeof(int)), malloc(n * sizeof(int)),
			 malloc(G * S * sizeof(int)),
			 malloc(((size_t) G * S * S + G * G * W) *
				sizeof(struct cxd_topo_link)), 0 };
	struct cxd_topo_map tm;
	struct cxd_routes rt = { 0 };
	struct cxd_routed_facts fx;
	struct cxd_plan pl;
	struct timespec t0, t1;

	(void) state;
	for (int r = 0; r < n; r++) {
		b.sof[r] = r / H;
		b.gof[r] = r / (S * H);
	}
	for (int s = 0; s < G * S; s++)
		b.sg[s] = s / S;
	big_links(&b, G, S, W);
	tm = (struct cxd_topo_map){ .switch_of = b.sof, .group_of = b.gof,
		.nswitch = G * S, .nswitch_all = G * S, .ngroup = G,
		.ngroup_all = G, .link = b.l, .nlink = b.nl,
		.switch_group = b.sg, .route = CXD_TOPO_R_MINIMAL };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(cxd_routes_build(&tm, n, &rt), 0);
	assert_int_equal(cxd_sched_routed(&tm, &rt, n, width, 0, &pl, &fx), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	all_once(&pl, n);
	printf("# 1024 ranks: %d rounds, bound %d (line %d: %.0f pairs, %.0f "
	       "at once), every way counted %d; routes and plan %.2f s\n",
	       fx.rounds, fx.bound, fx.busiest, fx.load, fx.cap, fx.full, (double) (t1.tv_sec - t0.tv_sec) +
	       (t1.tv_nsec - t0.tv_nsec) / 1e9);
	cxd_sched_free(&pl);
	cxd_routes_free(&rt);
	free(b.sof);
	free(b.gof);
	free(b.sg);
	free(b.l);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(pack_rules),
	cmocka_unit_test(dragonfly),
	cmocka_unit_test(fat_tree),
	cmocka_unit_test(random_fabrics),
	cmocka_unit_test(scale_smoke),
)

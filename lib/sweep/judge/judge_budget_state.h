/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The naming's state over one covering plan and metric, private to
 * judge_budget.c (the classes, crossed for sure) and judge_budget_ways.c
 * (the components only ever crossed maybe: a fat tree's spines).
 */
#ifndef CXD_SWEEP_JUDGE_BUDGET_STATE_H
#define CXD_SWEEP_JUDGE_BUDGET_STATE_H

#include "judge_budget.h"

/* A bad pair, not explained yet (L_LEFT), or explained only maybe by a
 * named component (L_MAYBE): it weighs no more in the choice, as one
 * component explains it already (the fewest components first). */
enum { L_DONE, L_LEFT, L_MAYBE };

struct nm {
	const struct cxd_cover_plan *p;
	const struct cxd_topo_map *tm;
	const unsigned char *out;
	enum cxd_metric m;
	const struct cxd_budget_speed *sp;
	double *fast;           /* per class: its fastest pair's speed */
	unsigned char *left;    /* per pair: L_* */
	unsigned char *cleared; /* per class: a good pair crosses it */
	unsigned char *named;   /* per class: named already */
	int *gain;              /* per class: bad pairs left it explains */
	int *mgain;             /* per class: those a member may carry */
	int *stamp;             /* per class: the last pair counted */
	/* Per component, for those only ever crossed maybe (the ways'):
	 * bad pairs left that may cross it, the last pair counted, named
	 * already, every bad pair that may cross it, every pair that may. */
	int *ogain, *ostamp;
	int *ofree; /* of ogain, those no class still standing explains */
	unsigned char *onamed;
	int *obad, *omay;
	unsigned char *mark; /* per pair: scratch */
};

/* Every pair and bad pair that may cross each way (s->omay, s->obad),
 * once the outcome and s->left are in. */
void cxd_budget_ways_init(struct nm *s);
/* The bad pairs left that may cross each way (s->ogain), and of them
 * those no class still standing explains for sure (s->ofree); after
 * the classes' gains. */
void cxd_budget_ways_gains(struct nm *s);
/* The way to name before the best class (its pairs counted more, or
 * as many and explained for sure by none), or -1. best_score and
 * best_sure: the best class's. */
int cxd_budget_ways_best(const struct nm *s, int best_score,
			 int best_sure);
/* Way x named, with the ways the outcome cannot tell from it (the same
 * bad pairs left may cross them): one suspect; the pairs they may carry
 * are explained maybe. */
void cxd_budget_ways_name(struct nm *s, int x, struct cxd_suspect *o);
/* After the ways and classes: a class still standing (all its pairs
 * bad) whose bad pairs a named way only may explain, by a chance under
 * WAY_LUCK that the way's hash sent them all over it (a slow leaf
 * beside a slow spine: its pairs are the leaf's, not the spine's luck);
 * the one with the most such pairs, or -1. crosses: does pair i cross
 * class c for sure. */
int cxd_budget_ways_beside(const struct nm *s,
			   bool (*crosses)(const struct nm *, int, int));
/* Does bad pair i maybe cross a named class's member or a named way? */
bool cxd_budget_maybe_named(const struct nm *s, int i);

#endif

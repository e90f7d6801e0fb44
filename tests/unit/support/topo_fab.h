/* SPDX-License-Identifier: BSD-3-Clause */
/* Test aid: the fabrics written by hand for the route, plan and naming
 * tests (test_route.c, test_plan_cover.c, test_budget_name.c): link
 * lines with their ends in order, ranks placed on switches, the two
 * shapes they share, and the map over the fabric's arrays. */
#ifndef CXD_TEST_TOPO_FAB_H
#define CXD_TEST_TOPO_FAB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/model/topo_types.h"

#define TFAB_MAXR 160
#define TFAB_MAXS 64
#define TFAB_MAXL 640

/* A fabric: n ranks on ns switches in ng groups (0: none). */
struct tfab {
	int n, ns, ng;
	int sof[TFAB_MAXR], gof[TFAB_MAXR], sg[TFAB_MAXS];
	struct cxd_topo_link l[TFAB_MAXL];
	int nl;
	struct cxd_topo_map tm;
};

/* Link line number line (1-based) of count cables between a and b. */
static inline struct cxd_topo_link tfab_link(int a, int b, int count,
					     int line)
{
	return (struct cxd_topo_link){ a < b ? a : b, a < b ? b : a, count,
				       line };
}

static inline void tfab_link_add(struct tfab *f, int a, int b, int count)
{
	assert_true(f->nl < TFAB_MAXL);
	f->l[f->nl] = tfab_link(a, b, count, f->nl + 1);
	f->nl++;
}

/* h ranks on switch s (of group sg[s]), after those placed. */
static inline void tfab_ranks_on(struct tfab *f, int s, int h)
{
	for (int i = 0; i < h; i++) {
		assert_true(f->n < TFAB_MAXR);
		f->sof[f->n] = s;
		f->gof[f->n++] = f->ng > 0 ? f->sg[s] : -1;
	}
}

/* The map over f's arrays; switch_group NULL without groups. */
static inline void tfab_map(struct tfab *f, int route)
{
	f->tm = (struct cxd_topo_map){ .switch_of = f->sof,
		.group_of = f->gof, .nswitch = f->ns, .nswitch_all = f->ns,
		.ngroup = f->ng, .link = f->l, .nlink = f->nl,
		.switch_group = f->ng > 0 ? f->sg : NULL, .route = route };
}

/* g groups of s switches of h ranks; every two switches of a group
 * joined by local cables; group pair (i, j) by nb global links, link b
 * from switch (j + b) mod s of i to (i + b) mod s of j (with nb 1 a
 * gateway switch per pair; more deal the bundle over the switches, as
 * sim/platgen.py does). Minimal routes. */
static inline void tfab_dragonfly(struct tfab *f, int g, int s, int h,
				  int local, int nb)
{
	memset(f, 0, sizeof(*f));
	f->ns = g * s;
	f->ng = g;
	for (int a = 0; a < f->ns; a++) {
		f->sg[a] = a / s;
		tfab_ranks_on(f, a, h);
	}
	for (int k = 0; k < g; k++)
		for (int x = 0; x < s; x++)
			for (int y = x + 1; y < s; y++)
				tfab_link_add(f, k * s + x,
							 k * s + y, local);
	for (int i = 0; i < g; i++)
		for (int j = i + 1; j < g; j++)
			for (int b = 0; b < nb; b++)
				tfab_link_add(f, i * s + (j + b) % s,
							 j * s + (i + b) % s,
							 1);
	tfab_map(f, CXD_TOPO_R_MINIMAL);
}

/* leaves of h ranks, each linked to every spine; the spines (no rank)
 * after the leaves, as the reader places them. Equal-cost routes. */
static inline void tfab_fat_tree(struct tfab *f, int leaves, int h,
				 int spines)
{
	memset(f, 0, sizeof(*f));
	f->ns = leaves + spines;
	for (int a = 0; a < leaves; a++)
		tfab_ranks_on(f, a, h);
	for (int a = 0; a < leaves; a++)
		for (int p = 0; p < spines; p++)
			tfab_link_add(f, a, leaves + p, 1);
	tfab_map(f, CXD_TOPO_R_ECMP);
	f->tm.nswitch = leaves;
}

/* The link line between switches a and b, -1 when none. */
static inline int tfab_find_link(const struct tfab *f, int a, int b)
{
	for (int l = 0; l < f->nl; l++)
		if ((f->l[l].a == a && f->l[l].b == b) ||
		    (f->l[l].a == b && f->l[l].b == a))
			return l;
	return -1;
}

#endif

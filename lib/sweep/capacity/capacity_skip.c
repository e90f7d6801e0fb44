/* SPDX-License-Identifier: BSD-3-Clause */
/* The bundles that sit the capacity pass out for the suspects named
 * before it (capacity.h). */
#include <stdbool.h>

#include "capacity.h"

/* Group of switch a from the topology's switch lines, -1: none or one
 * no rank is in (no unit of the pass holds it). */
static int group_of_switch(const struct cxd_topo_map *tm, int a)
{
	int g = tm->switch_group && a >= 0 && a < tm->nswitch_all ?
		tm->switch_group[a] : -1;

	return g < tm->ngroup ? g : -1;
}

static void skip_bundle(char *skip_pair, int ng, int g, int o)
{
	if (g >= 0 && o >= 0 && g != o)
		skip_pair[(g < o ? g : o) * ng + (g < o ? o : g)] = 1;
}

/* A bundle named sits out, so does one a link named over the routes
 * belongs to, and every bundle of a group named or with a switch named:
 * a switch named for its uplinks may hold some of its global links
 * (where they land is unknown without link lines; with them, only the
 * bundles with a link on that switch). A component named
 * as not told apart from the suspect counts as named: a gateway switch
 * alike with a link it holds, or with its one rank, slows the bundles
 * landing on it, and they were named short beside it (two healthy
 * bundles at 256 ranks). */
static void skip_one(const struct cxd_topo_map *tm, int n, int kind, int id,
		     int id2, char *skip_pair)
{
	int ng = tm->ngroup, g = -1;

	if (kind == CXD_S_BUNDLE || kind == CXD_S_LINK) {
		bool link = kind == CXD_S_LINK;

		skip_bundle(skip_pair, ng, link ? group_of_switch(tm, id) : id,
			    link ? group_of_switch(tm, id2) : id2);
		return;
	}
	if (kind == CXD_S_SWITCH && tm->nlink > 0 && tm->link) {
		/* with link lines: only the bundles with a link on it */
		for (int l = 0; l < tm->nlink; l++)
			if (tm->link[l].a == id || tm->link[l].b == id)
				skip_bundle(skip_pair, ng,
					    group_of_switch(tm, tm->link[l].a),
					    group_of_switch(tm, tm->link[l].b));
		return;
	}
	if (kind == CXD_S_SWITCH)
		g = group_of_switch(tm, id);
	for (int i = 0; i < n && g < 0; i++)
		if ((kind == CXD_S_SWITCH && tm->switch_of[i] == id) ||
		    (kind == CXD_S_GROUP && tm->group_of[i] == id))
			g = tm->group_of[i];
	for (int o = 0; g >= 0 && o < ng; o++)
		skip_bundle(skip_pair, ng, g, o);
}

int cxd_cap_skip_parts(const struct cxd_topo_map *tm)
{
	return tm->ngroup > 0 ? tm->ngroup : tm->nswitch;
}

/* Without groups: every leaf pair of leaf x (one with ranks). */
static void skip_leaf(const struct cxd_topo_map *tm, int x, char *skip_pair)
{
	for (int o = 0; x < tm->nswitch && o < tm->nswitch; o++)
		skip_bundle(skip_pair, tm->nswitch, x, o);
}

/* The leaf at link l's other end from switch id; -1: none (l does not
 * touch id, or its other end holds no rank). */
static int leaf_beyond(const struct cxd_topo_map *tm, int l, int id)
{
	int o = tm->link[l].a == id ? tm->link[l].b :
		tm->link[l].b == id ? tm->link[l].a : -1;

	return o < tm->nswitch ? o : -1;
}

/* Without groups: a leaf named (its own, its link's leaf end) takes its
 * leaf pairs out; a spine named, every pair of the leaves linked to it
 * (with both spines of two named, every leaf pair: they were short for
 * the spines, six of them named beside them at 128 ranks). */
static void skip_leaves(const struct cxd_topo_map *tm, int kind, int id,
			int id2, char *skip_pair)
{
	int ns = tm->nswitch;

	if (kind == CXD_S_LINK) {
		skip_leaf(tm, id, skip_pair);
		skip_leaf(tm, id2, skip_pair);
		return;
	}
	if (kind != CXD_S_SWITCH)
		return;
	if (id < ns) {
		skip_leaf(tm, id, skip_pair);
		return;
	}
	for (int l = 0; tm->link && l < tm->nlink; l++) {
		int a = leaf_beyond(tm, l, id);

		for (int m = 0; a >= 0 && m < tm->nlink; m++)
			skip_bundle(skip_pair, ns, a, leaf_beyond(tm, m, id));
	}
}

void cxd_cap_skip_named(const struct cxd_topo_map *tm, int n,
			const struct cxd_suspect *s, char *skip_pair)
{
	bool leaves = tm->ngroup == 0;

	if (leaves)
		skip_leaves(tm, s->kind, s->id, s->id2, skip_pair);
	else
		skip_one(tm, n, s->kind, s->id, s->id2, skip_pair);
	for (int j = 0; j < s->nalike; j++) {
		const struct cxd_alike *x = &s->alike[j];

		if (leaves)
			skip_leaves(tm, x->kind, x->id, x->id2, skip_pair);
		else
			skip_one(tm, n, x->kind, x->id, x->id2, skip_pair);
	}
}

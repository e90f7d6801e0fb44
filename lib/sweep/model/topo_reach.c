/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology: every pair of hosts routed over the link lines
 * (topo_reach.h). Switches 0..nswitch-1 are those carrying hosts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_err.h"
#include "topo_reach.h"

/* Two groups (or switches with no group) joined by links: ok, one of
 * those links ends where the hosts' switches reach inside both. */
struct gpair {
	int g, h; /* g < h */
	int ok;
};

struct reach {
	const struct cxd_topo *t;
	int *up;  /* union-find over the switches */
	int *rep; /* minimal: per group, its first switch with hosts (-1) */
	char *err;
	size_t len;
};

/* The root of x's set, halving the path on the way. */
static int root(int *up, int x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void join(int *up, int a, int b)
{
	up[root(up, a)] = root(up, b);
}

/* Switch s's group for the minimal rule: a switch with no group is a
 * group of its own, numbered after the named ones. */
static int group_of(const struct cxd_topo *t, int s)
{
	return t->switch_group[s] >= 0 ? t->switch_group[s] :
	       t->ngroup_all + s;
}

static int ecmp(struct reach *r)
{
	const struct cxd_topo *t = r->t;

	for (int i = 0; i < t->nlink; i++)
		join(r->up, t->link[i].a, t->link[i].b);
	for (int s = 1; s < t->nswitch; s++)
		if (root(r->up, s) != root(r->up, 0))
			return cxd_topo_bad(r->err, r->len, "%s: no route from "
					    "switch '%s' to switch '%s': no "
					    "chain of links joins them",
					    t->path, t->switch_name[0],
					    t->switch_name[s]);
	return 0;
}

/* Switches a and b have no minimal route, for the reason why. */
static int no_minimal(const struct reach *r, int a, int b, const char *why)
{
	const struct cxd_topo *t = r->t;
	char ga[CXD_TOPO_NAME + 16] = "no group", gb[sizeof(ga)] = "no group";
	int g = t->switch_group[a], h = t->switch_group[b];

	if (g >= 0)
		snprintf(ga, sizeof(ga), "group '%s'", t->group_name[g]);
	if (h >= 0)
		snprintf(gb, sizeof(gb), "group '%s'", t->group_name[h]);
	return cxd_topo_bad(r->err, r->len, "%s: no minimal route from switch "
			    "'%s' (%s) to switch '%s' (%s): %s", t->path,
			    t->switch_name[a], ga, t->switch_name[b], gb, why);
}

static int by_groups(const void *x, const void *y)
{
	const struct gpair *p = x, *q = y;

	if (p->g != q->g)
		return p->g < q->g ? -1 : 1;
	return (p->h > q->h) - (p->h < q->h);
}

/* The group pairs of the links between groups that carry hosts, sorted,
 * each once (ok: any of its links). *n: how many. */
static struct gpair *group_pairs(const struct reach *r, int *n)
{
	const struct cxd_topo *t = r->t;
	struct gpair *v = malloc(((size_t) t->nlink + 1) * sizeof(*v));
	int k = 0;

	for (int i = 0; v && i < t->nlink; i++) {
		int a = t->link[i].a, b = t->link[i].b;
		int g = group_of(t, a), h = group_of(t, b);

		if (g == h || r->rep[g] < 0 || r->rep[h] < 0)
			continue;
		v[k++] = (struct gpair){
			g < h ? g : h, g < h ? h : g,
			root(r->up, a) == root(r->up, r->rep[g]) &&
			root(r->up, b) == root(r->up, r->rep[h]) };
	}
	if (v && k > 1)
		qsort(v, (size_t) k, sizeof(*v), by_groups);
	*n = 0;
	for (int i = 0; v && i < k; i++) {
		if (*n > 0 && by_groups(&v[*n - 1], &v[i]) == 0)
			v[*n - 1].ok |= v[i].ok;
		else
			v[(*n)++] = v[i];
	}
	return v;
}

/* Every two groups carrying hosts: a link between them whose ends their
 * hosts' switches reach. A file that passes has a link per group pair,
 * so the pairs looked up are no more than the links. */
static int across(struct reach *r)
{
	const struct cxd_topo *t = r->t;
	int n, ret = 0;
	struct gpair *v = group_pairs(r, &n);

	if (v == NULL)
		return cxd_topo_oom(t, r->err, r->len);
	for (int a = 0; ret == 0 && a < t->nswitch; a++) {
		if (r->rep[group_of(t, a)] != a)
			continue;
		for (int b = a + 1; ret == 0 && b < t->nswitch; b++) {
			int g = group_of(t, a), h = group_of(t, b);
			struct gpair key = { g < h ? g : h, g < h ? h : g, 0 };
			const struct gpair *p;

			if (r->rep[h] != b)
				continue;
			p = bsearch(&key, v, (size_t) n, sizeof(*v), by_groups);
			if (p == NULL || !p->ok)
				ret = no_minimal(r, a, b, p == NULL ?
					"no link joins their groups (a minimal "
					"route crosses one link between groups)" :
					"the links between their groups end at "
					"switches that the hosts' switches do "
					"not reach inside their groups");
		}
	}
	free(v);
	return ret;
}

/* Inside each group: its switches with hosts joined by its own links;
 * then across groups. */
static int minimal(struct reach *r)
{
	const struct cxd_topo *t = r->t;

	for (int i = 0; i < t->nlink; i++)
		if (group_of(t, t->link[i].a) == group_of(t, t->link[i].b))
			join(r->up, t->link[i].a, t->link[i].b);
	for (int s = 0; s < t->nswitch; s++) {
		int g = group_of(t, s);

		if (r->rep[g] < 0)
			r->rep[g] = s;
		else if (root(r->up, s) != root(r->up, r->rep[g]))
			return no_minimal(r, r->rep[g], s, "no links inside "
					  "the group join them");
	}
	return across(r);
}

int cxd_topo_reach(const struct cxd_topo *t, char *err, size_t len)
{
	size_t ngrp = (size_t) t->ngroup_all + (size_t) t->nswitch_all;
	struct reach r = { t, malloc(((size_t) t->nswitch_all + 1) *
				     sizeof(int)),
			   malloc((ngrp + 1) * sizeof(int)), err, len };
	int ret;

	if (r.up == NULL || r.rep == NULL) {
		ret = cxd_topo_oom(t, err, len);
		goto out;
	}
	for (int s = 0; s < t->nswitch_all; s++)
		r.up[s] = s;
	for (size_t g = 0; g < ngrp; g++)
		r.rep[g] = -1;
	ret = t->route == CXD_TOPO_R_MINIMAL ? minimal(&r) : ecmp(&r);
out:
	free(r.up);
	free(r.rep);
	return ret;
}

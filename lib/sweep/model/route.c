/* SPDX-License-Identifier: BSD-3-Clause */
/* Every pair's ways over the fabric's links (route.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "route.h"

/* Shortest paths from one switch to another: n paths of len links each
 * (all shortest paths have one length). */
struct paths {
	int n, len;
	int *hop; /* n * len, room for CXD_ROUTE_MAX_WAYS paths of ns */
};

struct rb {
	const struct cxd_topo_map *tm;
	struct cxd_routes *r;
	int ns;
	int *first, *nb, *via; /* adjacency: a's neighbours nb[first[a]..] */
	int *dist, *queue, *cur;
	int nq; /* the last search's queue: its dist to reset, not all ns */
	/* The links between two groups g < h, in link order:
	 * gl[gl_at[g * ng + h] .. gl_at[g * ng + h + 1]) (NULL: no
	 * groups); a pair between groups looks only at its own. */
	int ng, *gl_at, *gl;
	struct paths p[2];
};

static int group_of(const struct rb *b, int a)
{
	return b->tm->switch_group ? b->tm->switch_group[a] : -1;
}

/* May a path inside group grp (< 0: anywhere) take link l? */
static bool allowed(const struct rb *b, int l, int grp)
{
	const struct cxd_topo_link *k = &b->tm->link[l];

	return grp < 0 || (group_of(b, k->a) == grp &&
			   group_of(b, k->b) == grp);
}

static int adjacency(struct rb *b)
{
	const struct cxd_topo_map *tm = b->tm;
	int ns = b->ns, *fill;

	b->first = calloc((size_t) ns + 1, sizeof(int));
	b->nb = malloc(2 * (size_t) tm->nlink * sizeof(int) + 1);
	b->via = malloc(2 * (size_t) tm->nlink * sizeof(int) + 1);
	fill = calloc((size_t) ns + 1, sizeof(int));
	if (!b->first || !b->nb || !b->via || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (int l = 0; l < tm->nlink; l++) {
		b->first[tm->link[l].a + 1]++;
		b->first[tm->link[l].b + 1]++;
	}
	for (int a = 0; a < ns; a++)
		b->first[a + 1] += b->first[a];
	for (int l = 0; l < tm->nlink; l++) {
		int ends[2] = { tm->link[l].a, tm->link[l].b };

		for (int e = 0; e < 2; e++) {
			int at = b->first[ends[e]] + fill[ends[e]]++;

			b->nb[at] = ends[1 - e];
			b->via[at] = l;
		}
	}
	free(fill);
	return 0;
}

static void bfs(struct rb *b, int s, int grp)
{
	int head = 0, tail = 0;

	for (int i = 0; i < b->nq; i++)
		b->dist[b->queue[i]] = -1;
	b->dist[s] = 0;
	b->queue[tail++] = s;
	while (head < tail) {
		int v = b->queue[head++];

		for (int i = b->first[v]; i < b->first[v + 1]; i++)
			if (b->dist[b->nb[i]] < 0 && allowed(b, b->via[i], grp)) {
				b->dist[b->nb[i]] = b->dist[v] + 1;
				b->queue[tail++] = b->nb[i];
			}
	}
	b->nq = tail;
}

/* Walk back from v to the source along shortest links, recording each
 * path once whole; -E2BIG past the cap. */
static int walk(struct rb *b, struct paths *p, int v, int grp)
{
	if (b->dist[v] == 0) {
		if (p->n == CXD_ROUTE_MAX_WAYS)
			return -E2BIG;
		memcpy(p->hop + (size_t) p->n * (size_t) p->len, b->cur,
		       (size_t) p->len * sizeof(int));
		p->n++;
		return 0;
	}
	for (int i = b->first[v]; i < b->first[v + 1]; i++) {
		int u = b->nb[i], ret;

		if (b->dist[u] != b->dist[v] - 1 || !allowed(b, b->via[i], grp))
			continue;
		b->cur[b->dist[u]] = b->via[i];
		ret = walk(b, p, u, grp);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every shortest path from s to t inside group grp (< 0: anywhere). */
static int shortest(struct rb *b, struct paths *p, int s, int t, int grp)
{
	bfs(b, s, grp);
	p->n = 0;
	p->len = b->dist[t] > 0 ? b->dist[t] : 0;
	if (b->dist[t] < 0)
		return 0;
	return walk(b, p, t, grp);
}

/* Add the way p0 (+ link l + p1, when l >= 0). */
static int add_way(struct rb *b, const int *p0, int n0, int l, const int *p1,
		   int n1, double share)
{
	struct cxd_routes *r = b->r;
	int len = n0 + (l >= 0 ? 1 + n1 : 0);

	if (cxd_grow((void **) &r->way, &r->wcap, r->nway + 1,
		     sizeof(*r->way)) ||
	    cxd_grow((void **) &r->hop, &r->hcap, r->nhop + (size_t) len,
		     sizeof(int)))
		return -ENOMEM;
	r->way[r->nway++] = (struct cxd_way){ r->nhop, len, share };
	memcpy(r->hop + r->nhop, p0, (size_t) n0 * sizeof(int));
	r->nhop += (size_t) n0;
	if (l < 0)
		return 0;
	r->hop[r->nhop++] = l;
	memcpy(r->hop + r->nhop, p1, (size_t) n1 * sizeof(int));
	r->nhop += (size_t) n1;
	return 0;
}

/* The ways of one path set, shared evenly. */
static int add_paths(struct rb *b, const struct paths *p)
{
	for (int i = 0; i < p->n; i++) {
		int ret = add_way(b, p->hop + (size_t) i * (size_t) p->len,
				  p->len, -1, NULL, 0, 1.0 / p->n);

		if (ret)
			return ret;
	}
	return 0;
}

/* Through global link l (x in s's group, y in t's): to x, l, on to t. */
static int via_global(struct rb *b, int s, int t, int l, double share,
		      size_t start)
{
	const struct cxd_topo_link *k = &b->tm->link[l];
	int gs = group_of(b, s), x = group_of(b, k->a) == gs ? k->a : k->b;
	int y = x == k->a ? k->b : k->a, ret;
	struct paths *p0 = &b->p[0], *p1 = &b->p[1];

	ret = shortest(b, p0, s, x, gs);
	if (ret == 0)
		ret = shortest(b, p1, y, t, group_of(b, t));
	for (int i = 0; ret == 0 && i < p0->n; i++)
		for (int j = 0; ret == 0 && j < p1->n; j++) {
			if (b->r->nway - start >= CXD_ROUTE_MAX_WAYS)
				return -E2BIG;
			ret = add_way(b, p0->hop + (size_t) i * (size_t) p0->len,
				      p0->len, l,
				      p1->hop + (size_t) j * (size_t) p1->len,
				      p1->len, share / (p0->n * p1->n));
		}
	return ret;
}

/* The bucket of the links between groups g and h. */
static int bucket(const struct rb *b, int g, int h)
{
	return g < h ? g * b->ng + h : h * b->ng + g;
}

/* Each link between two groups counted into its bucket (fill NULL), or
 * placed there. */
static void bucket_links(struct rb *b, int *fill)
{
	const struct cxd_topo_map *tm = b->tm;

	for (int l = 0; l < tm->nlink; l++) {
		int ga = group_of(b, tm->link[l].a);
		int gb = group_of(b, tm->link[l].b), k;

		if (ga < 0 || gb < 0 || ga == gb)
			continue;
		k = bucket(b, ga, gb);
		if (fill)
			b->gl[b->gl_at[k + 1] + fill[k]++] = l;
		else
			b->gl_at[k + 2]++;
	}
}

/* The links between two groups, bucketed by group pair in link order. */
static int group_links(struct rb *b)
{
	size_t nb;
	int *fill;

	for (int a = 0; a < b->ns; a++)
		b->ng = group_of(b, a) >= b->ng ? group_of(b, a) + 1 : b->ng;
	nb = (size_t) b->ng * (size_t) b->ng;
	b->gl_at = calloc(nb + 2, sizeof(int));
	b->gl = malloc((size_t) b->tm->nlink * sizeof(int) + 1);
	fill = calloc(nb + 1, sizeof(int));
	if (!b->gl_at || !b->gl || !fill) {
		free(fill);
		return -ENOMEM;
	}
	bucket_links(b, NULL);
	for (size_t k = 0; k < nb; k++)
		b->gl_at[k + 2] += b->gl_at[k + 1];
	bucket_links(b, fill);
	free(fill);
	return 0;
}

/* A minimal route between groups: over each link joining them, by its
 * count of physical links. */
static int between_groups(struct rb *b, int s, int t)
{
	const struct cxd_topo_map *tm = b->tm;
	int k = bucket(b, group_of(b, s), group_of(b, t)), ret = 0;
	size_t start = b->r->nway;
	double all = 0;

	for (int i = b->gl_at[k + 1]; i < b->gl_at[k + 2]; i++)
		all += tm->link[b->gl[i]].count;
	for (int i = b->gl_at[k + 1]; i < b->gl_at[k + 2] && ret == 0 &&
	     all > 0; i++) {
		int l = b->gl[i];

		ret = via_global(b, s, t, l, tm->link[l].count / all, start);
	}
	return ret;
}

static int pair_ways(struct rb *b, int s, int t)
{
	int gs = group_of(b, s), gt = group_of(b, t), ret;
	bool minimal = b->tm->route == CXD_TOPO_R_MINIMAL && gs >= 0 &&
		       gt >= 0;

	if (minimal && gs != gt)
		return between_groups(b, s, t);
	ret = shortest(b, &b->p[0], s, t, minimal ? gs : -1);
	return ret ? ret : add_paths(b, &b->p[0]);
}

static int scratch(struct rb *b)
{
	size_t ns = (size_t) b->ns, room = CXD_ROUTE_MAX_WAYS * ns + 1;

	b->dist = malloc(ns * sizeof(int));
	b->queue = malloc(ns * sizeof(int));
	b->cur = malloc(ns * sizeof(int) + 1);
	b->p[0].hop = malloc(room * sizeof(int));
	b->p[1].hop = malloc(room * sizeof(int));
	b->r->at = calloc(ns * ns + 1, sizeof(size_t));
	if (!b->dist || !b->queue || !b->cur || !b->p[0].hop ||
	    !b->p[1].hop || !b->r->at)
		return -ENOMEM;
	for (size_t a = 0; a < ns; a++)
		b->dist[a] = -1;
	return adjacency(b) ? -ENOMEM : group_links(b);
}

static void scratch_free(struct rb *b)
{
	void *all[] = { b->first, b->nb, b->via, b->dist, b->queue, b->cur,
			b->p[0].hop, b->p[1].hop, b->gl_at, b->gl };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
}

static int all_pairs(struct rb *b, const bool *used)
{
	int ns = b->ns;

	for (int s = 0; s < ns; s++)
		for (int t = 0; t < ns; t++) {
			int ret = 0;

			b->r->at[s * ns + t] = b->r->nway;
			if (s < t && used[s] && used[t])
				ret = pair_ways(b, s, t);
			if (ret)
				return ret;
		}
	b->r->at[ns * ns] = b->r->nway;
	return 0;
}

/* Every switch: those carrying ranks first, then those only the link
 * lines name (spines, routers with no hosts). */
static int all_switches(const struct cxd_topo_map *tm)
{
	return tm->nswitch_all > tm->nswitch ? tm->nswitch_all : tm->nswitch;
}

int cxd_routes_build(const struct cxd_topo_map *tm, int n,
		     struct cxd_routes *r)
{
	struct rb b = { .tm = tm, .r = r, .ns = all_switches(tm) };
	bool *used;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ns = b.ns;
	if (tm->nlink <= 0 || tm->link == NULL || b.ns <= 0)
		return -EINVAL;
	used = calloc((size_t) b.ns, sizeof(bool));
	ret = used ? scratch(&b) : -ENOMEM;
	for (int i = 0; ret == 0 && i < n; i++)
		if (tm->switch_of[i] >= 0 && tm->switch_of[i] < b.ns)
			used[tm->switch_of[i]] = true;
	if (ret == 0)
		ret = all_pairs(&b, used);
	scratch_free(&b);
	free(used);
	if (ret)
		cxd_routes_free(r);
	return ret;
}

void cxd_routes_free(struct cxd_routes *r)
{
	void *all[] = { r->at, r->way, r->hop };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
	memset(r, 0, sizeof(*r));
}

const struct cxd_way *cxd_routes_ways(const struct cxd_routes *r, int a,
				      int b, size_t *n)
{
	size_t i;

	if (a > b) {
		int t = a;

		a = b;
		b = t;
	}
	i = (size_t) a * (size_t) r->ns + (size_t) b;
	*n = r->at[i + 1] - r->at[i];
	return r->way + r->at[i];
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's capacity pass: its plan (capacity.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "sweep/model/pairs.h"
#include "sweep/model/width.h"

enum cxd_topo_wkind cxd_cap_width_kind(enum cxd_cap_scope s)
{
	return s == CXD_CAP_BUNDLE ? CXD_TOPO_W_GLOBAL :
	       s == CXD_CAP_SWITCHES ? CXD_TOPO_W_LOCAL : CXD_TOPO_W_UPLINK;
}

const char *cxd_cap_scope_name(enum cxd_cap_scope s, bool part)
{
	static const char *const name[CXD_CAP_SCOPES][2] = {
		{ "bundle", "group" }, { "switches", "switch" },
		{ "leaves", "leaf" },
	};

	return name[s][part];
}

/* What the plan is built from: each part's sides for the scope being
 * planned (up to CXD_CAP_LOAD of its ranks, for each repeat), and the
 * units so far. */
struct build {
	const struct cxd_topo_map *tm;
	const bool *skip_pair;
	int max_at_once, nparts, reload;
	int *side, *nside;     /* per repeat and part: CXD_CAP_LOAD ranks;
				* per part: their count */
	int cap;               /* units room */
	int in_round;          /* pairs in the round being filled */
	struct cxd_cap_plan *pl;
};

struct cxd_pair cxd_cap_pair(const struct cxd_cap_unit *u, int rep, int i)
{
	return (struct cxd_pair){ u->p[rep][i].a,
				  u->p[rep][(i + rep) % u->np].b };
}

static int *side_of(const struct build *b, int rep, int d)
{
	return b->side + ((size_t) rep * b->nparts + d) * CXD_CAP_LOAD;
}

/* Part d's side for each repeat: its ranks from the first, then from
 * the middle of its list (other hosts where it has them: how a fat
 * tree hashes destinations over its spines, and so whether two pairs
 * meet on one uplink, depends on which hosts they are); a reload's
 * from a quarter and three quarters. */
static void side_reps(struct build *b, const struct cxd_sweep_rank *r,
		      const int *mem, int nm, int d, bool spread,
		      const bool *skip, int *rot)
{
	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		int k;

		for (int j = 0; j < nm; j++)
			rot[j] = mem[(j + (2 * rep + b->reload) * nm /
				      (2 * CXD_CAP_REPS)) % nm];
		k = cxd_width_side(b->tm, r, rot, nm, spread, skip,
				   side_of(b, rep, d));
		b->nside[d] = rep == 0 || k < b->nside[d] ? k : b->nside[d];
	}
}

/* Each part's side: groups spread over their switches, switches their
 * own ranks. */
static int sides(struct build *b, const struct cxd_sweep_rank *r, int n,
		 const int *dom, int nparts, bool spread, const bool *skip)
{
	int *start = calloc((size_t) nparts + 1, sizeof(int));
	int *mem = malloc(((size_t) n + 1) * sizeof(int));
	int *rot = malloc(((size_t) n + 1) * sizeof(int));

	if (start == NULL || mem == NULL || rot == NULL) {
		free(start);
		free(mem);
		free(rot);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		if (dom[i] >= 0)
			start[dom[i] + 1]++;
	for (int d = 0; d < nparts; d++)
		start[d + 1] += start[d];
	for (int i = 0, *at = b->nside; i < n; i++)
		if (dom[i] >= 0)
			mem[start[dom[i]] + at[dom[i]]++] = i;
	for (int d = 0; d < nparts; d++)
		side_reps(b, r, mem + start[d], start[d + 1] - start[d], d,
			  spread, skip, rot);
	free(start);
	free(mem);
	free(rot);
	return 0;
}

static int add_unit(struct build *b, enum cxd_cap_scope s, int x, int y)
{
	struct cxd_cap_plan *pl = b->pl;
	struct cxd_cap_class *cl = &pl->cls[s];
	struct cxd_cap_unit *u;
	int lo = x < y ? x : y, hi = x < y ? y : x, np;
	/* named already: listed, not loaded */
	bool out = b->skip_pair && s != CXD_CAP_SWITCHES &&
		   b->skip_pair[lo * cxd_cap_skip_parts(b->tm) + hi];
	if (pl->nunits == b->cap) {
		int cap = b->cap ? 2 * b->cap : 64;
		void *p = realloc(pl->unit, (size_t) cap * sizeof(*pl->unit));

		if (p == NULL)
			return -ENOMEM;
		pl->unit = p;
		b->cap = cap;
	}
	u = &pl->unit[pl->nunits++];
	memset(u, 0, sizeof(*u));
	np = cl->load;
	np = b->nside[lo] < np ? b->nside[lo] : np;
	np = b->nside[hi] < np ? b->nside[hi] : np;
	np = out ? 0 : np;
	*u = (struct cxd_cap_unit){ .scope = s, .a = lo, .b = hi,
				    .round = -1, .np = np < 2 ? 0 : np,
				    .state = CXD_CAP_SKIPPED };
	for (int rep = 0; rep < CXD_CAP_REPS; rep++)
		for (int i = 0; i < u->np; i++)
			u->p[rep][i] = (struct cxd_pair){
				side_of(b, rep, lo)[i], side_of(b, rep, hi)[i] };
	cl->units++;
	if (u->np == 0)
		return 0;
	if (b->in_round + u->np > b->max_at_once)
		pl->nrounds++, b->in_round = 0;
	u->round = pl->nrounds - 1;
	b->in_round += u->np;
	return 0;
}

/* A new round of the plan (the next add_unit goes into it). */
static void next_round(struct build *b)
{
	b->pl->nrounds++;
	b->in_round = 0;
}

/* The parts of each group (sw: switches of group g; NULL: the groups)
 * that hold ranks, in order; their count. */
static int active(const struct build *b, int nparts, const int *grp, int g,
		  int *out)
{
	int m = 0;

	for (int d = 0; d < nparts; d++)
		if (b->nside[d] > 0 && (grp == NULL || grp[d] == g))
			out[m++] = d;
	return m;
}

/* Circle rounds over each set's active parts, the sets side by side:
 * round r of every set in plan round r (up to max_rounds). */
static int circles(struct build *b, enum cxd_cap_scope s, int nparts,
		   const int *grp, int nsets, int max_rounds)
{
	int *act = malloc(((size_t) nparts + 1) * sizeof(int));
	struct cxd_pair *pr = malloc(((size_t) nparts / 2 + 1) * sizeof(*pr));
	int rounds = 0, ret = 0;

	if (act == NULL || pr == NULL) {
		free(act);
		free(pr);
		return -ENOMEM;
	}
	for (int g = 0; g < nsets; g++) {
		int m = active(b, nparts, grp, g, act);

		if (cxd_pairs_nrounds(m) > rounds)
			rounds = cxd_pairs_nrounds(m);
	}
	b->pl->cls[s].present = rounds > 0;
	if (rounds > max_rounds)
		rounds = max_rounds;
	b->pl->cls[s].first_round = b->pl->nrounds;
	for (int r = 0; r < rounds && ret == 0 && b->pl->cls[s].load; r++) {
		next_round(b);
		for (int g = 0; g < nsets && ret == 0; g++) {
			int m = active(b, nparts, grp, g, act);
			int k = r < cxd_pairs_nrounds(m) ?
				cxd_pairs_round(m, r, pr) : 0;

			for (int i = 0; i < k && ret == 0; i++)
				ret = add_unit(b, s, act[pr[i].a], act[pr[i].b]);
		}
	}
	b->pl->cls[s].nrounds = b->pl->nrounds - b->pl->cls[s].first_round;
	free(act);
	free(pr);
	return ret;
}

/* The load of scope s from its width, or why it cannot be run: one
 * pair over it (a measured width whose typical unit carried the whole
 * load grows, tools/sweep/phases/capacity_mpi.c). */
static void load_of(struct cxd_cap_class *cl, int width, bool stated,
		    int max_at_once)
{
	int want = width + 1;

	cl->width = width;
	cl->stated = stated;
	cl->load = want < CXD_CAP_LOAD ? want : CXD_CAP_LOAD;
	if (cl->load > max_at_once)
		cl->load = max_at_once;
	if (width <= 0) {
		cl->load = 0;
		snprintf(cl->why, sizeof(cl->why), "its width is unknown");
	} else if (cl->load < 2) {
		cl->load = 0;
		snprintf(cl->why, sizeof(cl->why), "one pair at a time");
	}
}

/* Each switch's group (-1: none), from its first rank. */
static int *groups_of_switches(const struct cxd_topo_map *tm, int n)
{
	int *grp = malloc(((size_t) tm->nswitch + 1) * sizeof(int));

	if (grp == NULL)
		return NULL;
	for (int s = 0; s < tm->nswitch; s++)
		grp[s] = -1;
	for (int i = 0; i < n; i++)
		if (tm->switch_of[i] >= 0 && grp[tm->switch_of[i]] < 0)
			grp[tm->switch_of[i]] = tm->group_of ?
						tm->group_of[i] : -1;
	return grp;
}

static int plan_scopes(struct build *b, const struct cxd_sweep_rank *r, int n,
		       const bool *skip, const int *grp)
{
	const struct cxd_topo_map *tm = b->tm;
	int ret;

	if (tm->ngroup > 0) {
		ret = sides(b, r, n, tm->group_of, tm->ngroup, true, skip);
		if (ret == 0)
			ret = circles(b, CXD_CAP_BUNDLE, tm->ngroup, NULL, 1,
				      tm->ngroup);
		memset(b->nside, 0, (size_t) tm->nswitch * sizeof(int));
		if (ret == 0)
			ret = sides(b, r, n, tm->switch_of, tm->nswitch, false,
				    skip);
		if (ret == 0)
			ret = circles(b, CXD_CAP_SWITCHES, tm->nswitch, grp,
				      tm->ngroup, tm->nswitch);
		return ret;
	}
	ret = sides(b, r, n, tm->switch_of, tm->nswitch, false, skip);
	return ret ? ret : circles(b, CXD_CAP_LEAVES, tm->nswitch, NULL, 1,
				   CXD_CAP_LEAF_ROUNDS);
}

int cxd_cap_plan(const struct cxd_topo_map *tm,
		 const struct cxd_sweep_rank *r, int n,
		 const struct cxd_cap_want *w, struct cxd_cap_plan *pl)
{
	int parts = (tm->nswitch > tm->ngroup ? tm->nswitch : tm->ngroup) + 1;
	struct build b = { .tm = tm, .skip_pair = w->skip_pair,
			   .max_at_once = w->max_at_once, .pl = pl,
			   .reload = w->reload != 0 };
	int *grp = groups_of_switches(tm, n), ret = -ENOMEM;

	memset(pl, 0, sizeof(*pl));
	pl->nparts[CXD_CAP_BUNDLE] = tm->ngroup;
	pl->nparts[CXD_CAP_SWITCHES] = pl->nparts[CXD_CAP_LEAVES] =
		tm->nswitch;
	b.nparts = parts;
	b.side = malloc((size_t) parts * CXD_CAP_REPS * CXD_CAP_LOAD *
			sizeof(int));
	b.nside = calloc((size_t) parts, sizeof(int));
	for (int s = 0; s < CXD_CAP_SCOPES; s++) {
		enum cxd_topo_wkind k = cxd_cap_width_kind(s);

		load_of(&pl->cls[s], w->width[k], w->stated[k],
			w->max_at_once);
	}
	if (grp && b.side && b.nside)
		ret = plan_scopes(&b, r, n, w->skip, grp);
	free(grp);
	free(b.side);
	free(b.nside);
	if (ret)
		cxd_cap_plan_free(pl);
	return ret;
}

void cxd_cap_plan_free(struct cxd_cap_plan *pl)
{
	free(pl->unit);
	memset(pl, 0, sizeof(*pl));
}

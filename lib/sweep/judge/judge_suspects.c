/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects from the outliers: an admin drains a node or replaces a cable,
 * so the report names the few things the links point at (a rank, a
 * switch, a group, a bundle, or the whole fabric) rather than every pair.
 * Here the counts they are named from and what a suspect covers; the
 * naming itself is judge_cover.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include "judge_cover.h"
#include "judge_kinds.h"
#include "judge_suspects.h"

int cxd_judge_tally_init(struct cxd_tally *t, int n,
			 const struct cxd_topo_map *topo)
{
	size_t ns = topo ? (size_t) topo->nswitch : 0;
	size_t per = 3 * (size_t) n + ns * ns;
	int *all = calloc(2 * per + 1, sizeof(int));

	*t = (struct cxd_tally){ n, (int) ns, topo ? topo->ngroup : 0,
				 { 0 }, { 0 }, { 0 }, { 0 } };
	if (all == NULL)
		return -ENOMEM;
	for (int m = 0; m < 2; m++) {
		t->rank[m] = all + m * per;
		t->mate[m] = t->rank[m] + n;
		t->kin[m] = t->mate[m] + n;
		t->by_switch[m] = t->kin[m] + n;
	}
	return 0;
}

void cxd_judge_tally_add(struct cxd_tally *t, const struct cxd_topo_map *topo,
			 const struct cxd_outlier *o)
{
	int m = o->metric, a, b;

	t->rank[m][o->src]++;
	t->rank[m][o->dst]++;
	if (topo == NULL || t->nswitch == 0)
		return;
	a = topo->switch_of[o->src];
	b = topo->switch_of[o->dst];
	if (a < 0 || b < 0)
		return;
	t->by_switch[m][a * t->nswitch + b]++;
	if (a == b) {
		t->mate[m][o->src]++;
		t->mate[m][o->dst]++;
	}
	if (topo->group_of[o->src] >= 0 &&
	    topo->group_of[o->src] == topo->group_of[o->dst]) {
		t->kin[m][o->src]++;
		t->kin[m][o->dst]++;
	}
}

int *cxd_judge_tally_counts(struct cxd_tally *t, size_t *len)
{
	*len = 2 * (3 * (size_t) t->n +
		    (size_t) t->nswitch * (size_t) t->nswitch);
	return t->rank[0];
}

void cxd_judge_tally_free(struct cxd_tally *t)
{
	free(t->rank[0]);
	t->rank[0] = NULL;
}

size_t cxd_judge_suspects_tally(const struct cxd_tally *t,
				const struct cxd_topo_map *topo,
				struct cxd_suspect *out, size_t cap)
{
	size_t k = 0;

	cxd_judge_cover(t, topo, CXD_M_BW, out, cap, &k);
	cxd_judge_cover(t, topo, CXD_M_LAT, out, cap, &k);
	return k;
}

size_t cxd_judge_suspects(const struct cxd_outlier *o, size_t nout, int n,
			  const struct cxd_topo_map *topo,
			  struct cxd_suspect *out, size_t cap)
{
	struct cxd_tally t;
	size_t k;

	if (cxd_judge_tally_init(&t, n, topo) != 0)
		return 0;
	for (size_t i = 0; i < nout; i++)
		cxd_judge_tally_add(&t, topo, &o[i]);
	k = cxd_judge_suspects_tally(&t, topo, out, cap);
	cxd_judge_tally_free(&t);
	return k;
}

/* The set of rank r at a level of the topology; -1: none. */
static int set_of(const struct cxd_topo_map *topo, enum cxd_suspect_level l,
		  int r)
{
	if (topo == NULL || l == CXD_LEVEL_NONE)
		return -1;
	return l == CXD_LEVEL_SWITCH ? topo->switch_of[r] : topo->group_of[r];
}

bool cxd_judge_link_suspect(const struct cxd_suspect *s, size_t ns,
			    int src, int dst, const struct cxd_topo_map *topo)
{
	for (size_t i = 0; i < ns; i++) {
		const struct cxd_suspect_row *row = cxd_judge_kind(s[i].kind);
		int ga = set_of(topo, row->level, src);
		int gb = set_of(topo, row->level, dst);

		if (row->shape == CXD_SHAPE_ALL ||
		    cxd_judge_rank_suspect(&s[i], 1, src, topo) ||
		    cxd_judge_rank_suspect(&s[i], 1, dst, topo))
			return true;
		if (row->shape == CXD_SHAPE_PAIR && ga >= 0 && gb >= 0 &&
		    ((ga == s[i].id && gb == s[i].id2) ||
		     (ga == s[i].id2 && gb == s[i].id)))
			return true;
	}
	return false;
}

const char *cxd_judge_where(const struct cxd_suspect *s)
{
	if (s->maybe)
		return "that may cross it ";
	return s->routed && s->kind == CXD_S_SWITCH ? "crossing it " :
	       cxd_judge_kind(s->kind)->where;
}

bool cxd_judge_rank_suspect(const struct cxd_suspect *s, size_t ns, int r,
			    const struct cxd_topo_map *topo)
{
	for (size_t i = 0; i < ns; i++) {
		const struct cxd_suspect_row *row = cxd_judge_kind(s[i].kind);

		/* a pair or the fabric: no one node to drain */
		if (!row->drain)
			continue;
		if (row->shape == CXD_SHAPE_RANK ? s[i].id == r :
		    set_of(topo, row->level, r) == s[i].id)
			return true;
	}
	return false;
}

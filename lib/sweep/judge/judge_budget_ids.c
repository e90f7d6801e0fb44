/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's component as a suspect's kind and ids
 * (judge_budget.h): what the classes' and the ways' naming share. */
#include "judge_budget.h"

enum cxd_suspect_kind cxd_judge_budget_kind(int cover_kind)
{
	return cover_kind == CXD_COVER_NIC ? CXD_S_RANK :
	       cover_kind == CXD_COVER_LINK ? CXD_S_LINK :
	       cover_kind == CXD_COVER_BUNDLE ? CXD_S_BUNDLE : CXD_S_SWITCH;
}

void cxd_judge_budget_ids(const struct cxd_cover_plan *p,
			  const struct cxd_topo_map *tm, int comp,
			  struct cxd_alike *a)
{
	const struct cxd_cover_comp *x = &p->comp[comp];

	a->kind = cxd_judge_budget_kind(x->kind);
	a->id = x->id;
	a->id2 = x->kind == CXD_COVER_SWITCH ? CXD_SWL_ALL : x->id2;
	if (x->kind == CXD_COVER_LINK && tm && x->id < tm->nlink) {
		a->id = tm->link[x->id].a;
		a->id2 = tm->link[x->id].b;
	}
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* A plan's classes from its sure crossings (plan_cover_class.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cover_class.h"

/* A component's signature: the chosen pairs that cross it for sure, in
 * pair order. */
struct sig {
	const int *s;
	int len, c;
};

static int by_sig(const void *x, const void *y)
{
	const struct sig *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	for (int i = 0; i < a->len; i++)
		if (a->s[i] != b->s[i])
			return a->s[i] < b->s[i] ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

/* Each component's pairs (at, lst: per component, in pair order). */
static int sig_lists(const struct cxd_cover_plan *p, size_t *at, int *lst)
{
	size_t *fill = calloc((size_t) p->ncomp + 1, sizeof(size_t));

	if (!fill)
		return -ENOMEM;
	memset(at, 0, ((size_t) p->ncomp + 1) * sizeof(size_t));
	for (size_t e = 0; e < p->sure_at[p->npair]; e++)
		at[p->sure[e] + 1]++;
	for (int c = 0; c < p->ncomp; c++)
		at[c + 1] += at[c];
	for (int i = 0; i < p->npair; i++)
		for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++) {
			int c = p->sure[e];

			lst[at[c] + fill[c]++] = i;
		}
	free(fill);
	return 0;
}

/* Equal signatures sorted together: each component's group (-1: no
 * sure crossing), then classes numbered by first member. */
static void number(struct cxd_cover_plan *p, struct sig *sg, int nsg,
		   int *grp)
{
	int g = -1;

	for (int c = 0; c < p->ncomp; c++)
		grp[c] = -1;
	qsort(sg, (size_t) nsg, sizeof(*sg), by_sig);
	for (int i = 0; i < nsg; i++) {
		if (i == 0 || sg[i].len != sg[i - 1].len ||
		    memcmp(sg[i].s, sg[i - 1].s,
			   (size_t) sg[i].len * sizeof(int)) != 0)
			g++;
		grp[sg[i].c] = g;
	}
	p->ncls = 0;
	for (int i = 0; i <= g; i++)
		sg[i].len = -1; /* sg[] is done: each group's class */
	for (int c = 0; c < p->ncomp; c++) {
		p->comp[c].cls = -1;
		if (grp[c] < 0)
			continue;
		if (sg[grp[c]].len < 0)
			sg[grp[c]].len = p->ncls++;
		p->comp[c].cls = sg[grp[c]].len;
	}
}

/* cls_at and member from the components' classes; the counts. */
static int members(struct cxd_cover_plan *p)
{
	int *fill = calloc((size_t) p->ncls + 1, sizeof(int));

	p->cls_at = calloc((size_t) p->ncls + 2, sizeof(int));
	p->member = malloc(((size_t) p->ncomp + 1) * sizeof(int));
	if (!fill || !p->cls_at || !p->member) {
		free(fill);
		return -ENOMEM;
	}
	for (int c = 0; c < p->ncomp; c++)
		if (p->comp[c].cls >= 0)
			p->cls_at[p->comp[c].cls + 1]++;
	for (int i = 0; i < p->ncls; i++) {
		p->nalike += p->cls_at[i + 1] > 1;
		p->identifiable_one += p->cls_at[i + 1] == 1;
		p->cls_at[i + 1] += p->cls_at[i];
	}
	for (int c = 0; c < p->ncomp; c++) {
		const struct cxd_cover_comp *m = &p->comp[c];

		if (m->cls >= 0)
			p->member[p->cls_at[m->cls] + fill[m->cls]++] = c;
		p->nuncovered += m->sure == 0;
		p->nshort += m->sure < m->want;
		p->nthin += m->reach == CXD_COVER_SURE && m->want < p->k;
		p->nnone += m->reach == CXD_COVER_NONE;
	}
	free(fill);
	return 0;
}

int cxd_cover_sure_classes(struct cxd_cover_plan *p)
{
	size_t *at = malloc(((size_t) p->ncomp + 1) * sizeof(size_t));
	int *lst = malloc((p->sure_at[p->npair] + 1) * sizeof(int));
	int *grp = malloc(((size_t) p->ncomp + 1) * sizeof(int));
	struct sig *sg = malloc(((size_t) p->ncomp + 1) * sizeof(*sg));
	int ret = at && lst && grp && sg ? sig_lists(p, at, lst) : -ENOMEM;
	int nsg = 0;

	for (int c = 0; ret == 0 && c < p->ncomp; c++)
		if (at[c + 1] > at[c])
			sg[nsg++] = (struct sig){ lst + at[c],
						  (int) (at[c + 1] - at[c]),
						  c };
	if (ret == 0) {
		number(p, sg, nsg, grp);
		ret = members(p);
	}
	free(at);
	free(lst);
	free(grp);
	free(sg);
	return ret;
}

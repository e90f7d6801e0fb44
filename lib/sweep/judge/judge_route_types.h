/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state of naming suspects over the routes (judge_route.c) and its
 * bookkeeping (judge_route_state.c); private to the two.
 */
#ifndef CXD_SWEEP_JUDGE_ROUTE_TYPES_H
#define CXD_SWEEP_JUDGE_ROUTE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/model/route.h"
#include "judge_cover_types.h"

/* Most suspects named over the routes for one metric: past them the
 * fabric rule speaks (half the ranks or more). */
#define CXD_ROUTE_MOST_NAMED 64

/* One measured pair of switches a component carries, f of its pairs. */
struct rent {
	int pair;
	double f;
};

struct rcand {
	enum cxd_suspect_kind kind;
	int id, id2; /* a link: id the link line's index until named */
	size_t first, n; /* its pairs: ent[first .. first + n) */
	double expect;   /* the pairs it carries: sum of f * pairs */
	double explain;  /* the outliers it can explain, all counted */
	bool named;
};

struct rstate {
	struct cover *c;
	struct cxd_routes rt;
	int np;          /* measured switch pairs a < b */
	int *pa, *pb;
	double *n, *bad; /* their links and outliers */
	double *pred;    /* the share of their links the named predict out */
	bool *covered;   /* per way of the routes: crosses a named one */
	char *mark;      /* per link line: in the component at hand */
	struct rcand *cand;
	size_t ncand, ccap;
	struct rent *ent;
	size_t nent, ecap;
};

/* Routes and the measured pairs for s->c; 0, -ENOMEM, -E2BIG. */
int cxd_route_state(struct rstate *s);
void cxd_route_state_free(struct rstate *s);
/* Room for ncand candidates and nent pairs; 0 or -ENOMEM. */
int cxd_route_grow(struct rstate *s, size_t ncand, size_t nent);
/* Put x as a suspect, with the components no pair tells apart from it. */
void cxd_route_name(struct rstate *s, const struct rcand *x);
/* What is left unexplained back into the cover's matrix. */
void cxd_route_left(struct rstate *s);

#endif

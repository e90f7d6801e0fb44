/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state of naming one metric's suspects (judge_cover.c) and its
 * sets' arithmetic (judge_cover_sets.c); private to the two.
 */
#ifndef CXD_SWEEP_JUDGE_COVER_TYPES_H
#define CXD_SWEEP_JUDGE_COVER_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "suspect_types.h"

/* Outliers not yet explained and links per candidate set. */
struct cover_score {
	double *sbad, *slinks; /* per switch: leaving it */
	double *gbad, *glinks; /* per group: leaving it */
	double *bbad, *blinks; /* per group pair g < h: g * ngroup + h */
};

struct cover_cand {
	enum cxd_suspect_kind kind;
	int id, id2;
	double bad, links;
	int ranks; /* 0: none */
};

struct cover {
	const struct cxd_tally *t;
	const struct cxd_topo_map *topo; /* NULL: ranks and the fabric */
	enum cxd_metric m;
	int n, ns, ng;
	int *h;       /* ranks per switch */
	int *left;    /* of them, not named for their NIC */
	int *gs;      /* a switch's group; -1: none */
	int *gsize;   /* ranks per group */
	int *nsw;     /* switches with ranks per group */
	bool *nic;    /* rank named for its NIC */
	bool *covered; /* rank stood for by a suspect */
	double *bad;  /* ns x ns, both ways: outliers not yet explained */
	double *links; /* ns x ns, both ways: links not yet explained */
	double *row0; /* per switch: its outliers with the NICs' out */
	/* The matrix as counted, and with the NICs' outliers out: a set is
	 * reported by the second once NICs are named apart. */
	double *raw, *bad0;
	bool net;
	struct cover_cand *cand; /* the sets mostly out, in order */
	size_t ncand;
	struct cover_score score;
	struct cxd_suspect *out;
	size_t cap, *k, first;
};

/* 0, or -1 out of memory (then free it all the same). */
int cxd_judge_cover_init(struct cover *c, const struct cxd_tally *t,
			 const struct cxd_topo_map *topo, enum cxd_metric m);
void cxd_judge_cover_free(struct cover *c);
void cxd_judge_cover_put(struct cover *c, const struct cxd_suspect *s);
/* c->score from c->bad and c->links. */
void cxd_judge_cover_score(struct cover *c);
/* Suspect kind id (id2: a bundle's) as measured: its outliers and links
 * (a set's without the named NICs' once c->net), and the components it
 * cannot be told apart from. */
void cxd_judge_cover_suspect(const struct cover *c,
			     enum cxd_suspect_kind kind, int id, int id2,
			     struct cxd_suspect *s);
/* Several bundles of a group beside a named switch of it, no more than
 * its ports can carry whole: those ports (the switch's fault reaches
 * every pair routed over them), not bundles of their own. One bundle is
 * named all the same: it may be a fault of its own, and which it is no
 * count of outliers tells. */
void cxd_judge_cover_ports(struct cover *c);
/* A group all of whose switches (two or more) are named replaces them:
 * its links to other groups are the common factor. */
void cxd_judge_cover_groups(struct cover *c);

#endif

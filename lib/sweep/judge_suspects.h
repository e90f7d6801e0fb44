/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects from the outliers (judge_suspects.c): counted per rank,
 * switch and group, then named; which ranks and links a suspect covers.
 */
#ifndef CXD_SWEEP_JUDGE_SUSPECTS_H
#define CXD_SWEEP_JUDGE_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>

#include "judge_kinds.h"
#include "pairs.h"

/* Most components another suspect cannot be told apart from (below). */
#define CXD_SUSPECT_ALIKE 3

/* A component whose links cross exactly the measured pairs a suspect's
 * cross (a rank alone on its switch and that switch; a switch that is
 * its whole group; a group's links when one other group holds the rest
 * and the bundle between them): no measurement can say which is at
 * fault. The suspect is the most specific of them (fewest ranks). */
struct cxd_alike {
	enum cxd_suspect_kind kind;
	int id, id2; /* as a suspect's */
};

struct cxd_suspect {
	enum cxd_suspect_kind kind;
	enum cxd_metric metric;
	int id;          /* rank, or switch/group index in the topology */
	int bad, links;  /* out of the links it carries */
	int bad_in, in;  /* switch/group: links inside it */
	int id2;         /* a bundle: the links between groups id and id2 */
	/* A set or bundle: ranks named for their NIC, whose links are left
	 * out of bad, links, bad_in and in (explained already). */
	int aside;
	int nalike;      /* the components it cannot be told apart from */
	struct cxd_alike alike[CXD_SUSPECT_ALIKE];
};

/* Topology: for each rank its switch and group index (-1: none). A
 * switch sits in one group: its first rank's. */
struct cxd_topo_map {
	const int *switch_of, *group_of;
	int nswitch, ngroup;
};

/*
 * What the suspects are named from: outlying links counted per rank (at
 * both ends; those to its own switch and its own group apart) and
 * between switches. Small enough to sum over ranks (3n + nswitch^2 per
 * metric), where the outliers are not.
 */
struct cxd_tally {
	int n, nswitch, ngroup;
	int *rank[2];      /* per metric: outliers with rank r at either end */
	int *mate[2];      /* of those, to a rank on r's switch */
	int *kin[2];       /* to a rank in r's group (its switch's too) */
	int *by_switch[2]; /* nswitch^2: from switch a to switch b */
};

/* Zeroed counts for n ranks (topo may be NULL); 0 or -ENOMEM. */
int cxd_judge_tally_init(struct cxd_tally *t, int n,
			 const struct cxd_topo_map *topo);
void cxd_judge_tally_add(struct cxd_tally *t, const struct cxd_topo_map *topo,
			 const struct cxd_outlier *o);
/* Every count as one int array (to sum over ranks): rank, mate, kin,
 * switch per metric, in that order; its length in *len. */
int *cxd_judge_tally_counts(struct cxd_tally *t, size_t *len);
void cxd_judge_tally_free(struct cxd_tally *t);
/* Suspects from the counts, as cxd_judge_suspects. */
size_t cxd_judge_suspects_tally(const struct cxd_tally *t,
				const struct cxd_topo_map *topo,
				struct cxd_suspect *out, size_t cap);

/*
 * Name the suspects of o (confirmed outliers) for n ranks, the way fault
 * localizers do (judge_cover.c): components first (a rank out to nearly
 * everyone, its own switch's ranks included: its NIC), then the fewest
 * switches, groups and bundles of global links that explain what is
 * left, each mostly out; a group when all its switches are; a rank left
 * with most of its links out; the fabric when half the ranks or more
 * would be named. topo may be NULL (ranks and the fabric only). Returns
 * the count found (written: up to cap).
 */
size_t cxd_judge_suspects(const struct cxd_outlier *o, size_t nout, int n,
			  const struct cxd_topo_map *topo,
			  struct cxd_suspect *out, size_t cap);
/* Is link (src, dst) explained by a suspect: an end's rank, switch or
 * group, the bundle between their groups, or the fabric? */
bool cxd_judge_link_suspect(const struct cxd_suspect *s, size_t ns,
			    int src, int dst, const struct cxd_topo_map *topo);
/* Is rank r covered by a suspect (itself, its switch or its group)? A
 * bundle between groups covers no rank: no node is to blame. */
bool cxd_judge_rank_suspect(const struct cxd_suspect *s, size_t ns, int r,
			    const struct cxd_topo_map *topo);

#endif

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

struct cxd_suspect {
	enum cxd_suspect_kind kind;
	enum cxd_metric metric;
	int id;          /* rank, or switch/group index in the topology */
	int bad, links;  /* out of the links it carries */
	int bad_in, in;  /* switch/group: links inside it */
	int id2;         /* a bundle: the links between groups id and id2 */
};

/* Topology: for each rank its switch and group index (-1: none). */
struct cxd_topo_map {
	const int *switch_of, *group_of;
	int nswitch, ngroup;
};

/*
 * What the suspects are named from: outlying links counted per rank (at
 * both ends) and between switches and groups. Small enough to sum over
 * ranks (n + nswitch^2 + ngroup^2 per metric), where the outliers are not.
 */
struct cxd_tally {
	int n, nswitch, ngroup;
	int *rank[2];      /* per metric: outliers with rank r at either end */
	int *by_switch[2]; /* nswitch^2: from switch a to switch b */
	int *by_group[2];  /* ngroup^2 */
};

/* Zeroed counts for n ranks (topo may be NULL); 0 or -ENOMEM. */
int cxd_judge_tally_init(struct cxd_tally *t, int n,
			 const struct cxd_topo_map *topo);
void cxd_judge_tally_add(struct cxd_tally *t, const struct cxd_topo_map *topo,
			 const struct cxd_outlier *o);
/* Every count as one int array (to sum over ranks): rank, switch, group
 * per metric, in that order; its length in *len. */
int *cxd_judge_tally_counts(struct cxd_tally *t, size_t *len);
void cxd_judge_tally_free(struct cxd_tally *t);
/* Suspects from the counts, as cxd_judge_suspects. */
size_t cxd_judge_suspects_tally(const struct cxd_tally *t,
				const struct cxd_topo_map *topo,
				struct cxd_suspect *out, size_t cap);

/*
 * Name the suspects of o (confirmed outliers) for n ranks: a switch or
 * group whose outgoing links are mostly out stands for its ranks; a rank
 * with most of its links out is named alone; when half the ranks or more
 * would be named, the fabric is (a change everywhere). topo may be NULL.
 * Returns the count written (room for cap).
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

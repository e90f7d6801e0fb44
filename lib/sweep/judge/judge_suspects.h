/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects from the outliers (judge_suspects.c): counted per rank,
 * switch and group, then named; which ranks and links a suspect covers.
 */
#ifndef CXD_SWEEP_JUDGE_SUSPECTS_H
#define CXD_SWEEP_JUDGE_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>

#include "suspect_types.h"


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
/* Where its links are, in the report's words ("leaving it ", "between
 * them "): a switch named over the routes counts the pairs crossing it. */
const char *cxd_judge_where(const struct cxd_suspect *s);
/* Is rank r covered by a suspect (itself, its switch or its group)? A
 * bundle between groups covers no rank: no node is to blame. */
bool cxd_judge_rank_suspect(const struct cxd_suspect *s, size_t ns, int r,
			    const struct cxd_topo_map *topo);

#endif

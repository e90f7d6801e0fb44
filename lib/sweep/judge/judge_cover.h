/* SPDX-License-Identifier: BSD-3-Clause */
/* The suspects of one metric named from the counts (judge_cover.c). */
#ifndef CXD_SWEEP_JUDGE_COVER_H
#define CXD_SWEEP_JUDGE_COVER_H

#include <stddef.h>

#include "suspect_types.h"

/*
 * Append metric m's suspects to out from *k on (room for cap; *k counts
 * those found beyond it too), as cxd_judge_suspects says. On no memory
 * none are named for m.
 */
void cxd_judge_cover(const struct cxd_tally *t,
		     const struct cxd_topo_map *topo, enum cxd_metric m,
		     struct cxd_suspect *out, size_t cap, size_t *k);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_ROUNDS_H
#define CXD_SWEEP_PLAN_COVER_ROUNDS_H

#include "plan_cover_work.h"

/*
 * The chosen pairs of w packed into rounds (plan_cover_rounds.c),
 * first fit, the pairs that load the most link lines first: no rank in
 * two pairs of a round, no link line carrying more than its count of
 * pairs, a pair adding to each link the shares of its ways that cross
 * it (what it is expected to carry; the hash is unknown). ord gets the
 * pair indices in round order (w->npair), round_at the rounds' starts
 * in ord and the end (room for w->npair + 1), *nround their number.
 * 0 or -ENOMEM.
 */
int cxd_cover_rounds(const struct cxd_cover_work *w, int *ord,
		     int *round_at, int *nround);

#endif

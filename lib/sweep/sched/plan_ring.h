/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A covering plan without the fabric's links (plan_ring.c): when
 * --topology has no link lines there are no routes to choose pairs
 * from, so the pairs are ring shifts, rank i with i + 1, i + 2, ... i +
 * shifts (mod n), and the only components are the NICs: such a plan
 * cannot localize beyond a NIC. The same plan type as a covering plan's
 * (plan_cover_types.h), so one naming (judge_budget.h) reads both.
 */
#ifndef CXD_SWEEP_PLAN_RING_H
#define CXD_SWEEP_PLAN_RING_H

#include "plan_cover_types.h"

/* The most shifts that give new pairs: shift s and n - s are the same
 * pairs. */
int cxd_cover_ring_max_shifts(int n);

/* The ring plan of n ranks (n >= 2) and shifts (1 .. the most): its
 * pairs packed first fit into rounds (no rank twice in a round), every
 * NIC a component crossed for sure by its pairs, their classes. 0;
 * -EINVAL (n < 2 or shifts out of range); -ENOMEM. On error p holds
 * nothing. Freed with cxd_cover_plan_free. */
int cxd_cover_ring_build(int n, int shifts, struct cxd_cover_plan *p);

#endif

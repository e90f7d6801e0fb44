/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_ANCHOR_H
#define CXD_SWEEP_PLAN_COVER_ANCHOR_H

#include "plan_cover_work.h"

/*
 * The pairs a covering plan holds before the cover's choice
 * (plan_cover_anchor.c). A pair runs at the rate of the narrowest link
 * on its way: one between groups at its global cable's, often under a
 * node link's. Measured good, it says only that its NICs, switches and
 * the links inside its groups carry that much, so a NIC or a switch
 * slowed to three quarters of a node link hides behind it (the plan's
 * greedy choice favours such pairs: they cross the most components).
 * So each NIC gets pairs on its own switch (a ring over the switch's
 * ranks: two mates each where it has two), and each link line inside
 * a group k pairs between the ranks of its two switches, which that
 * link alone may bind. Stops at w->max_pairs (w->capped). 0, -ENOMEM.
 */
int cxd_cover_anchor(struct cxd_cover_work *w);

#endif

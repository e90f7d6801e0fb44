/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_CHOOSE_H
#define CXD_SWEEP_PLAN_COVER_CHOOSE_H

#include "plan_cover_work.h"

/*
 * The pairs of a covering plan chosen (plan_cover_choose.c; the gains
 * weighed in plan_cover_pick.c), greedily and in a fixed order (switch
 * pairs by index, then their ranks), over w as plan_cover_comps.c
 * left it:
 *   0. anchor: the pairs every plan holds (plan_cover_anchor.h): each
 *      NIC with mates on its switch, each link line inside a group
 *      from its own two switches.
 *   1. cover: each step takes the pair wanted by the most components.
 *      One some pair crosses for sure wants pairs from switch pairs its
 *      chosen pairs do not come from yet (their sure crossings differ
 *      in more than NICs) until it has k such (or all the job has),
 *      then any, until k chosen pairs (or all the job has) cross it for
 *      sure. One only ever crossed maybe wants its chance's worth while
 *      its expected crossings are under k.
 *   2. tell apart: then each step takes the pair that splits the most
 *      component pairs of one signature, until none splits any.
 * Each pair refines the classes of equal signatures (w->cls). Both stop
 * at w->max_pairs (w->capped). 0 or -ENOMEM.
 */
int cxd_cover_choose(struct cxd_cover_work *w);

#endif

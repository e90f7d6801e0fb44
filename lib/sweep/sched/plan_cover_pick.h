/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_PICK_H
#define CXD_SWEEP_PLAN_COVER_PICK_H

#include <stdbool.h>
#include <stddef.h>

#include "plan_cover_work.h"

/*
 * The best next pair of a covering plan (plan_cover_pick.c), over
 * every pair not chosen yet, switch pair by switch pair in index order,
 * then their ranks; the first of equal gains wins (the plan does not
 * depend on anything but its input). bt starts at gain 0, sp -1: it is
 * left so when no pair gains anything.
 *
 * cxd_cover_pick_cover: the gain of covering (plan_cover_choose.h,
 * step 1): the components that still want a sure crossing from the
 * pair's switch pair, plus the chance it gives those only ever crossed
 * maybe while their expected crossings are under k.
 *
 * cxd_cover_pick_split: the gain of telling apart (step 2): the
 * component pairs of one class the pair's sure crossings split.
 */
struct cxd_cover_best {
	double g;
	int sp, a, b;
};

void cxd_cover_pick_cover(struct cxd_cover_work *w,
			  struct cxd_cover_best *bt);
void cxd_cover_pick_split(struct cxd_cover_work *w,
			  struct cxd_cover_best *bt);
/* Switch pair sp's best pair for covering now (the first of equal
 * gains), its gain; 0 and -1s when none gains anything. */
double cxd_cover_sp_best(struct cxd_cover_work *w, int sp, int *a, int *b);
/* The same for telling apart, with the NICs' bounds of the last
 * cxd_cover_nic_bounds(w, true) (a class only shrinks: they stay upper
 * bounds). */
double cxd_cover_sp_split_best(struct cxd_cover_work *w, int sp, int *a,
			       int *b);
/* The most one NIC on each switch adds, for covering or telling apart. */
void cxd_cover_nic_bounds(struct cxd_cover_work *w, bool tell);
/* Pair (a, b)'s bit in w->taken. */
size_t cxd_cover_bit(const struct cxd_cover_work *w, int a, int b);
/* Is pair (a, b) chosen already? */
bool cxd_cover_taken(const struct cxd_cover_work *w, int a, int b);
/* Has one of component c's chosen pairs come from switch pair sp? */
bool cxd_cover_has_key(const struct cxd_cover_work *w, int c, int sp);

#endif

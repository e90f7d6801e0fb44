/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_LAZY_H
#define CXD_SWEEP_PLAN_COVER_LAZY_H

#include <stdbool.h>

#include "plan_cover_pick.h"

/*
 * The best next pair (plan_cover_lazy.c), the same as
 * cxd_cover_pick_cover's (tell: cxd_cover_pick_split's), without
 * weighing every switch pair at every step: a switch pair's gain only
 * falls as pairs are chosen (covering: but where cxd_cover_lazy_rise
 * says; telling apart: a class only shrinks, so fewer of its members
 * are left to split), so each waits in a heap under its last weighed
 * best, an upper bound, and is weighed afresh only when on top; the
 * first on top weighed this step is the best (ties: the lower switch
 * pair, as the full weighing). When the heap runs dry, one full
 * weighing confirms nothing is left. 0 or -ENOMEM; bt as the full
 * weighing leaves it. One heap a step kind: free it between them.
 */
int cxd_cover_pick_lazy(struct cxd_cover_work *w, struct cxd_cover_best *bt,
			bool tell);
/* Component c's want just rose where its chosen pairs came from (its
 * sure crossings now wanted from any switch pair, no longer from new
 * ones only): its switch pairs weighed afresh at the next pick. */
void cxd_cover_lazy_rise(struct cxd_cover_work *w, int c);
void cxd_cover_lazy_free(struct cxd_cover_work *w);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_ADD_H
#define CXD_SWEEP_PLAN_COVER_ADD_H

#include "plan_cover_work.h"

/* Pair (a, b) of switch pair sp chosen (plan_cover_add.c): its
 * crossings counted, the gains they change marked, its sure ones (with
 * its NICs) refining the classes. 0 or -ENOMEM. */
int cxd_cover_add_pair(struct cxd_cover_work *w, int sp, int a, int b);

#endif

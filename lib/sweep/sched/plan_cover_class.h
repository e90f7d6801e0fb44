/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_CLASS_H
#define CXD_SWEEP_PLAN_COVER_CLASS_H

#include "plan_cover_types.h"

/*
 * A plan's classes from its pairs' sure crossings alone
 * (plan_cover_class.c), for a plan made without the covering plan's
 * working state (plan_ring.c): components crossed for sure by the same
 * chosen pairs share a class, numbered by first member; p->comp[].cls,
 * p->cls_at, p->member, p->ncls, p->nalike, p->identifiable_one and the
 * counts of the uncovered, short and thin. p->comp[].sure and .want
 * are set. 0 or -ENOMEM.
 */
int cxd_cover_sure_classes(struct cxd_cover_plan *p);

#endif

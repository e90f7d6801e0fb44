/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_TELL_H
#define CXD_SWEEP_PLAN_COVER_TELL_H

#include "plan_cover_work.h"

/*
 * What a covering plan can tell apart (plan_cover_tell.c).
 *
 * cxd_cover_classes: w's classes of equal signatures as p's (p->comp
 * copied from w already): each component some chosen pair crosses for
 * sure gets its class, numbered by first member (the others -1);
 * p->cls_at, p->member, p->ncls, p->nalike, p->identifiable_one.
 * 0 or -ENOMEM.
 *
 * cxd_cover_two: would two faults be named? Among the components some
 * chosen pair of p crosses for sure (p->sure lists), 1 when no two
 * different pairs of them have the same union of signatures, 0 when
 * some do, -1 when there are more than CXD_COVER_TWO_MAX unions to
 * compare (not checked), -ENOMEM.
 */
int cxd_cover_classes(const struct cxd_cover_work *w,
		      struct cxd_cover_plan *p);
int cxd_cover_two(const struct cxd_cover_plan *p);

#endif

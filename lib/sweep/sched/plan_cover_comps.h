/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PLAN_COVER_COMPS_H
#define CXD_SWEEP_PLAN_COVER_COMPS_H

#include "plan_cover_work.h"

/*
 * A covering plan's components and what each switch pair's traffic
 * crosses (plan_cover_comps.c), into w (its tm, rt, n set; the rest
 * zero): the ranks by switch, the components, every switch pair's
 * crossings and each component's reach. 0, -EINVAL (a rank on no
 * switch of the routes), -ENOMEM.
 */
int cxd_cover_comps_build(struct cxd_cover_work *w);
/* Everything w holds freed (whichever file filled it). */
void cxd_cover_work_free(struct cxd_cover_work *w);

#endif

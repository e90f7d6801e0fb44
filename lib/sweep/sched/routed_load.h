/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_ROUTED_LOAD_H
#define CXD_SWEEP_ROUTED_LOAD_H

#include "sweep/model/topo_types.h"
#include "routed_work.h"

/*
 * Each link line's cap (routed_load.c): a width (topo_types.h) is the
 * pairs one unit of its kind carries at full rate, a unit being a
 * switch pair's line (local), all lines between two groups (global, the
 * bundle) or all lines out of a leaf (uplink); a cable carries the width
 * over the largest such unit's cables (the fewest pairs a cable may be
 * trusted with), one pair when the width is unknown; a line, its cables
 * times that. w->cap filled (w->tm's links). 0 or -ENOMEM.
 */
int cxd_routed_caps(struct cxd_routed_work *w, const int *width);
/* Each class's crossings, every way's links counted full (x_*), the
 * lines' loads by the ways' shares (share) and each class's rounds
 * needed (crit): 0, -ENOMEM. */
int cxd_routed_loads(struct cxd_routed_work *w);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which classes of link (lclass.h) the topology file says a lone pair
 * crosses at full rate: every shared link on their routes carries two
 * pairs or more at full rate by a width line. Where such a class's
 * typical pair runs below a pair on one switch beyond the tolerance,
 * its pairs are judged against the pair on one switch: a layer slowed
 * alike everywhere (every spine of a fat tree, every global link) makes
 * its class's typical pair the slow one, and judged only against it
 * every link passed (judge_full.c).
 */
#ifndef CXD_SWEEP_JUDGE_FULL_H
#define CXD_SWEEP_JUDGE_FULL_H

#include <stdbool.h>

#include "sweep/model/lclass.h"
#include "sweep/model/topo_types.h"

struct cxd_rules;

/* w: the file's widths by kind (NULL: none); grouped: the placement has
 * groups (a dragonfly), else switches across a fat tree's uplinks. */
void cxd_judge_full_classes(const struct cxd_topo_width *w, bool grouped,
			    bool out[CXD_LC_N]);
/* Of r->bw_full, keep the classes whose typical pair, as it runs alone,
 * is below a pair on one switch by more than the bandwidth tolerance
 * (its floor): a class within it is judged as before, its own typical
 * the reference, so a healthy fabric's pairs across (a hop's latency
 * slower, 3.5 % on a simulated fat tree) are not held to a finer bar
 * than they were. In the full sweep "alone" is the calibration's word
 * (r->tol[CXD_M_BW].crowd_of, set before): a class it did not sample
 * is not kept. With no pair on one switch, or a poor resolution, none
 * is kept. */
void cxd_judge_full_slow(struct cxd_rules *r);

#endif

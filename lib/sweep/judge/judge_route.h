/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Suspects over the routes (judge_route.c), where --topology gives the
 * fabric's links: every component is the set of pairs whose ways cross
 * it (a link line, a switch's links, a bundle, a group's global links),
 * and the fewest components that explain the outliers left once the
 * NICs are named are the suspects, as 007 and NetBouncer reason over
 * paths. A pair that may take several ways accuses each by the share of
 * such pairs it carries; components whose pairs are the same are named
 * together as what no measurement can tell apart.
 */
#ifndef CXD_SWEEP_JUDGE_ROUTE_H
#define CXD_SWEEP_JUDGE_ROUTE_H

#include "judge_cover_types.h"

/* Name c's suspects over the routes of c->topo's link lines, after the
 * NICs (c->bad, c->links as links_left leaves them; c->bad keeps what
 * is left unexplained). 0, or -1 where the routes cannot be made (no
 * memory, too many ways): then nothing is named here. */
int cxd_judge_cover_routes(struct cover *c);

#endif

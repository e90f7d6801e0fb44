/* SPDX-License-Identifier: BSD-3-Clause */
/* The congestion mode's placement, pure: victims' turns, hosts, CPUs. */
#ifndef CXD_SWEEP_PLACE_H
#define CXD_SWEEP_PLACE_H

#include <stdbool.h>

#include "sweep/model/pairs.h"

/* Victim pairs measure in turns of at most per pairs (the sweep's
 * pairs_at_once): the victims of turn t are victims[2 t per .. 2 (t + 1)
 * per), at most nv. Writes them to r (room for 2 per), returns their
 * count. tools/sweep/phases/congest_mpi.c's measure passes its tokens by them. */
int cxd_place_turn_ranks(const int *victims, int nv, int per, int t, int *r);
/* The turn of victim `rank`, -1 when it is no victim. */
int cxd_place_turn_of(const int *victims, int nv, int per, int rank);
/* More ranks on rank's host than cpus (at least 1 counted): such a host
 * naps rather than spins. */
bool cxd_place_crowded(const struct cxd_sweep_rank *ranks, int n, int rank,
		       long cpus);
/* How many hosts n ranks are on (the report's "hosts"). */
int cxd_place_nhosts(const struct cxd_sweep_rank *ranks, int n);

#endif

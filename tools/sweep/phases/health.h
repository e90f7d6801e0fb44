/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's NIC evidence: the pre-flight check (--health) and the link
 * error counters around a sweep, for the outliers' verdicts.
 */
#ifndef CXD_SWEEP_HEALTH_H
#define CXD_SWEEP_HEALTH_H

#include "engine/context.h"
#include "engine/engine.h"

/* Room for one rank's "what moved" text, gathered at rank 0. */
#define SW_MOVED_LEN 256

/*
 * --health: every rank reads its device's facts (link state, speed,
 * PCIe width and speed) and error counters twice, SW_HEALTH_S apart,
 * before any traffic; rank 0 prints one line per rank and names the
 * hosts whose NIC is down, degraded or erroring. Exit status: 0 when
 * none is, 3 when some are (rank 0 decides; cxi_node_health's 3).
 */
#define SW_HEALTH_S 1
int sw_health(struct sw_ctx *c, struct sw_engine *e);

/*
 * Around a sweep (after sw_bootstrap; collective, every wait bounded):
 * begin snapshots this rank's device counters; end reads them again
 * and rank 0 gathers a SW_MOVED_LEN text per rank of what moved.
 * moved (rank 0, after end): "" when nothing moved on that rank, else
 * e.g. "tcp retransmits +1234, swp0 tx_dropped +56". NULL-safe free.
 */
struct sw_ctrs;
struct sw_ctrs *sw_counters_begin(const struct sw_mpi *m,
				  const struct sw_engine *e);
void sw_counters_end(struct sw_ctrs *k, const struct sw_mpi *m);
const char *sw_counters_moved(const struct sw_ctrs *k, int rank);
void sw_counters_free(struct sw_ctrs *k);

#endif

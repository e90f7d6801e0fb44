/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the link widths (width_mpi.c over lib/sweep/model/width.c): how
 * many pairs cross one shared link of each kind at full rate, as the
 * --topology file states or, where it does not, as a short phase before
 * the main plan measures on a sample.
 */
#ifndef CXD_SWEEP_WIDTH_MPI_H
#define CXD_SWEEP_WIDTH_MPI_H

#include "engine/engine.h"
#include "judge_mpi.h"

/* Collective, after the placement: c->width on every rank; rank 0's
 * in->topo.width says where each came from, for the report. Its pairs
 * are paced in modes of its own (before the sweep's schedule is
 * chosen). */
void sw_widths(struct sw_ctx *c, struct sw_engine *e, struct sw_inputs *in);
/* Collective: c->width as the topology states them, nothing measured
 * (--budget: its plan stands for the widths; the capacity pass loads
 * the stated). */
void sw_widths_stated(struct sw_ctx *c, const struct sw_inputs *in);
/* Rank 0, before it: whether sw_widths will measure some kind (a kind
 * the placement has, the topology does not state, and the hosts can
 * load), for the progress line's count of phases. */
bool sw_widths_planned(const struct sw_ctx *c, const struct sw_inputs *in);

#endif

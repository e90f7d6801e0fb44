/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's whole sweep (the mode sweep.c picks when not --health or
 * --congestion): its phases in order in sw_run (run.c), each a part
 * with its own state (run_state.h holds them).
 */
#ifndef CXD_SWEEP_RUN_H
#define CXD_SWEEP_RUN_H

#include "engine/context.h"
#include "engine/engine.h"
#include "judge_mpi.h"

/* The whole sweep (c bootstrapped inside; in read): rank 0's exit
 * status. */
int sw_run(struct sw_ctx *c, struct sw_engine *e, struct sw_inputs *in);

#endif

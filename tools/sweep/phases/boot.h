/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the context's making and the bootstrap (boot.c). */
#ifndef CXD_SWEEP_BOOT_H
#define CXD_SWEEP_BOOT_H

#include "engine/context.h"
#include "engine/engine.h"

/* A rank's context before the options are read. */
void sw_ctx_init(struct sw_ctx *c);
/* The runs an engine makes and the wait bounds, from the options. */
void sw_ctx_derive(struct sw_ctx *c);
void sw_ctx_free(struct sw_ctx *c);
/* Every rank's host and CPUs (how many pairs at once), the memory check,
 * then the engine's open (it fills c->ranks): 0, or 2 with rank 0
 * having said why. */
int sw_bootstrap(struct sw_ctx *c, struct sw_engine *e);

#endif

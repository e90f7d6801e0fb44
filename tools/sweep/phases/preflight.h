/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: faults that are one rank's but must be told once, by rank
 * 0, with every rank leaving with the same status (preflight.c;
 * the first of them, sw_agree_err, is the MPI helpers', mpi_util.h).
 */
#ifndef CXD_SWEEP_PREFLIGHT_H
#define CXD_SWEEP_PREFLIGHT_H

#include <stdio.h>

#include "engine/context.h"

/* Every rank started with rank 0's arguments: 0 or 2. */
int sw_agree_opts(const struct sw_mpi *m, int argc, char **argv);
/* Rank 0: refuse a full-matrix output that its host cannot hold. */
int sw_agree_memory(const struct sw_ctx *c);
/* -h's paragraphs on NICs and on memory at N ranks. */
void sw_help_scale(FILE *out);

#endif

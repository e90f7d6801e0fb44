/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engines a build has, one row each: engine_list_real.c's table
 * (libfabric's, then MPI's) or engine_list_sim.c's (make sim: MPI's
 * alone). engine_list.c picks from it and names them.
 */
#ifndef CXD_SWEEP_ENGINE_LIST_H
#define CXD_SWEEP_ENGINE_LIST_H

#include <stddef.h>

#include "engine.h"

typedef void sw_engine_make_fn(struct sw_engine *e,
			       const struct sw_mpi *m);

struct sw_engine_row {
	const char *name;        /* as --engine names it */
	/* fills e; NULL: an engine this build lacks, which the first
	 * row's check refuses, saying why (not listed among the names) */
	sw_engine_make_fn *make;
};

/* The first row is the default. */
extern const struct sw_engine_row sw_engine_rows[];
extern const size_t sw_engine_nrows;

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion: victims and aggressors on the sweep's launch
 * (congest_mpi.c drives the phases; the engine runs the aggressors'
 * traffic, engine_fabric_aggr.c for libfabric's). */
#ifndef CXD_SWEEP_CONGEST_MPI_H
#define CXD_SWEEP_CONGEST_MPI_H

#include <stddef.h>

#include "sweep/congest/congest.h"
#include "pace/pair.h"

struct cg {
	const struct sw_ctx *c;
	struct sw_engine *eng;
	struct sw_meter mt;    /* the victims' pair runs */
	struct cxd_cg_split sp;
	double frac;
	int place;
	uint64_t seed;
	bool victim, aggr_only;
	bool crowded; /* this host has more ranks than CPUs: nap, never spin */
	int partner, aidx; /* victim partner, or place among aggressors */
	int phase;
	uint64_t bound_ns; /* the victims' part of a phase, all turns */
	struct cxd_cg_link mine; /* victims: the link this rank leads */
};

/* The option checks of the mode (exit 2 on failure), after parsing;
 * 0 or -EINVAL with a sentence in err. */
int sw_congest_check(const struct sw_ctx *c, char *err, size_t len);
/* The whole congestion run; returns the exit status. */
int sw_congest(struct sw_ctx *c, struct sw_engine *e);

#endif

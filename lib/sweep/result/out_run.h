/* SPDX-License-Identifier: BSD-3-Clause */
/* The result's sections about the run itself, filled by rank 0's report
 * (tools/sweep/phases/run_report.c) from the context, the engine, the pacing and
 * the plan: the run's facts, its inputs and its rounds. Pointers only to
 * the parts' types, so a writer needs no part's header for them. */
#ifndef CXD_SWEEP_OUT_RUN_H
#define CXD_SWEEP_OUT_RUN_H

#include <stdint.h>

#include "cxd/config.h"

struct cxd_baseline;
struct cxd_pair;
struct cxd_sweep_rank;
struct cxd_topo;
struct cxd_topo_map;

/* Who ran and how: the ranks, the engine, the options resolved. */
struct cxd_sweep_run {
	int n;
	const struct cxd_sweep_rank *ranks;
	char provider[CXD_NAME_LEN]; /* "mpi" with the MPI engine */
	char engine[16];        /* --engine: fabric, mpi */
	char engine_version[128]; /* libfabric's ("2.1"), or the MPI
				   * library's first phrase */
	const struct cxd_cfg *cfg;
	uint64_t lat_iters, repeat; /* resolved */
};

/* What the run was judged against. */
struct cxd_sweep_inputs {
	const struct cxd_topo *topo;     /* NULL: no --topology */
	const struct cxd_topo_map *tmap;
	const struct cxd_baseline *base; /* NULL: no --baseline */
};

/* The rounds as run: round r's count[r] pairs at pairs + first[r],
 * which took round_s[r] seconds. */
struct cxd_sweep_rounds {
	int nrounds, pairs_at_once;
	const int *round_first;
	const int *round_count;
	const struct cxd_pair *round_pairs;
	const double *round_s;
	double total_s;
};

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The engines of the simulated build (make sim: SimGrid's smpicc), which
 * has no libfabric inside: MPI's alone. --engine fabric goes to it too,
 * for its check to say why there is none (engine_mpi_sim.c). */
#include "engine_list.h"

const struct sw_engine_row sw_engine_rows[] = {
	{ "mpi", sw_engine_mpi },
	{ "fabric", NULL },
};

const size_t sw_engine_nrows = sizeof(sw_engine_rows) /
			       sizeof(sw_engine_rows[0]);

/* SPDX-License-Identifier: BSD-3-Clause */
/* The engines of every build but make sim: the libfabric engine first,
 * the default, then MPI's (engine_list.h). */
#include "engine_list.h"

const struct sw_engine_row sw_engine_rows[] = {
	{ "fabric", sw_engine_fabric },
	{ "mpi", sw_engine_mpi },
};

const size_t sw_engine_nrows = sizeof(sw_engine_rows) /
			       sizeof(sw_engine_rows[0]);

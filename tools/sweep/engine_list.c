/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engines this build has, for --engine. The simulated build (make
 * sim: SimGrid's smpicc, CXD_SIM) has no libfabric inside, so only the
 * MPI engine; elsewhere the libfabric engine comes first, the default.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

typedef void engine_make_fn(struct sw_engine *e, const struct sw_mpi *m);

static const struct {
	const char *name;
	engine_make_fn *make;
} engines[] = {
#ifndef CXD_SIM
	{ "fabric", sw_engine_fabric },
#endif
	{ "mpi", sw_engine_mpi },
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const char *sw_engine_names(void)
{
#ifdef CXD_SIM
	return "mpi";
#else
	return "fabric, mpi";
#endif
}

int sw_engine_pick(const char *name, struct sw_engine *e,
		   const struct sw_mpi *m, char *err, size_t len)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (name[0] == '\0' || strcmp(name, engines[i].name) == 0) {
			engines[i].make(e, m);
			return 0;
		}
#ifdef CXD_SIM
	if (strcmp(name, "fabric") == 0) {
		snprintf(err, len, "--engine fabric: this is the simulated "
			 "build (make sim), which has no libfabric; it "
			 "measures with --engine mpi only");
		return -EINVAL;
	}
#endif
	snprintf(err, len, "Invalid engine '%s': this build has %s", name,
		 sw_engine_names());
	return -EINVAL;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --engine: an engine picked from this build's table (engine_list.h:
 * engine_list_real.c's, or in the simulated build, make sim, which has
 * no libfabric inside, engine_list_sim.c's), and the names of its
 * engines (the usage error).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine_list.h"

/* The table's names, those this build has: "fabric, mpi". */
static void engine_names(char *names, size_t len)
{
	names[0] = '\0';
	for (size_t i = 0; i < sw_engine_nrows; i++) {
		if (sw_engine_rows[i].make == NULL)
			continue;
		if (names[0] != '\0')
			strncat(names, ", ", len - strlen(names) - 1);
		strncat(names, sw_engine_rows[i].name, len - strlen(names) - 1);
	}
}

int sw_engine_pick(const char *name, struct sw_engine *e,
		   const struct sw_mpi *m, char *err, size_t len)
{
	char names[64];

	for (size_t i = 0; i < sw_engine_nrows; i++) {
		const struct sw_engine_row *r = &sw_engine_rows[i];

		if (name[0] == '\0' || strcmp(name, r->name) == 0) {
			/* one this build lacks: the default's check says so */
			(r->make ? r->make : sw_engine_rows[0].make)(e, m);
			return 0;
		}
	}
	engine_names(names, sizeof(names));
	snprintf(err, len, "Invalid engine '%s': this build has %s", name,
		 names);
	return -EINVAL;
}

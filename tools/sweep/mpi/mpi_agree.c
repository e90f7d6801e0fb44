/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's MPI helpers: a fault that is one rank's but must be told
 * once, by rank 0, every rank leaving with the same status (2). Above
 * the collectives (mpi_coll*.c), which it uses; engines use it too.
 */
#include <limits.h>
#include <stdio.h>

#include "base/exit_codes.h"
#include "base/names.h"
#include "cxd/opts.h"
#include "mpi_util.h"

int sw_agree_err(const struct sw_mpi *m, const char *err)
{
	char msg[CXD_ERR_LEN + 300] = "", host[256] = "",
	     show[CXD_NAME_SHOW_LEN];
	int mine = err && *err ? m->rank : INT_MAX, first = INT_MAX;
	MPI_Request q;

	sw_allreduce(m, &mine, &first, 1, MPI_INT, MPI_MIN,
		     "the check of every rank's setup");
	if (first == INT_MAX)
		return CXD_EXIT_OK;
	if (m->rank == first) {
		/* shown escaped: this may run before the names' check */
		sw_host_name(m, host, sizeof(host));
		cxd_name_show(host, show, sizeof(show));
		snprintf(msg, sizeof(msg), "rank %d (%s): %s", m->rank, show,
			 err);
	}
	if (first != 0 && m->rank == first) {
		MPI_Isend(msg, sizeof(msg), MPI_CHAR, 0, SW_TAG_WHY,
			  MPI_COMM_WORLD, &q);
		sw_coll_wait(m, &q, "telling rank 0 of a bad setup");
	} else if (first != 0 && m->rank == 0) {
		MPI_Irecv(msg, sizeof(msg), MPI_CHAR, first, SW_TAG_WHY,
			  MPI_COMM_WORLD, &q);
		sw_coll_wait(m, &q, "hearing of a bad setup");
	}
	if (m->rank == 0)
		fprintf(stderr, "cxi_sweep: %s\n", msg);
	return CXD_EXIT_USAGE;
}

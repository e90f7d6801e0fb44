/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's bounded collectives and the pair's swap, on this build's
 * waits (mpi_wait_real.c or mpi_wait_sim.c); the all-gather, all-reduce and
 * all-to-all that differ between the builds are mpi_coll_real.c's and
 * mpi_coll_sim.c's.
 */
#include "mpi_util.h"

/* A collective's end, bounded: a rank that stalls cannot hold the rest.
 * Before the options are read (wait_ns 0) the bound is the pair wait's
 * floor: a rank whose options did not parse still takes part. */
void sw_coll_wait(const struct sw_mpi *m, MPI_Request *req, const char *what)
{
	uint64_t bound = m->wait_ns ? m->wait_ns :
			 CXD_SWEEP_WAIT_S * 1000000000ULL;

	if (sw_wait(req, 1, bound, NULL, NULL) != 0)
		sw_die(m, "%s did not finish within %llu s: a rank stalled or "
		       "died", what, (unsigned long long) (bound / 1000000000ULL));
}

void sw_bcast(const struct sw_mpi *m, void *buf, int count, MPI_Datatype t,
	      const char *what)
{
	MPI_Request q;

	MPI_Ibcast(buf, count, t, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
}

void sw_gather(const struct sw_mpi *m, const void *mine, int count,
	       MPI_Datatype t, void *all, const char *what)
{
	MPI_Request q;

	MPI_Igather(mine, count, t, all, count, t, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
}

int sw_pair_swap(int p, enum sw_tag tag, const void *mine, void *theirs,
		 int len, uint64_t bound_ns, sw_progress_fn *progress,
		 void *arg)
{
	MPI_Request r[2];

	MPI_Irecv(theirs, len, MPI_BYTE, p, tag, MPI_COMM_WORLD, &r[0]);
	MPI_Isend(mine, len, MPI_BYTE, p, tag, MPI_COMM_WORLD, &r[1]);
	return sw_wait(r, 2, bound_ns, progress, arg);
}


/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The collectives that differ, as a real MPI runs them (every build but
 * make sim, whose are mpi_coll_sim.c's): the MPI library's own, bounded
 * by sw_coll_wait.
 */
#include "mpi_util.h"

/* The MPI library's own algorithms (mpi_coll_sim.c says why SMPI's are
 * not taken there). */
void sw_allgather(const struct sw_mpi *m, const void *mine, void *all,
		  int len, const char *what)
{
	MPI_Request q;

	MPI_Iallgather(mine, len, MPI_BYTE, all, len, MPI_BYTE,
		       MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
}

void sw_allreduce(const struct sw_mpi *m, const void *in, void *out,
		  int count, MPI_Datatype t, MPI_Op op, const char *what)
{
	MPI_Request q;

	MPI_Iallreduce(in, out, count, t, op, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
}

void sw_alltoall_double(const struct sw_mpi *m, const double *row,
			double *col, const char *what)
{
	MPI_Request q;

	MPI_Ialltoall(row, 1, MPI_DOUBLE, col, 1, MPI_DOUBLE, MPI_COMM_WORLD,
		      &q);
	sw_coll_wait(m, &q, what);
}

int sw_barrier_until(const struct sw_mpi *m, uint64_t deadline)
{
	MPI_Request q;

	(void) m;
	MPI_Ibarrier(MPI_COMM_WORLD, &q);
	return sw_wait_until(&q, deadline);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The collectives that differ, in the simulated build (make sim, SimGrid's
 * SMPI; a real MPI's are mpi_coll_real.c's): through rank 0.
 */
#include <stdlib.h>

#include "mpi_util.h"

/*
 * SMPI's nonblocking all-gather, all-reduce and all-to-all send N(N-1)
 * messages each (16.7 M at 4,096 ranks): the simulated build goes
 * through rank 0 instead, a gather then a broadcast or a scatter, 2(N-1)
 * messages. Elsewhere the MPI library's own algorithm is the better one.
 */
void sw_allgather(const struct sw_mpi *m, const void *mine, void *all,
		  int len, const char *what)
{
	sw_gather(m, mine, len, MPI_BYTE, all, what);
	sw_bcast(m, all, len * m->n, MPI_BYTE, what);
}

void sw_allreduce(const struct sw_mpi *m, const void *in, void *out,
		  int count, MPI_Datatype t, MPI_Op op, const char *what)
{
	MPI_Request q;

	MPI_Ireduce(in, out, count, t, op, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
	sw_bcast(m, out, count, t, what);
}

void sw_alltoall_double(const struct sw_mpi *m, const double *row,
			double *col, const char *what)
{
	MPI_Request q;
	size_t n = (size_t) m->n;
	double *all = m->rank == 0 ? sw_alloc(m, n * n, sizeof(double)) : NULL;
	double *cols = m->rank == 0 ? sw_alloc(m, n * n, sizeof(double)) : NULL;

	sw_gather(m, row, m->n, MPI_DOUBLE, all, what);
	for (size_t i = 0; m->rank == 0 && i < n; i++)
		for (size_t j = 0; j < n; j++)
			cols[j * n + i] = all[i * n + j];
	MPI_Iscatter(cols, m->n, MPI_DOUBLE, col, m->n, MPI_DOUBLE, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
	free(all);
	free(cols);
}

/* SMPI 3.32's MPI_Ibarrier completes for the ranks that came while one
 * is still away (four ranks, one 5 ms late: the other three went on at
 * once); its blocking MPI_Barrier holds every rank until the last came
 * (eight ranks, one 5 ms late: all left at 5 ms), and the simulated
 * build's waits block anyway (mpi_wait_sim.c). A gather to rank 0 and
 * its answer held them too, in more code. Neither is cheap to simulate
 * once a round: the routed pass's 4,096 rounds at 256 ranks took 90 s
 * of wall time with the gather, 84 with this, where the whole dealt
 * sweep took 28. */
int sw_barrier_until(const struct sw_mpi *m, uint64_t deadline)
{
	(void) m;
	(void) deadline;
	MPI_Barrier(MPI_COMM_WORLD);
	return 0;
}

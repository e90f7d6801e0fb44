/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's waits in the simulated build (make sim, SimGrid's SMPI; a
 * real MPI's are mpi_wait_real.c's): every wait blocks.
 */
#include <stdlib.h>

#include "mpi_util.h"

/* The simulated build blocks: SimGrid ends a run whose ranks all wait (a
 * deadlock, reported), so the wait is bounded there; and polling would
 * put SMPI's injected time (100 us per empty MPI_Test, growing while it
 * repeats) and the naps into the simulated clock, which then measures
 * the polling rather than the sweep. */
int sw_block(MPI_Request *r, int nr)
{
	MPI_Status st[32];

	/* MPI_Waitall, not one MPI_Wait each: SMPI reads the thread's CPU
	 * clock (a system call) around every MPI call, a quarter of a
	 * simulation's CPU time when a window took one call a message */
	for (int i = 0; i < nr; i += 32)
		MPI_Waitall(nr - i < 32 ? nr - i : 32, r + i, st);
	return 0;
}

/* No bound and no progress to make: it blocks (sw_block says why). */
int sw_wait(MPI_Request *r, int nr, uint64_t bound_ns,
	    sw_progress_fn *progress, void *arg)
{
	(void) bound_ns;
	(void) progress;
	(void) arg;
	return sw_block(r, nr);
}

int sw_wait_until(MPI_Request *q, uint64_t deadline)
{
	(void) deadline;
	return sw_block(q, 1);
}

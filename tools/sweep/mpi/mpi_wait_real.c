/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's waits as a real MPI runs them (every build but make sim,
 * whose are mpi_wait_sim.c's): they poll and nap within a bound.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "base/clock.h"
#include "mpi_util.h"

/* sw_wait_until's longest nap (it says why 1 ms). */
#define SW_UNTIL_NAP_MAX_NS 1000000L

/* One request at a time into a real status: GCC 12 reads MPICH's
 * MPI_STATUSES_IGNORE (a cast constant) as a zero-size array and fails
 * the build under -Werror. Finished requests become MPI_REQUEST_NULL. */
static bool all_done(MPI_Request *r, int nr)
{
	MPI_Status st;
	int flag;

	for (int i = 0; i < nr; i++) {
		MPI_Test(&r[i], &flag, &st);
		if (!flag)
			return false;
	}
	return true;
}

/*
 * Wait for requests without spinning: ranks may outnumber cores. Inside
 * a pair the target's provider must be kept moving (tcp and shm progress
 * only when called), so it polls but yields the CPU at every turn;
 * between pairs a rank sleeps.
 */
int sw_wait(MPI_Request *r, int nr, uint64_t bound_ns,
	    sw_progress_fn *progress, void *arg)
{
	uint64_t start = cxd_now_ns(), now;
	long nap_ns = 50000L;

	for (;;) {
		if (all_done(r, nr))
			return 0;
		if (progress)
			progress(arg);
		now = cxd_now_ns();
		if (now - start > bound_ns)
			return -ETIMEDOUT;
		if (progress) {
			sched_yield();
		} else {
			/* Idle: sleep longer the longer it lasts (5 ms cap). */
			sw_nap(nap_ns);
			nap_ns = nap_ns < 5000000L ? nap_ns * 2 : nap_ns;
		}
	}
}

/*
 * Asleep between tests. The naps grow to 1 ms, not sw_wait's 5 ms: each
 * pacing hello is on the path of every later round, so a long nap here
 * delays the whole sweep (measured: 6-9 ms per round at 5 ms), while a
 * rank's next partner is rarely more than a pair's length away.
 */
int sw_wait_until(MPI_Request *q, uint64_t deadline)
{
	long nap = 20000L;
	MPI_Status st;
	int flag = 0;

	for (;;) {
		MPI_Test(q, &flag, &st);
		if (flag)
			return 0;
		if (cxd_now_ns() > deadline)
			return -ETIMEDOUT;
		sw_nap(nap);
		nap = nap < SW_UNTIL_NAP_MAX_NS / 2 ? nap * 2 :
		      SW_UNTIL_NAP_MAX_NS;
	}
}

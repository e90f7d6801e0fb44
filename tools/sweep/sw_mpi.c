/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's MPI helpers: bounded waits and collectives, sw_die. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/clock.h"
#include "base/testaid.h"
#include "sw_mpi.h"

void sw_mpi_init(struct sw_mpi *m)
{
	m->host = NULL;
	m->wait_ns = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->n);
}

/* A fatal error: name this rank and host, end every rank (bounded). */
void sw_die(const struct sw_mpi *m, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "cxi_sweep: rank %d (%s): %s\n", m->rank,
		m->host ? m->host : "?", msg);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1); /* MPI_Abort does not return; keep the compiler sure */
}

void *sw_alloc(const struct sw_mpi *m, size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (p == NULL)
		sw_die(m, "out of memory");
	return p;
}

void *sw_mpi_buf(const struct sw_mpi *m, size_t len)
{
#ifdef CXD_SIM
	void *p = SMPI_SHARED_MALLOC(len);
#else
	void *p = malloc(len);
#endif

	if (p == NULL)
		sw_die(m, "out of memory for a %zu-byte buffer", len);
	return p;
}

void sw_mpi_buf_free(void *p)
{
	if (p == NULL)
		return;
#ifdef CXD_SIM
	SMPI_SHARED_FREE(p);
#else
	free(p);
#endif
}

void sw_nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* This rank's host name: Slurm's name for the node where Slurm started
 * the task (what scontrol drains; the host name may differ), else MPI's;
 * a test copy's namespace may stand for a node. */
void sw_host_name(const struct sw_mpi *m, char *host, size_t len)
{
	const char *slurm = getenv("SLURMD_NODENAME");
	int n = 0;

	if (slurm && slurm[0])
		snprintf(host, len, "%s", slurm);
	else
		MPI_Get_processor_name(host, &n);
	if (cxd_testaid_node_name)
		cxd_testaid_node_name(m->rank, host, len);
}

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

#ifdef CXD_SIM
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
#endif

/*
 * Wait for requests without spinning: ranks may outnumber cores. Inside
 * a pair the target's provider must be kept moving (tcp and shm progress
 * only when called), so it polls but yields the CPU at every turn;
 * between pairs a rank sleeps.
 */
int sw_wait(MPI_Request *r, int nr, uint64_t bound_ns,
	    sw_progress_fn *progress, void *arg)
{
#ifdef CXD_SIM
	(void) bound_ns;
	(void) progress;
	(void) arg;
	return sw_block(r, nr);
#endif
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

/*
 * SMPI's nonblocking all-gather, all-reduce and all-to-all send N(N-1)
 * messages each (16.7 M at 4,096 ranks): the simulated build goes
 * through rank 0 instead, a gather then a broadcast or a scatter, 2(N-1)
 * messages. Elsewhere the MPI library's own algorithm is the better one.
 */
void sw_allgather(const struct sw_mpi *m, const void *mine, void *all,
		  int len, const char *what)
{
	MPI_Request q;

#ifdef CXD_SIM
	sw_gather(m, mine, len, MPI_BYTE, all, what);
	sw_bcast(m, all, len * m->n, MPI_BYTE, what);
	(void) q;
#else
	MPI_Iallgather(mine, len, MPI_BYTE, all, len, MPI_BYTE,
		       MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
#endif
}

void sw_allreduce(const struct sw_mpi *m, const void *in, void *out,
		  int count, MPI_Datatype t, MPI_Op op, const char *what)
{
	MPI_Request q;

#ifdef CXD_SIM
	MPI_Ireduce(in, out, count, t, op, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
	sw_bcast(m, out, count, t, what);
#else
	MPI_Iallreduce(in, out, count, t, op, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, what);
#endif
}

void sw_alltoall_double(const struct sw_mpi *m, const double *row,
			double *col, const char *what)
{
	MPI_Request q;
#ifdef CXD_SIM
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
#else
	MPI_Ialltoall(row, 1, MPI_DOUBLE, col, 1, MPI_DOUBLE, MPI_COMM_WORLD,
		      &q);
	sw_coll_wait(m, &q, what);
#endif
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

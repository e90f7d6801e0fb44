/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's MPI helpers, the lowest of them: this rank, sw_die,
 * allocation, naps, the host name. Above them, each build's waits and
 * measurement buffers (mpi_wait_real.c, or mpi_wait_sim.c in make sim,
 * SimGrid's SMPI), then the bounded collectives (mpi_coll.c, and the
 * build's own mpi_coll_real.c or mpi_coll_sim.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/testaid.h"
#include "mpi_util.h"

void sw_mpi_init(struct sw_mpi *m)
{
	m->host = NULL;
	m->wait_ns = 0;
	m->line = NULL;
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
	cxd_rprog_end(m->line); /* the message on a line of its own */
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

void sw_nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* This rank's host name: Slurm's name for the node where Slurm started
 * the task (what scontrol drains; the host name may differ), else MPI's;
 * a test copy's namespace may stand for a node. */
size_t sw_host_name(const struct sw_mpi *m, char *host, size_t len)
{
	const char *slurm = getenv("SLURMD_NODENAME");
	long test = -1;
	int n = 0;

	if (slurm && slurm[0]) {
		snprintf(host, len, "%s", slurm);
		n = (int) strlen(slurm);
	} else {
		MPI_Get_processor_name(host, &n);
	}
	if (cxd_testaid_node_name && cxd_testaid_node_name(m->rank, host, len))
		n = (int) strlen(host);
	if (cxd_testaid_host_name)
		test = cxd_testaid_host_name(m->rank, host, len);
	return test >= 0 ? (size_t) test : n > 0 ? (size_t) n : strlen(host);
}

void *sw_mpi_buf(const struct sw_mpi *m, size_t len)
{
	void *p = sw_buf_alloc(len);

	if (p == NULL)
		sw_die(m, "out of memory for a %zu-byte buffer", len);
	return p;
}

void sw_mpi_buf_free(void *p)
{
	if (p != NULL)
		sw_buf_release(p);
}

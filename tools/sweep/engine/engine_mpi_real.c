/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI engine's half for a real MPI (every build but make sim, whose
 * half is engine_mpi_sim.c): nonblocking calls polled without sleeping,
 * a window of -l messages, warm-up ping-pongs, every ping-pong timed.
 */
#include <errno.h>

#include <mpi.h>

#include "base/clock.h"
#include "engine_mpi_state.h"

/* Untimed ping-pongs first: a real MPI may connect on first use. */
const uint64_t em_warmup = 10;

/* Poll without sleeping (a sleep would be measured), the clock read
 * once per 256 polls. */
int em_wait(MPI_Request *r, int nr, uint64_t bound_ns)
{
	uint64_t start = cxd_now_ns();
	MPI_Status st;
	int i = 0, flag;

	for (unsigned polls = 1; i < nr; polls++) {
		MPI_Test(&r[i], &flag, &st);
		if (flag) {
			i++;
			continue;
		}
		if (polls % 256 == 0 && cxd_now_ns() - start > bound_ns)
			return -ETIMEDOUT;
	}
	return 0;
}

int em_go(struct em *m, int peer)
{
	MPI_Request q;

	MPI_Isend(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &q);
	return em_wait(&q, 1, em_bound_ns(m, 0));
}

int em_await_go(struct em *m, int peer, uint64_t bytes)
{
	MPI_Request q;

	MPI_Irecv(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &q);
	return em_wait(&q, 1, em_bound_ns(m, bytes));
}

MPI_Request *em_post(struct em *m, int peer, int c, uint64_t size, int *nr)
{
	for (int i = 0; i < c; i++)
		MPI_Irecv(m->rbuf + (size_t) i * size, (int) size, MPI_BYTE,
			  peer, EM_TAG_DATA, m->comm, &m->req[i]);
	*nr = c;
	return m->req;
}

int em_send_window(struct em *m, int peer, int c, uint64_t size)
{
	for (int i = 0; i < c; i++)
		MPI_Isend(m->sbuf, (int) size, MPI_BYTE, peer, EM_TAG_DATA,
			  m->comm, &m->req[i]);
	return em_wait(m->req, c, em_bound_ns(m, (uint64_t) c * size));
}

/* The warm-up ping-pongs bring the partners together. */
int em_ready(struct em *m, const struct sw_dir *d)
{
	(void) m;
	(void) d;
	return 0;
}

int em_ping(struct em *m, int peer, bool lead, uint64_t *rtt)
{
	MPI_Request r[2];
	uint64_t t0 = cxd_now_ns();

	if (lead) {
		MPI_Irecv(m->rbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer,
			  EM_TAG_PING, m->comm, &r[1]);
		MPI_Isend(m->sbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer,
			  EM_TAG_PING, m->comm, &r[0]);
		if (em_wait(r, 2, em_bound_ns(m, 0)) != 0)
			return em_fail(m, peer, "answer a ping");
		*rtt = cxd_now_ns() - t0;
		return 0;
	}
	MPI_Irecv(m->rbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer, EM_TAG_PING,
		  m->comm, &r[0]);
	if (em_wait(r, 1, em_bound_ns(m, 0)) != 0)
		return em_fail(m, peer, "ping");
	MPI_Isend(m->sbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer, EM_TAG_PING,
		  m->comm, &r[1]);
	return em_wait(&r[1], 1, em_bound_ns(m, 0)) ?
	       em_fail(m, peer, "take a pong") : 0;
}

/* Every ping-pong is timed: nothing to pass. */
uint64_t em_timed_iters(uint64_t iters)
{
	return iters;
}

void em_pass_rest(uint64_t iters, uint64_t done, uint64_t spent_ns)
{
	(void) iters;
	(void) done;
	(void) spent_ns;
}

/* A window's receives are posted one by one (em_post): none to make. */
void em_recv_init(struct em *m, uint64_t win, size_t size)
{
	(void) m;
	(void) win;
	(void) size;
}

void em_recv_free(struct em *m)
{
	(void) m;
}

/* Only what em_check refuses; each message is an MPI count. */
static int em_real_check(const struct cxd_cfg *c, char *err, size_t len)
{
	return em_check(c, false, err, len);
}

/* Nothing to add to -h. */
void em_build_hooks(struct sw_engine *e)
{
	e->check = em_real_check;
	e->help = NULL;
}

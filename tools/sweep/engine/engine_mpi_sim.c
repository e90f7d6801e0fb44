/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI engine's half in the simulated build (make sim, SimGrid's
 * SMPI; a real MPI's is engine_mpi_real.c): blocking calls, a window as
 * one message, one timed ping-pong a latency run; and what that build
 * refuses and says in -h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "base/clock.h"
#include "engine_mpi_state.h"

/* The simulator has nothing to warm, and each message costs wall time
 * (but em_ready). */
const uint64_t em_warmup = 0;

/* The simulated build times one ping-pong of a latency run and lets the
 * simulated clock pass for the rest at its pace: the 8-byte messages
 * load no link, and each costs the simulator ~15 us of wall time (100
 * per direction were most of a sweep's messages). */
#define EM_SIM_LAT 1

/* Blocking, as every wait of the simulated build (sw_block says why). */
int em_wait(MPI_Request *r, int nr, uint64_t bound_ns)
{
	(void) bound_ns;
	return sw_block(r, nr);
}

/* The simulated build makes as few MPI calls as it can: SMPI reads the
 * thread's CPU clock (a system call) around each (sw_block). A small
 * MPI_Send is eager there, so it returns as the Isend's wait did. */
int em_go(struct em *m, int peer)
{
	return MPI_Send(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm) ?
	       -EIO : 0;
}

int em_await_go(struct em *m, int peer, uint64_t bytes)
{
	MPI_Status st;

	(void) bytes;
	return MPI_Recv(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &st) ?
	       -EIO : 0;
}

/* A window travels as one message of its c blocks of -s bytes, received
 * by one request made once from any source (em_open): SMPI's cost is per
 * message and per call, and max-min sharing gives one flow of c blocks
 * what c flows of one block would share (every pair's window is alike).
 * Only the partner of the moment sends data: nobody sends a window before
 * this rank's "go". */
MPI_Request *em_post(struct em *m, int peer, int c, uint64_t size, int *nr)
{
	(void) peer;
	(void) c;
	(void) size;
	MPI_Start(&m->rreq);
	*nr = 1;
	return &m->rreq;
}

/* From the receive buffer, idle while this rank sends: a send buffer of
 * a window's size would cost every rank that much more. */
int em_send_window(struct em *m, int peer, int c, uint64_t size)
{
	return MPI_Send(m->rbuf, (int) ((uint64_t) c * size), MPI_BYTE, peer,
			EM_TAG_DATA, m->comm) ? -EIO : 0;
}

/* Before a latency run's timed ping-pong the follower says it is there;
 * it then waits for the ping. A timed ping-pong with a late partner
 * would time its lateness, and each side, letting the clock pass by
 * what it timed (em_pass_rest), would drift apart from the other. */
int em_ready(struct em *m, const struct sw_dir *d)
{
	return d->lead ? em_await_go(m, d->peer, 0) : em_go(m, d->peer);
}

int em_ping(struct em *m, int peer, bool lead, uint64_t *rtt)
{
	uint64_t t0 = cxd_now_ns();
	MPI_Status st;

	if (lead) {
		MPI_Sendrecv(m->sbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer,
			     EM_TAG_PING, m->rbuf, CXD_SWEEP_LAT_SIZE,
			     MPI_BYTE, peer, EM_TAG_PING, m->comm, &st);
		*rtt = cxd_now_ns() - t0;
		return 0;
	}
	MPI_Recv(m->rbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer, EM_TAG_PING,
		 m->comm, &st);
	MPI_Send(m->sbuf, CXD_SWEEP_LAT_SIZE, MPI_BYTE, peer, EM_TAG_PING,
		 m->comm);
	return 0;
}

uint64_t em_timed_iters(uint64_t iters)
{
	return iters < EM_SIM_LAT ? iters : EM_SIM_LAT;
}

void em_pass_rest(uint64_t iters, uint64_t done, uint64_t spent_ns)
{
	uint64_t ns = done ? spent_ns / done * (iters - done) : 0;
	struct timespec ts = { (time_t) (ns / 1000000000ULL),
			       (long) (ns % 1000000000ULL) };

	if (ns)
		nanosleep(&ts, NULL);
}

void em_recv_init(struct em *m, uint64_t win, size_t size)
{
	MPI_Recv_init(m->rbuf, (int) (win * size), MPI_BYTE, MPI_ANY_SOURCE,
		      EM_TAG_DATA, m->comm, &m->rreq);
}

void em_recv_free(struct em *m)
{
	if (m->rreq != MPI_REQUEST_NULL)
		MPI_Request_free(&m->rreq);
}

/* What the simulated build cannot do, refused (see em_sim_help), around
 * what --engine mpi refuses everywhere (em_check). The build's table
 * sends --engine fabric here (engine_list_sim.c). */
static int em_sim_check(const struct cxd_cfg *c, char *err, size_t len)
{
	int ret;

	if (strcmp(c->sweep.engine, "fabric") == 0) {
		snprintf(err, len, "--engine fabric: this is the simulated "
			 "build (make sim), which has no libfabric; it "
			 "measures with --engine mpi only");
		return -EINVAL;
	}
	ret = em_check(c, true, err, len); /* a window is one message */
	if (ret == 0 && c->sweep.matrix[0]) {
		snprintf(err, len, "--matrix: the simulated build cannot write "
			 "it (SMPI has no nonblocking MPI-IO write and keeps "
			 "no file data); use --json");
		return -EINVAL;
	}
	return ret;
}

/* What the simulated build does differently, for its -h. */
static void em_sim_help(FILE *out)
{
	fprintf(out, "\nThis is the simulated build (make sim): run it with "
		"SimGrid's smpirun over a\nplatform file. It has the mpi "
		"engine only (no libfabric inside). Where\nSMPI lacks a call "
		"or makes it quadratic, it differs: all-gather, all-reduce\n"
		"and all-to-all go through rank 0 (gather, then broadcast or "
		"scatter);\n--matrix is refused (SMPI has no nonblocking "
		"MPI-IO write and stores no\nfile data); the time ranks wait "
		"for a CPU is not known (each link's\ncpu_wait_pct is "
		"null); every wait blocks (the simulator ends a run that\n"
		"deadlocks); a latency run is the partner's word that it is "
		"ready (not 10\nuntimed ping-pongs) and one timed ping-pong: "
		"the leader lets the simulated\nclock pass for the rest of "
		"--lat-iters at its pace (8-byte messages load no\nlink, and "
		"each costs wall time); a bandwidth window travels as one\n"
		"message of its -l messages' bytes (the links share their rate "
		"among flows,\nso it takes what its messages would take "
		"together; -s times -l must be\nunder 2 GiB); and the words "
		"and pings use blocking calls (SMPI's cost is per\nmessage and "
		"per call).\n");
}

void em_build_hooks(struct sw_engine *e)
{
	e->check = em_sim_check;
	e->help = em_sim_help;
}

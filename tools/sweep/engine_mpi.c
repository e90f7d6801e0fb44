/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's MPI engine (--engine mpi): a pair measured with MPI
 * point-to-point calls on a communicator of its own, the MPI-level view
 * mpiGraph gives. It needs no libfabric, so it is the engine of the
 * simulated build (make sim, SimGrid's SMPI) as well.
 *
 * Bandwidth: the leading rank sends -n messages of -s bytes in windows
 * of -l; the other side posts a window's receives before it says "go",
 * and its next "go" (or the final one) acknowledges the window. The
 * figure is bytes over the time from the first "go" to the last (the
 * simulated build sends a window as one message, em_post).
 * Latency: --lat-iters 8-byte ping-pongs after 10 untimed ones; each
 * sample is half the round trip, as osu_latency reports it (the
 * simulated build times one after a "ready" word, em_ready, and its
 * leader lets the clock pass for the rest, em_pass_rest).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "base/clock.h"
#include "base/stats.h"
#include "base/testaid.h"
#include "engine.h"

/* Untimed ping-pongs first: a real MPI may connect on first use. The
 * simulator has nothing to warm, and each message costs wall time. */
#ifdef CXD_SIM
#define EM_WARMUP 0 /* but em_ready */
#define EM_WINDOW_IS_MESSAGE 1
#else
#define EM_WARMUP 10
#define EM_WINDOW_IS_MESSAGE 0
#endif
enum { EM_TAG_DATA = 1, EM_TAG_GO, EM_TAG_PING };

struct em {
	const struct sw_ctx *c;  /* from open */
	MPI_Comm comm;          /* measurement traffic only */
	char *sbuf, *rbuf;      /* -s bytes; a window of them */
	size_t rlen;
	MPI_Request *req;       /* a window's */
	MPI_Request rreq;       /* the simulated build's window receive */
	struct cxd_lat_stats lat;
	char why[320];
};

/* How long a step may wait for the partner: --timeout, plus 1 s per MB
 * in flight (the pair tools' liveness rule), plus the pair's slack. */
static uint64_t em_bound_ns(const struct em *m, uint64_t bytes)
{
	return ((uint64_t) m->c->cfg.local.timeout_s + bytes / 1000000 + 1) *
	       1000000000ULL;
}

static int em_fail(struct em *m, int peer, const char *what)
{
	snprintf(m->why, sizeof(m->why), "rank %d (%.100s) did not %s within "
		 "the bound", peer, m->c->ranks[peer].host, what);
	return -ETIMEDOUT;
}

#ifdef CXD_SIM
/* Blocking, as every wait of the simulated build (sw_block says why). */
static int em_wait(MPI_Request *r, int nr, uint64_t bound_ns)
{
	(void) bound_ns;
	return sw_block(r, nr);
}
#else
/* Poll without sleeping (a sleep would be measured), the clock read
 * once per 256 polls. */
static int em_wait(MPI_Request *r, int nr, uint64_t bound_ns)
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
#endif

#ifdef CXD_SIM
/* The simulated build makes as few MPI calls as it can: SMPI reads the
 * thread's CPU clock (a system call) around each (sw_block). A small
 * MPI_Send is eager there, so it returns as the Isend's wait did. */
static int em_go(struct em *m, int peer)
{
	return MPI_Send(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm) ?
	       -EIO : 0;
}

static int em_await_go(struct em *m, int peer, uint64_t bytes)
{
	MPI_Status st;

	(void) bytes;
	return MPI_Recv(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &st) ?
	       -EIO : 0;
}
#else
static int em_go(struct em *m, int peer)
{
	MPI_Request q;

	MPI_Isend(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &q);
	return em_wait(&q, 1, em_bound_ns(m, 0));
}

static int em_await_go(struct em *m, int peer, uint64_t bytes)
{
	MPI_Request q;

	MPI_Irecv(NULL, 0, MPI_BYTE, peer, EM_TAG_GO, m->comm, &q);
	return em_wait(&q, 1, em_bound_ns(m, bytes));
}
#endif

#ifdef CXD_SIM
/* A window travels as one message of its c blocks of -s bytes, received
 * by one request made once from any source (em_open): SMPI's cost is per
 * message and per call, and max-min sharing gives one flow of c blocks
 * what c flows of one block would share (every pair's window is alike).
 * Only the partner of the moment sends data: nobody sends a window before
 * this rank's "go". */
static MPI_Request *em_post(struct em *m, int peer, int c, uint64_t size,
			    int *nr)
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
static int em_send_window(struct em *m, int peer, int c, uint64_t size)
{
	return MPI_Send(m->rbuf, (int) ((uint64_t) c * size), MPI_BYTE, peer,
			EM_TAG_DATA, m->comm) ? -EIO : 0;
}

/* Before a latency run's timed ping-pong the follower says it is there;
 * it then waits for the ping. A timed ping-pong with a late partner
 * would time its lateness, and each side, letting the clock pass by
 * what it timed (em_pass_rest), would drift apart from the other. */
static int em_ready(struct em *m, const struct sw_dir *d)
{
	return d->lead ? em_await_go(m, d->peer, 0) : em_go(m, d->peer);
}
#else
static MPI_Request *em_post(struct em *m, int peer, int c, uint64_t size,
			    int *nr)
{
	for (int i = 0; i < c; i++)
		MPI_Irecv(m->rbuf + (size_t) i * size, (int) size, MPI_BYTE,
			  peer, EM_TAG_DATA, m->comm, &m->req[i]);
	*nr = c;
	return m->req;
}

static int em_send_window(struct em *m, int peer, int c, uint64_t size)
{
	for (int i = 0; i < c; i++)
		MPI_Isend(m->sbuf, (int) size, MPI_BYTE, peer, EM_TAG_DATA,
			  m->comm, &m->req[i]);
	return em_wait(m->req, c, em_bound_ns(m, (uint64_t) c * size));
}

/* The warm-up ping-pongs bring the partners together. */
static int em_ready(struct em *m, const struct sw_dir *d)
{
	(void) m;
	(void) d;
	return 0;
}
#endif

/* The receiving side: each window's receives posted, then "go". */
static int em_bw_recv(struct em *m, int peer, uint64_t n, uint64_t win,
		      uint64_t size)
{
	for (uint64_t done = 0; done < n;) {
		int c = (int) (n - done < win ? n - done : win), nr;
		MPI_Request *r = em_post(m, peer, c, size, &nr);

		if (em_go(m, peer) != 0 ||
		    em_wait(r, nr, em_bound_ns(m, (uint64_t) c * size)))
			return em_fail(m, peer, "send its window");
		done += (uint64_t) c;
	}
	return em_go(m, peer) ? em_fail(m, peer, "take the last ack") : 0;
}

static int em_bw_send(struct em *m, int peer, uint64_t n, uint64_t win,
		      uint64_t size, struct sw_fig *fig)
{
	uint64_t t0 = 0;

	for (uint64_t done = 0; done < n;) {
		int c = (int) (n - done < win ? n - done : win);

		if (em_await_go(m, peer, 0) != 0)
			return em_fail(m, peer, "post its receives");
		if (done == 0)
			t0 = cxd_now_ns();
		if (em_send_window(m, peer, c, size) != 0)
			return em_fail(m, peer, "take the window");
		done += (uint64_t) c;
	}
	if (em_await_go(m, peer, win * size) != 0)
		return em_fail(m, peer, "acknowledge the last window");
	fig->v = (double) (n * size) * 1e3 / (double) (cxd_now_ns() - t0);
	return 0;
}

/* One ping-pong; the leading side gets the round trip in ns. */
#ifdef CXD_SIM
static int em_ping(struct em *m, int peer, bool lead, uint64_t *rtt)
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
#else
static int em_ping(struct em *m, int peer, bool lead, uint64_t *rtt)
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
#endif

#ifdef CXD_SIM
/* The simulated build times one ping-pong of a latency run and lets the
 * simulated clock pass for the rest at its pace: the 8-byte messages
 * load no link, and each costs the simulator ~15 us of wall time (100
 * per direction were most of a sweep's messages). */
#define EM_SIM_LAT 1

static uint64_t em_timed_iters(uint64_t iters)
{
	return iters < EM_SIM_LAT ? iters : EM_SIM_LAT;
}

static void em_pass_rest(uint64_t iters, uint64_t done, uint64_t spent_ns)
{
	uint64_t ns = done ? spent_ns / done * (iters - done) : 0;
	struct timespec ts = { (time_t) (ns / 1000000000ULL),
			       (long) (ns % 1000000000ULL) };

	if (ns)
		nanosleep(&ts, NULL);
}
#else
static uint64_t em_timed_iters(uint64_t iters)
{
	return iters;
}

static void em_pass_rest(uint64_t iters, uint64_t done, uint64_t spent_ns)
{
	(void) iters;
	(void) done;
	(void) spent_ns;
}
#endif

static int em_lat(struct em *m, const struct sw_dir *d, struct sw_fig *fig)
{
	uint64_t iters = em_timed_iters(m->c->lat_iters), rtt = 0, t0 = 0;
	uint64_t warm = EM_WARMUP; /* 0 in the simulated build */

	if (d->lead) /* 59 KB: only the side that keeps the figures */
		cxd_stats_reset(&m->lat);
	if (em_ready(m, d) != 0)
		return em_fail(m, d->peer, "come to a latency run");
	for (uint64_t i = 0; i < warm + iters; i++) {
		int ret;

		if (i == warm)
			t0 = cxd_now_ns();
		ret = em_ping(m, d->peer, d->lead, &rtt);
		if (ret != 0)
			return ret;
		if (d->lead && i >= warm)
			cxd_stats_add(&m->lat, rtt / 2);
	}
	/* Only the side that timed a round trip lets the clock pass: the
	 * follower's time includes its wait for the first ping, so a late
	 * leader's lateness would be passed --lat-iters times over and
	 * come back at their next run (a 4-group dragonfly's sweep went
	 * from under a second to 4e7 simulated s). */
	if (d->lead) {
		em_pass_rest(m->c->lat_iters, iters, cxd_now_ns() - t0);
		fig->v = (double) cxd_stats_percentile_ns(&m->lat, 50) / 1e3;
		fig->mean_us = (double) cxd_stats_mean_ns(&m->lat) / 1e3;
		fig->p99_us = (double) cxd_stats_percentile_ns(&m->lat, 99) /
			      1e3;
		fig->p999_us = (double) cxd_stats_percentile_ns(&m->lat,
								99.9) / 1e3;
	}
	return 0;
}

static int em_measure(struct sw_engine *e, const struct sw_dir *d,
		      struct sw_fig *fig)
{
	struct em *m = e->state;
	const struct cxd_run_opts *run = &m->c->bw_run;

	*fig = (struct sw_fig){ d->lat, NAN, NAN, NAN, NAN };
	m->why[0] = '\0';
	if (cxd_testaid_phase) /* test copies: a fault test's stop */
		cxd_testaid_phase("cxi_sweep", "the timed loop");
	if (d->lat)
		return em_lat(m, d, fig);
	return d->lead ? em_bw_send(m, d->peer, run->iters, run->list_size,
				    run->max_size, fig) :
			 em_bw_recv(m, d->peer, run->iters, run->list_size,
				    run->max_size);
}

/* An MPI count is an int: a message (the simulated build: a window,
 * em_post) of more bytes is refused, not wrapped. */
static int em_check_count(const struct cxd_run_opts *r, char *err,
			  size_t len)
{
	uint64_t win = EM_WINDOW_IS_MESSAGE ? r->list_size : 1;

	if (r->max_size * win <= INT_MAX)
		return 0;
	if (win == 1)
		snprintf(err, len, "-s %llu: more than --engine mpi can send "
			 "in one message (%d bytes, an MPI count)",
			 (unsigned long long) r->max_size, INT_MAX);
	else
		snprintf(err, len, "-s %llu with -l %llu: a window of %llu "
			 "bytes, which the simulated build sends as one "
			 "message; at most %d (an MPI count)",
			 (unsigned long long) r->max_size,
			 (unsigned long long) r->list_size,
			 (unsigned long long) (r->max_size * win), INT_MAX);
	return -EINVAL;
}

/* What only a libfabric endpoint has; said, not silently dropped. */
static int em_check(const struct cxd_cfg *c, char *err, size_t len)
{
	const char *opt = c->local.device[0] ? "-d" :
		c->local.provider[0] ? "--provider" :
		c->local.svc_id_set ? "-v" :
		c->run.tclass ? "--tclass" :
		c->run.flags & CXD_RUN_DURATION ? "-D" :
		c->local.given & CXD_GIVEN_HEALTH ? "--health" :
		c->sweep.cg_flags & CXD_CG_ON ? "--congestion" :
		c->sweep.cg_flags & CXD_CG_AGGR_ONLY ? "--aggressors-only" :
		NULL;

	if (opt == NULL)
		return em_check_count(&c->run, err, len);
	snprintf(err, len, "%s does not apply to --engine mpi (MPI picks "
		 "the network and counts messages; use --engine fabric)",
		 opt);
	return -EINVAL;
}

#ifdef CXD_SIM
static void em_recv_init(struct em *m, uint64_t win, size_t size)
{
	MPI_Recv_init(m->rbuf, (int) (win * size), MPI_BYTE, MPI_ANY_SOURCE,
		      EM_TAG_DATA, m->comm, &m->rreq);
}

static void em_recv_free(struct em *m)
{
	if (m->rreq != MPI_REQUEST_NULL)
		MPI_Request_free(&m->rreq);
}
#else
static void em_recv_init(struct em *m, uint64_t win, size_t size)
{
	(void) m;
	(void) win;
	(void) size;
}

static void em_recv_free(struct em *m)
{
	(void) m;
}
#endif

/* Every rank's host; no device to choose, nothing to address. */
static int em_open(struct sw_engine *e, struct sw_ctx *ctx)
{
	struct em *m = e->state;
	struct cxd_sweep_rank me;

	m->c = ctx;
	size_t size = (size_t) ctx->bw_run.max_size;

	memset(&me, 0, sizeof(me));
	sw_host_name(&ctx->m, me.host, sizeof(me.host));
	snprintf(me.nic, sizeof(me.nic), "mpi");
	snprintf(me.addr, sizeof(me.addr), "rank %d", ctx->m.rank);
	ctx->ranks = sw_alloc(&ctx->m, (size_t) ctx->m.n, sizeof(*ctx->ranks));
	ctx->m.host = ctx->ranks[ctx->m.rank].host;
	sw_allgather(&ctx->m, &me, ctx->ranks, sizeof(me),
		     "the host name exchange");
	snprintf(ctx->bw_run.provider, sizeof(ctx->bw_run.provider), "mpi");
	snprintf(ctx->lat_run.provider, sizeof(ctx->lat_run.provider), "mpi");
	if (MPI_Comm_dup(MPI_COMM_WORLD, &m->comm) != MPI_SUCCESS)
		sw_die(&ctx->m, "MPI_Comm_dup failed");
	m->rlen = size * (size_t) ctx->bw_run.list_size;
	m->sbuf = sw_mpi_buf(&ctx->m, size > 8 ? size : 8);
	m->rbuf = sw_mpi_buf(&ctx->m, m->rlen > 8 ? m->rlen : 8);
	m->req = sw_alloc(&ctx->m, (size_t) ctx->bw_run.list_size,
			  sizeof(*m->req));
	memset(m->sbuf, 0xa5, size);
	em_recv_init(m, ctx->bw_run.list_size, size);
	return CXD_EXIT_OK;
}

static const char *em_why(const struct sw_engine *e)
{
	const struct em *m = e->state;

	return m->why;
}

static void em_close(struct sw_engine *e)
{
	struct em *m = e->state;

	if (m == NULL)
		return;
	em_recv_free(m);
	if (m->comm != MPI_COMM_NULL)
		MPI_Comm_free(&m->comm);
	sw_mpi_buf_free(m->sbuf);
	sw_mpi_buf_free(m->rbuf);
	free(m->req);
	free(m);
	e->state = NULL;
}

/* MPI progresses inside MPI_Test: nothing to keep moving. */
static void em_progress(void *state)
{
	(void) state;
}

/* No device behind MPI that the counters could name. */
static void em_plan_counters(const struct sw_engine *e, struct cxd_ctrs *c,
			     const char *sysroot)
{
	(void) e;
	(void) c;
	(void) sysroot;
}

static void em_tclass_note(const struct sw_engine *e, unsigned tc,
			   char *buf, size_t len)
{
	(void) e;
	(void) tc;
	snprintf(buf, len, "not used by MPI");
}

static void em_version(char *buf, size_t len)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int n = 0;

	MPI_Get_library_version(lib, &n);
	lib[strcspn(lib, "\n,")] = '\0'; /* its first phrase */
	if (strstr(lib, ". ") != NULL) /* SMPI: "SMPI Version 3.32. Copy..." */
		*strstr(lib, ". ") = '\0';
	for (char *c = lib; *c; c++)
		*c = *c == '\t' ? ' ' : *c; /* MPICH: "MPICH Version:\t4.0" */
	snprintf(buf, len, "%s", lib);
}

void sw_engine_mpi(struct sw_engine *e, const struct sw_mpi *mpi)
{
	struct em *m = sw_alloc(mpi, 1, sizeof(*m));

	m->comm = MPI_COMM_NULL;
	m->rreq = MPI_REQUEST_NULL;
	*e = (struct sw_engine){
		.name = "mpi", .check = em_check, .open = em_open, .measure = em_measure,
		.why = em_why, .close = em_close, .progress = em_progress,
		.plan_counters = em_plan_counters,
		.tclass_note = em_tclass_note, .version = em_version,
		.aggress = NULL, .state = m,
	};
}

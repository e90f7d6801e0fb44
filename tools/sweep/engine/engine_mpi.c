/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's MPI engine (--engine mpi): a pair measured with MPI
 * point-to-point calls on a communicator of its own, the MPI-level view
 * mpiGraph gives. It needs no libfabric, so it is the engine of the
 * simulated build (make sim, SimGrid's SMPI) as well. This file is what
 * both builds run; how each sends and waits is engine_mpi_real.c's or
 * engine_mpi_sim.c's (engine_mpi_state.h).
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/clock.h"
#include "base/stats.h"
#include "base/testaid.h"
#include "engine_mpi_state.h"

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

static int em_lat(struct em *m, const struct sw_dir *d, struct sw_fig *fig)
{
	uint64_t iters = em_timed_iters(m->c->lat_iters), rtt = 0, t0 = 0;
	uint64_t warm = em_warmup; /* 0 in the simulated build */

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

/* Every rank's host; no device to choose, nothing to address. */
static int em_open(struct sw_engine *e, struct sw_ctx *ctx)
{
	struct em *m = e->state;
	struct cxd_sweep_rank me;
	size_t size = (size_t) ctx->bw_run.max_size;

	m->c = ctx;
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
		.name = "mpi", .open = em_open, .measure = em_measure,
		.why = em_why, .close = em_close, .progress = em_progress,
		.plan_counters = em_plan_counters,
		.tclass_note = em_tclass_note, .version = em_version,
		.aggress = NULL, .state = m,
	};
	em_build_hooks(e); /* this build's check and help */
}

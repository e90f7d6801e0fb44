/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI engine's insides (engine_mpi.c says how it measures), in three
 * layers, each using only those below it: its rules (engine_mpi_base.c),
 * the build's way of sending and waiting, with what the build refuses and
 * says in -h (engine_mpi_real.c for a real MPI: nonblocking calls,
 * polled; engine_mpi_sim.c for make sim, SimGrid's SMPI: blocking calls,
 * a window as one message, one timed ping-pong), and the measurements
 * on top (engine_mpi.c). Only the engine includes it.
 */
#ifndef CXD_SWEEP_ENGINE_MPI_STATE_H
#define CXD_SWEEP_ENGINE_MPI_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "base/stats.h"
#include "engine.h"

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

/* engine_mpi_base.c: a step's bound on its wait for the partner; a step
 * that failed, said in why (-ETIMEDOUT); the options --engine mpi
 * refuses in every build (window_is_message: an MPI count then bounds a
 * window, -s times -l, not -s). */
uint64_t em_bound_ns(const struct em *m, uint64_t bytes);
int em_fail(struct em *m, int peer, const char *what);
int em_check(const struct cxd_cfg *c, bool window_is_message, char *err,
	     size_t len);

/* This build's untimed ping-pongs before a latency run's timed ones. */
extern const uint64_t em_warmup;

/* The build's half. Its waits, bounded (or not: the simulated build's
 * block); a "go" word to peer, and the wait for one (bytes: what is in
 * flight meanwhile). */
int em_wait(MPI_Request *r, int nr, uint64_t bound_ns);
int em_go(struct em *m, int peer);
int em_await_go(struct em *m, int peer, uint64_t bytes);
/* Bandwidth: a window of c messages of size bytes, its receives posted
 * (the requests to wait for, *nr of them), and sent. */
MPI_Request *em_post(struct em *m, int peer, int c, uint64_t size, int *nr);
int em_send_window(struct em *m, int peer, int c, uint64_t size);
/* Latency: the partners together before a run; one ping-pong (the
 * leading side gets the round trip in ns); of --lat-iters, the ones
 * timed, and the clock passed for the rest at the timed ones' pace. */
int em_ready(struct em *m, const struct sw_dir *d);
int em_ping(struct em *m, int peer, bool lead, uint64_t *rtt);
uint64_t em_timed_iters(uint64_t iters);
void em_pass_rest(uint64_t iters, uint64_t done, uint64_t spent_ns);
/* A persistent window receive, made at open and freed at close. */
void em_recv_init(struct em *m, uint64_t win, size_t size);
void em_recv_free(struct em *m);
/* e's check (what this build refuses, em_check's and its own) and help
 * (what -h adds). */
void em_build_hooks(struct sw_engine *e);

#endif

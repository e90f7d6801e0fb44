/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's MPI helper layer: this rank's place in the job, every MPI
 * tag the sweep uses, and the bounded collectives and waits (a rank that
 * stalls must not hold the others forever). Knows no engine: a wait that
 * must keep a provider moving is handed a progress callback. Both builds
 * share mpi_util.c and mpi_coll.c; the waits and buffers (mpi_wait_real.c)
 * and three collectives (mpi_coll_real.c) differ in the simulated build
 * (make sim: mpi_wait_sim.c, mpi_coll_sim.c).
 */
#ifndef CXD_SWEEP_MPI_UTIL_H
#define CXD_SWEEP_MPI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "base/progress_rounds.h"

#define CXD_SWEEP_WAIT_S 30   /* a pair's wait beyond -D: peer is gone */
#define CXD_SWEEP_LATE_S 5    /* a rank this late after its partner */

/* Every point-to-point tag of the sweep, in one place so that no two
 * concerns share a value (TAG_WHY and TAG_TURN were both 41). */
enum sw_tag {
	SW_TAG_BARRIER = 11, /* a pair's steps (the engine's peer) */
	SW_TAG_SHARE,
	SW_TAG_ADDR,
	SW_TAG_HELLO = 31,   /* pacing: partners name the round */
	SW_TAG_SLOT,         /* pacing: a slot's token */
	SW_TAG_KEY,          /* pacing: a shared-links chain's token */
	SW_TAG_WHY = 41,     /* a rank's setup error, to rank 0 */
	SW_TAG_TURN = 51,    /* congestion: a victim turn's token */
};

/* This rank in MPI_COMM_WORLD, and the bounds every wait uses. */
struct sw_mpi {
	int rank, n;
	uint64_t wait_ns;  /* a pair's wait (-D and slack); 0 before parsing */
	const char *host;  /* this rank's host for sw_die, once known */
	/* Rank 0's progress line while the sweep's phases run (NULL: none,
	 * and on every other rank): the run's own (phases/run.c), reached
	 * from here by the pacing, which moves it on between rounds, and by
	 * sw_die, which erases it before its message. */
	struct cxd_rprog *line;
};

/* Keep a provider moving while a wait polls (NULL: sleep instead). */
typedef void sw_progress_fn(void *arg);

void sw_mpi_init(struct sw_mpi *m);
/* A fatal error: names this rank and host, MPI_Abort ends every rank. */
void sw_die(const struct sw_mpi *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *sw_alloc(const struct sw_mpi *m, size_t n, size_t sz); /* or sw_die */
void sw_nap(long ns);
/* A measurement buffer: malloc'd, or in the simulated build one block
 * shared by every rank (SMPI_SHARED_MALLOC: the ranks are threads of
 * one process, and the bytes are never read). NULL-safe free. */
void *sw_mpi_buf(const struct sw_mpi *m, size_t len);
void sw_mpi_buf_free(void *p);
/* The build's allocator under them (mpi_buf_real.c, mpi_buf_sim.c). */
void *sw_buf_alloc(size_t len);
void sw_buf_release(void *p);
/* This rank's host name (a test copy's namespace may stand for a node);
 * returns its whole length: len or more when it was cut (refused). */
size_t sw_host_name(const struct sw_mpi *m, char *host, size_t len);
/* Wait for MPI requests within bound_ns without spinning; progress
 * (inside a pair) is called between polls. 0 or -ETIMEDOUT. */
int sw_wait(MPI_Request *r, int nr, uint64_t bound_ns,
	    sw_progress_fn *progress, void *arg);
/* Wait for one request until deadline (absolute, cxd_now_ns), asleep
 * between tests, the naps from 20 us doubling to 1 ms: 0 or -ETIMEDOUT
 * (the simulated build: sw_block). */
int sw_wait_until(MPI_Request *q, uint64_t deadline);
/* The simulated build's every wait (mpi_wait_sim.c says why; only that
 * build has it): blocks, 0. */
int sw_block(MPI_Request *r, int nr);
/* Wait for a nonblocking collective (blocking ones spin), bounded by
 * wait_ns (its floor before the options are read); a rank that stalls
 * ends the job. */
void sw_coll_wait(const struct sw_mpi *m, MPI_Request *req,
		  const char *what);
/* Every rank here before any goes on, or -ETIMEDOUT at deadline
 * (mpi_coll_real.c: MPI's barrier; mpi_coll_sim.c: SMPI's blocking one,
 * as its MPI_Ibarrier lets ranks through before the last comes). */
int sw_barrier_until(const struct sw_mpi *m, uint64_t deadline);
/* Rank 0's buf to every rank; every rank's count items to rank 0's all
 * (rank by rank); every rank's len bytes to every rank's all. */
void sw_bcast(const struct sw_mpi *m, void *buf, int count, MPI_Datatype t,
	      const char *what);
void sw_gather(const struct sw_mpi *m, const void *mine, int count,
	       MPI_Datatype t, void *all, const char *what);
void sw_allgather(const struct sw_mpi *m, const void *mine, void *all,
		  int len, const char *what);
/* Every rank's in combined by op into every rank's out; this rank's
 * row (one double per rank) transposed: col[j] is rank j's row[me]. */
void sw_allreduce(const struct sw_mpi *m, const void *in, void *out,
		  int count, MPI_Datatype t, MPI_Op op, const char *what);
void sw_alltoall_double(const struct sw_mpi *m, const double *row,
			double *col, const char *what);
/* 0 when no rank has an error, else rank 0 prints the first failing
 * rank's, named with its host, and all get 2. Collective. */
int sw_agree_err(const struct sw_mpi *m, const char *err);
/* Both sides of a pair send len bytes to rank p, then receive as many:
 * 0, or -ETIMEDOUT after bound_ns. */
int sw_pair_swap(int p, enum sw_tag tag, const void *mine, void *theirs,
		 int len, uint64_t bound_ns, sw_progress_fn *progress,
		 void *arg);

#endif

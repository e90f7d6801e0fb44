/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How one pair is measured. The sweep's pacing, its judging and the
 * congestion mode ask an engine for one direction of one pair at a time
 * and get the figure back; they know nothing of how it is sent. Two
 * engines fill the table: libfabric's (engine_fabric.c) and MPI
 * point-to-point (engine_mpi.c, the only one of the simulated build);
 * --engine picks one (engine_list.c).
 */
#ifndef CXD_SWEEP_ENGINE_H
#define CXD_SWEEP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#include "cxd/config.h"
#include "context.h"

struct cxd_ctrs;

/* One direction of one pair: this rank with rank peer, leading (it
 * drives the run and gets the figure) or answering. */
struct sw_dir {
	int peer;
	bool lead;
	bool lat;          /* 8-byte latency, else bandwidth */
	const char *role;  /* the peer in messages: "the ROLE rank p" */
	int round;         /* the round (or phase) it belongs to */
};

/* What a run gives the side that leads; NAN where it gave nothing. */
struct sw_fig {
	bool is_lat;
	double v;          /* median latency in us, or MB/s */
	double mean_us, p99_us, p999_us; /* latency runs only */
};

/* --congestion: victims let the aggressors fill the queues first. */
#define CXD_CG_SETTLE_NS 300000000L

/* --congestion: what an aggressor's traffic needs to know. */
struct sw_aggr {
	int phase;             /* CXD_CG_* (lib/sweep/congest/congest.h) */
	const int *aggressors; /* the aggressor ranks, na of them */
	int na, aidx;          /* their count, this rank's place among them */
	bool crowded;          /* more ranks than CPUs here: nap, never spin */
	uint64_t bound_ns;     /* the victims' part of the phase */
};

struct sw_engine {
	const char *name;  /* as --engine names it */
	/* The options this engine cannot honour: 0, or -EINVAL with err
	 * naming them (NULL: it takes them all). */
	int (*check)(const struct cxd_cfg *cfg, char *err, size_t len);
	/* Set this rank up (collective: provider, device, endpoint, every
	 * rank's address; fills c->ranks and the runs' provider, and keeps
	 * c for its runs): 0, or 2 when a rank's device cannot be had (rank
	 * 0 has said why). */
	int (*open)(struct sw_engine *e, struct sw_ctx *c);
	/* One direction of one pair: 0 or a negative errno (why says). */
	int (*measure)(struct sw_engine *e, const struct sw_dir *d,
		       struct sw_fig *fig);
	const char *(*why)(const struct sw_engine *e);
	void (*close)(struct sw_engine *e);
	/* Keep the provider moving while a wait polls (sw_progress_fn). */
	void (*progress)(void *state);
	/* Evidence and report facts: the device's counters (health.c), the
	 * text of a traffic class, the library's version ("2.1"). */
	void (*plan_counters)(const struct sw_engine *e, struct cxd_ctrs *c,
			      const char *sysroot);
	void (*tclass_note)(const struct sw_engine *e, unsigned tc,
			    char *buf, size_t len);
	void (*version)(char *buf, size_t len);
	/* --congestion: an aggressor's traffic in a's phase until *stop
	 * completes (NULL: until until_ns), drained; failures end the job.
	 * NULL where the engine has none (check refuses --congestion). */
	void (*aggress)(struct sw_engine *e, const struct sw_aggr *a,
			MPI_Request *stop, uint64_t until_ns);
	/* What -h adds about this build's engine (NULL: nothing). */
	void (*help)(FILE *out);
	void *state;
};

/* The libfabric engine (engine_fabric.c): fills e, its state allocated. */
void sw_engine_fabric(struct sw_engine *e, const struct sw_mpi *m);
/* The MPI engine (engine_mpi.c), likewise. */
void sw_engine_mpi(struct sw_engine *e, const struct sw_mpi *m);
/* --engine NAME ("": this build's first) into e (engine_list.c): 0, or
 * -EINVAL with err naming the engines this build has. */
int sw_engine_pick(const char *name, struct sw_engine *e,
		   const struct sw_mpi *m, char *err, size_t len);

#endif

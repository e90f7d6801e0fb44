/* cxi_sweep's MPI side: the state of one rank and its entry points. */
#ifndef CXD_SWEEP_MPI_H
#define CXD_SWEEP_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include <mpi.h>

#include "cxd/session.h"
#include "sweep/sweep_out.h"

#define CXD_SWEEP_WAIT_S 30   /* a pair's wait beyond -D: peer is gone */
#define CXD_SWEEP_LATE_S 5    /* a rank this late after its partner */

/* A list of rounds of disjoint pairs. */
struct sw_plan {
	int nrounds;
	int *count;            /* pairs per round */
	struct cxd_pair *pairs; /* round r at pairs + r * stride */
	int stride;
};

struct sw {
	int rank, n;
	const struct cxd_tool *tool, *bw_tool, *lat_tool;
	struct cxd_cfg cfg;
	struct cxd_run_opts bw_run, lat_run;
	uint64_t lat_iters, repeat;
	uint64_t wait_ns;
	struct cxd_sess s;
	struct cxd_sweep_rank *ranks; /* every rank's host and address */
	struct cxd_addr_msg *addrs;
	fi_addr_t *fiaddr;
	int partner;
	int pairs_at_once;     /* per round: --max-pairs or by host CPUs */
	int round;
	double last;           /* the last measurement this side led */
	double *rep[2];        /* this rank's links, repeat k of link to p at
				* [p * repeat + k]; per metric */
	double *bw_row, *lat_row; /* this rank's links to each rank: medians */
	double *spread[2];     /* (max - min) / median of the repeats, % */
	double noise[2];       /* median relative difference of repeats */
	double *busy_row;      /* share of each pair's time spent waiting
				* for a CPU (this rank's side), NAN unknown */
	/* rank 0: --baseline and --topology, read before any traffic */
	struct cxd_baseline base;
	struct cxd_topo topo;
	struct cxd_topo_map tmap;
	bool has_base, has_topo;
	double *round_s;
	char peer_host[256];
	char who[320];          /* "the peer rank 3 (nid0042)" */
	struct sw_ctrs *ctrs;   /* health.c: counters around the sweep */
};

void sw_init(struct sw *w);
/* Provider choice, endpoint, every rank's address in the AV. */
void sw_bootstrap(struct sw *w);
/* A fatal error: names this rank and host, MPI_Abort ends every rank. */
void sw_die(struct sw *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *sw_alloc(struct sw *w, size_t n, size_t sz); /* zeroed, or sw_die */
void sw_nap(long ns);
/* Wait for a nonblocking collective (blocking ones spin), bounded. */
void sw_coll_wait(struct sw *w, MPI_Request *req, const char *what);
/* Wait for MPI requests within bound_ns without spinning; progress: keep
 * the provider moving (inside a pair). 0 or -ETIMEDOUT. */
int sw_wait(struct sw *w, MPI_Request *r, int nr, uint64_t bound_ns,
	    bool progress);
/* How a pair's two ranks reach each other (peer_mpi.c): MPI messages
 * to the partner, every wait bounded. */
extern const struct cxd_peer_ops sw_peer_mpi;
/* The whole sweep; returns the exit status (rank 0 decides). */
int sw_run(struct sw *w);
/* The circle rounds, cut to pairs_at_once pairs per round. */
void sw_main_plan(struct sw *w, struct sw_plan *pl);
/* Run the rounds of a plan (each rank its own pairs, every wait bounded);
 * secs: each round's time, or NULL. */
void sw_run_plan(struct sw *w, const struct sw_plan *pl, double *secs);
/* Retest rounds for np suspect pairs; sw_plan_free releases a plan. */
void sw_retest_plan(struct sw *w, const struct cxd_pair *p, int np,
		    struct sw_plan *pl);
void sw_plan_free(struct sw_plan *pl);
/* Forget the measurements of this rank's row (before a pass). */
void sw_reset_rows(struct sw *w);

/* sweep_judge.c: rank 0 reads --baseline and --topology before any
 * traffic; 0, or 2 on every rank when one is unusable. */
int sw_read_inputs(struct sw *w);
/* After the ranks are known: --topology must place every one (0 or 2). */
int sw_place_ranks(struct sw *w);
/* Judge the first pass, retest, report: the exit status (rank 0's). */
int sw_verdict(struct sw *w, const struct sw_plan *pl, uint64_t t0);
void sw_free(struct sw *w);

#endif

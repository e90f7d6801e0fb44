/* cxi_sweep's MPI side: the state of one rank and its entry points. */
#ifndef CXD_SWEEP_MPI_H
#define CXD_SWEEP_MPI_H

#include <stdint.h>

#include "cxd/session.h"
#include "cxd/sweep.h"

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
	uint64_t bw_pct, lat_pct, lat_iters;
	uint64_t wait_ns;
	struct cxd_sess s;
	struct cxd_sync sync;
	struct cxd_sweep_rank *ranks; /* every rank's host and address */
	struct cxd_addr_msg *addrs;
	fi_addr_t *fiaddr;
	int partner;
	int round;
	double last;           /* the last measurement this side led */
	double *bw_row, *lat_row; /* this rank's links to each rank */
	double *round_s;
	char peer_host[256];
};

void sw_init(struct sw *w);
/* The whole sweep; returns the exit status (rank 0 decides). */
int sw_run(struct sw *w);
void sw_free(struct sw *w);

#endif

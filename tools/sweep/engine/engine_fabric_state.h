/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The libfabric engine's state (engine_fabric*.c only): the pair tools'
 * session on this rank's endpoint, every rank's address, and whom it is
 * aimed at. The only part of the sweep that sees libfabric.
 */
#ifndef CXD_SWEEP_ENGINE_FABRIC_STATE_H
#define CXD_SWEEP_ENGINE_FABRIC_STATE_H

#include <rdma/fabric.h>

#include "session/session.h"
#include "engine.h"

struct sw_fab {
	const struct sw_ctx *c; /* options, ranks, bounds (from open) */
	int round;              /* the measurement's, for messages */
	struct cxd_sess s;
	const struct cxd_tool *bw_tool, *lat_tool, *read_tool;
	struct cxd_addr_msg *addrs;
	fi_addr_t *fiaddr;
	int partner;           /* the rank aimed at, -1 none */
	const char *role;
	char peer_host[256];
	char who[320];          /* "the peer rank 3 (nid0042)" */
	struct sw_fig *fig;     /* the running measurement's, else NULL */
};

/* How a pair's two ranks reach each other (engine_fabric_peer.c): MPI
 * messages to the partner, every wait bounded; via_arg: the sw_fab. */
extern const struct cxd_peer_ops sw_peer_mpi;
/* Point the session at rank p ("the ROLE rank p (host)" in messages),
 * engine_fabric_peer.c. */
void sw_fab_aim(struct sw_fab *f, int p, const char *role);
/* The provider moving (a wait's sw_progress_fn); arg: the sw_fab. */
void sw_fab_progress(void *arg);
/* -d auto or a list: this rank's device (engine_fabric_nic.c); 0 or 2. */
int sw_fab_pick_device(struct sw_fab *f, struct sw_ctx *c);
/* --congestion's aggressor traffic (engine_fabric_aggr.c). */
void sw_fab_aggress(struct sw_engine *e, const struct sw_aggr *a,
		    MPI_Request *stop, uint64_t until_ns);

#endif

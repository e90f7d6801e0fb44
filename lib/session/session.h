/* SPDX-License-Identifier: BSD-3-Clause */
/* One side of one run: its peer (any way), fabric, buffers and op hooks. */
#ifndef CXD_SESSION_H
#define CXD_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "base/op_facts.h"
#include "cxd/config.h"
#include "fabric/cxi_knobs.h"
#include "fabric/fabric.h"
#include "fabric/mem.h"
#include "cxd/opts.h"
#include "cxd/result.h"
#include "report/report.h"
#include "cxd/tool.h"
#include "session/peer.h"

/*
 * Liveness. The peer is alive while its way says so (the control
 * channel: while its heartbeats arrive, ctrl/ctrl.h). Our
 * own transfer must show progress: an iteration with B bytes in flight
 * may go without a completion for --timeout seconds (default 5) plus
 * B / CXD_FLOOR_RATE, i.e. a link as slow as 1 MB/s still completes.
 */
#define CXD_FLOOR_RATE 1000000ULL /* bytes per second */

struct cxd_sess;

/* What an operation kind plugs into the shared runners. */
struct cxd_ops {
	/* First: the tool row's facts are read through it (op_facts.h). */
	struct cxd_op_facts facts;
	/* After buffers, MRs and the peer address exist. */
	int (*setup)(struct cxd_sess *s);
	/* Choose the post hook for a size: inject or not, etc. */
	int (*post_for)(struct cxd_sess *s, uint64_t size);
	/* Keep the provider moving while this side waits. */
	int (*progress)(struct cxd_sess *s);
	/* Latency: one measured operation, complete when it returns. */
	int (*lat_one)(struct cxd_sess *s, uint64_t size, bool last);
	/* Bandwidth: one iteration of list_size operations, completed. */
	int (*bw_iter)(struct cxd_sess *s, uint64_t size);
	/* After the last size: checks such as atomic verification. */
	int (*finish)(struct cxd_sess *s, struct cxd_result *res);
	void (*teardown)(struct cxd_sess *s);
};

_Static_assert(offsetof(struct cxd_ops, facts) == 0,
	       "cxd_tool_facts() reads the facts at the start of the ops");

typedef int (*cxd_post_fn)(struct cxd_sess *s, uint64_t size, uint64_t loff,
			   uint64_t roff);

struct cxd_sess {
	const struct cxd_tool *tool;
	struct cxd_cfg *cfg;
	const struct cxd_run_opts *run; /* &cfg->run, agreed with the peer */
	const struct cxd_ops *ops;
	const struct cxd_peer_ops *via; /* how this side reaches its peer */
	void *via_arg; /* that way's own state (cxd_peer_ctrl: the channel) */
	const char *who; /* "the server 127.0.0.1:49194": messages name it */
	const char *phase; /* entered last (cxd_sess_enter); NULL: none yet */
	struct cxd_fabric *fab;
	struct cxd_buf tx, rx;
	struct cxd_gpu *gpu; /* the GPU runtime for -t/-r, NULL: host only */
	struct cxd_mr tx_mr, rx_mr;
	struct cxd_addr_msg peer;
	bool is_client;
	bool active;      /* this side posts operations in the timed loop */
	cxd_post_fn post; /* chosen per size by ops->post_for */
	uint64_t op_flags;   /* FI_INJECT, FI_DELIVERY_COMPLETE: for s->post */
	uint64_t last_flags; /* added for the last operation of a list */
	uint64_t cntr_target;
	uint64_t cntr_errs;
	uint64_t off;     /* next local/remote offset in the buffers */
	uint64_t gran;    /* offset step: size rounded up to buf_align */
	uint64_t wrap;    /* offsets wrap when an op would pass this */
	uint32_t barrier_seq;
	uint64_t timeout_ms;     /* --timeout */
	uint64_t inflight_bytes; /* at most, in one iteration of this size */
	/* The stall being timed (its start) and this process's CPU wait
	 * when it was first seen: time spent waiting for a CPU is the
	 * host's, not the fabric's, and extends the stall limit. */
	uint64_t stall_ref, stall_wait0;
	int out_errno;           /* writing the results failed with this */
	bool gate_missed;        /* --expect-bw/-lat: a size missed (exit 3) */
	void *op_state;
	struct cxd_cxi_envsnap env0; /* environment before our setenv */
	struct cxd_cxi_plan cxi;     /* the Cassini knobs (cxi only) */
	struct cxd_summary_info info;
	char err[CXD_ERR_LEN];
};

/* For messages: the phase entered last, and the peer ("the server
 * 127.0.0.1:49194"). */
static inline const char *cxd_sess_phase(const struct cxd_sess *s)
{
	return s->phase ? s->phase : "the run";
}

static inline const char *cxd_sess_who(const struct cxd_sess *s)
{
	return s->who ? s->who : "the peer";
}

/* Proof of life for the peer way's watchdog (every wait loop). */
static inline void cxd_sess_beat(struct cxd_sess *s)
{
	s->via->beat(s);
}

/* Errors: set s->err (a full sentence) and return a negative errno. */
int cxd_sess_fail(struct cxd_sess *s, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* session.c. Enter a phase ("the timed loop"): messages name it (and the
 * test copies of the tools may stop there: base/testaid.h). */
void cxd_sess_enter(struct cxd_sess *s, const char *phase);
/* Wait until the peer enters the same barrier. */
int cxd_sess_barrier(struct cxd_sess *s, const char *phase);

/* sess_connect.c, peer_self.c, sess_open.c: the flow up to the sizes. */
int cxd_sess_client(struct cxd_sess *s);
int cxd_sess_server(struct cxd_sess *s, int lfd);
int cxd_sess_loopback(struct cxd_sess *s);
/* After the summary has printed: touch the buffers (slow for big ones),
 * then let the operation prepare (it may write into them). */
int cxd_sess_prepare(struct cxd_sess *s);
void cxd_sess_close(struct cxd_sess *s);
/* Open the fabric and buffers and describe this endpoint, without an
 * address exchange: a launcher spreads the addresses (cxi_sweep). */
int cxd_sess_open_local(struct cxd_sess *s, struct cxd_addr_msg *mine);
/* After a size: send this side's figures, receive the peer's (same size). */
int cxd_sess_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		   struct cxd_result_msg *peer);
/* A size's figures to the report (the peers that show them). */
int cxd_sess_report(struct cxd_sess *s, struct cxd_report *rep,
		    const struct cxd_result *res);

/* A size's figures: wherever the peer's way says (the report, mostly). */
static inline int cxd_sess_emit(struct cxd_sess *s, struct cxd_report *rep,
				const struct cxd_result *res)
{
	return s->via->result(s, rep, res);
}

/* sess_mem.c: "GPU 0" or "System", for the summary. */
void cxd_mem_label(int gpu, char *buf, size_t len);

#endif

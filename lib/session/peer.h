/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How one side of a run reaches its peer, behind one interface (as UCX
 * perftest puts its launchers behind ucx_perf_rte_t). The runners, the
 * validation and the session's setup use only these hooks and never ask
 * which kind they have:
 *   cxd_peer_ctrl  the TCP control channel of a client/server pair
 *                  (peer_ctrl.c; connecting is sess_connect.c's)
 *   cxd_peer_self  the process itself: the loopback tool (peer_self.c)
 *   the partner rank of an MPI job: cxi_sweep (tools/sweep/engine/engine_fabric_peer.c)
 * Each returns 0 or a negative errno with s->err set, as the session does.
 * A way's own state (the control channel, the MPI job) is behind
 * s->via_arg: the session holds no transport.
 */
#ifndef CXD_PEER_H
#define CXD_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/proto.h"

struct cxd_sess;
struct cxd_report;
struct cxd_result;

struct cxd_peer_ops {
	/* This process holds the buffers of both roles: it targets itself
	 * (loopback) or is source and target by turns (a sweep rank). */
	bool both_roles;
	/* The peer is another process, which can die or freeze apart from
	 * this one: a stall may be the path's fault while it is alive. */
	bool separate;
	/* Wait until the peer enters the same barrier (phase names it). */
	int (*barrier)(struct cxd_sess *s, const char *phase);
	/* Send this side's figures of a size, receive the peer's. */
	int (*share)(struct cxd_sess *s, const struct cxd_result_msg *mine,
		     struct cxd_result_msg *theirs);
	/* Swap fabric addresses, the client's first. */
	int (*swap_addr)(struct cxd_sess *s, const struct cxd_addr_msg *mine,
			 struct cxd_addr_msg *theirs);
	/* A size's figures: to the report, or kept by the launcher. */
	int (*result)(struct cxd_sess *s, struct cxd_report *rep,
		      const struct cxd_result *res);
	/* From a stalled wait: has the peer reported an error or gone
	 * silent? 0 when there is no such news. */
	int (*check)(struct cxd_sess *s);
	/* After a fabric error: the peer's own reason, if it sends one at
	 * once (it often went away on purpose). 0 when none came. */
	int (*why)(struct cxd_sess *s);
	/* Tell the peer why this side stops (best effort, bounded). */
	void (*tell)(struct cxd_sess *s, const char *text);
	/* From the ready barrier on, a provider call may block on a dead
	 * peer's state: watch for that, and run on_fatal before ending. */
	void (*watch)(struct cxd_sess *s, void (*on_fatal)(void *arg),
		      void *arg);
	/* The session entered a phase (s->phase): a way with a thread of
	 * its own (the channel's heartbeat) names it in its messages. */
	void (*enter)(struct cxd_sess *s, const char *phase);
	/* Proof of life for the way's watchdog, from every wait loop. */
	void (*beat)(struct cxd_sess *s);
	/* How long a provider call may now block while the peer is alive
	 * (the watchdog's allowance for an iteration of this size). */
	void (*allow)(struct cxd_sess *s, uint64_t ms);
	/* The peer's address for the summary ("127.0.0.1:49194"); NULL
	 * while no peer is connected. */
	const char *(*name)(const struct cxd_sess *s);
	/* The local address the fabric endpoint should use ("": any). */
	void (*src_host)(const struct cxd_sess *s, char *buf, size_t len);
	void (*close)(struct cxd_sess *s);
};

extern const struct cxd_peer_ops cxd_peer_ctrl, cxd_peer_self;

/* Hooks for ways that have nothing to do there (peer_self.c): no news,
 * no one to tell or watch, no watchdog to feed or phase to pass on, any
 * local address, nothing to close; no address to show (cxi_sweep's
 * ranks are named in s->who). */
int cxd_peer_nothing(struct cxd_sess *s);
void cxd_peer_no_enter(struct cxd_sess *s, const char *phase);
void cxd_peer_no_beat(struct cxd_sess *s);
void cxd_peer_no_allow(struct cxd_sess *s, uint64_t ms);
const char *cxd_peer_no_name(const struct cxd_sess *s);
void cxd_peer_no_tell(struct cxd_sess *s, const char *text);
void cxd_peer_no_watch(struct cxd_sess *s, void (*on_fatal)(void *arg),
		       void *arg);
void cxd_peer_any_host(const struct cxd_sess *s, char *buf, size_t len);
void cxd_peer_no_close(struct cxd_sess *s);
/* All of them but the name, for a table of cxd_peer_ops. */
#define CXD_PEER_QUIET_HOOKS \
	.check = cxd_peer_nothing, .why = cxd_peer_nothing, \
	.tell = cxd_peer_no_tell, .watch = cxd_peer_no_watch, \
	.enter = cxd_peer_no_enter, .beat = cxd_peer_no_beat, \
	.allow = cxd_peer_no_allow, \
	.src_host = cxd_peer_any_host, .close = cxd_peer_no_close

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The posting path (post.c): posts, the bounded spin, the bounded waits. */
#ifndef CXD_POST_H
#define CXD_POST_H

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fabric.h>

#include "session/session.h"

/* Wait until the completion counter reaches s->cntr_target (bounded). */
int cxd_post_wait(struct cxd_sess *s);
/* Post with retry while the provider's queue is full (bounded). */
int cxd_post_retry(struct cxd_sess *s, uint64_t size, uint64_t loff,
		   uint64_t roff);
/* A post the provider refused: the message names size, peer and phase. */
int cxd_post_failed(struct cxd_sess *s, int ret, uint64_t size);
/* One bandwidth iteration: n operations at successive offsets (the last
 * with s->last_flags added), then wait until all have completed. */
int cxd_post_list(struct cxd_sess *s, uint64_t size, uint64_t n);
/* One latency sample: an operation at offset 0, waited for. */
int cxd_post_one(struct cxd_sess *s, uint64_t size);
/* How long an iteration with bytes in flight may go without progress. */
static inline uint64_t cxd_post_allow_ms(const struct cxd_sess *s,
					 uint64_t bytes)
{
	return s->timeout_ms + bytes / (CXD_FLOOR_RATE / 1000);
}
/* Before a size's first post: offsets restart at 0 in steps of the op's
 * slot (or the size rounded up to --buf-align), and the op picks its post
 * hook for the size (inject or not). The runners and cxi_sweep's
 * aggressors share it. */
void cxd_post_prepare(struct cxd_sess *s, uint64_t size);
/* Before a size's timed loop: bytes one iteration has in flight; sets the
 * stall limit and the watchdog's. */
void cxd_post_inflight(struct cxd_sess *s, uint64_t bytes);
/* A stalled wait: check the peer, then decide whether to give up. */
int cxd_post_stalled(struct cxd_sess *s, uint64_t *last_change_ns,
		     const char *what);

/*
 * A bounded busy-wait, written once for every waiting loop: each round
 * asks cxd_post_spin_due about its own round counter (a local, so it
 * stays in a register: an increment and a test); every 1024th round says
 * yes, and the loop calls cxd_post_spin_check with its progress figure
 * (completions seen, a counter), which checks signals, the peer and the
 * stall limit (cxd_post_stalled) and fails the wait past it.
 */
struct cxd_spin {
	const char *what; /* "operation", "message": for the stall message */
	uint64_t last;    /* progress figure at the last check */
	uint64_t changed; /* when it last changed; 0: not yet looked */
};

#define CXD_SPIN(what_) { .what = (what_), .last = 0, .changed = 0 }

static inline bool cxd_post_spin_due(unsigned *rounds)
{
	return (++*rounds & 1023) == 0;
}

int cxd_post_spin_check(struct cxd_sess *s, struct cxd_spin *w,
			uint64_t progress);

/*
 * Post n operations at successive offsets with post, all but the last
 * with FI_MORE (more follow at once: a NIC may ring one doorbell for the
 * list) and the last with s->last_flags added; s->cntr_target grows by n.
 * Does not wait: see cxd_post_list. Inline, so that a caller that names
 * its post function gets it inlined into the loop; offsets (kept in
 * locals) wrap as the originals wrap; the flags change twice per list.
 */
static inline int cxd_post_at(struct cxd_sess *s, uint64_t size,
			      uint64_t *off, uint64_t lim, cxd_post_fn post)
{
	uint64_t o = *off;
	int ret = post(s, size, o, o);

	if (ret && (ret = cxd_post_retry(s, size, o, o)) != 0)
		return ret;
	/* The next offset is o + gran while that leaves room for one more
	 * operation below s->wrap (lim, from cxd_post_batch_with), else 0. */
	*off = o < lim ? o + s->gran : 0;
	return 0;
}

static inline int cxd_post_batch_with(struct cxd_sess *s, uint64_t size,
				      uint64_t n, cxd_post_fn post)
{
	uint64_t base = s->op_flags, off = s->off, gran = s->gran;
	uint64_t lim = s->wrap >= 2 * gran ? s->wrap - 2 * gran + 1 : 0;
	int ret = 0;

	s->op_flags = base | FI_MORE;
	for (uint64_t i = 1; ret == 0 && i < n; i++)
		ret = cxd_post_at(s, size, &off, lim, post);
	/* The iteration ends when the target has the last operation. Where
	 * plain completion is local (tcp) operations travel in order, so
	 * the target then has all of them. */
	s->op_flags = base | s->last_flags;
	if (ret == 0 && n > 0)
		ret = cxd_post_at(s, size, &off, lim, post);
	s->off = off;
	s->op_flags = base;
	if (ret == 0)
		s->cntr_target += n;
	return ret;
}

/* The same with s->post. */
int cxd_post_batch(struct cxd_sess *s, uint64_t size, uint64_t n);

#endif

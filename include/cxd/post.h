/* The posting path's shared pieces: the bounded spin and the list post. */
#ifndef CXD_POST_H
#define CXD_POST_H

#include <stdbool.h>
#include <stdint.h>

struct cxd_sess;

/*
 * A bounded busy-wait, written once for every waiting loop: each round
 * asks cxd_spin_due about its own round counter (a local, so it stays in
 * a register: an increment and a test); every 1024th round says yes, and
 * the loop calls cxd_spin_check with its progress figure (completions
 * seen, a counter), which checks signals, the peer and the stall limit
 * (cxd_stall_check) and fails the wait past it.
 */
struct cxd_spin {
	const char *what; /* "operation", "message": for the stall message */
	uint64_t last;    /* progress figure at the last check */
	uint64_t changed; /* when it last changed; 0: not yet looked */
};

#define CXD_SPIN(what_) { .what = (what_), .last = 0, .changed = 0 }

static inline bool cxd_spin_due(unsigned *rounds)
{
	return (++*rounds & 1023) == 0;
}

int cxd_spin_check(struct cxd_sess *s, struct cxd_spin *w, uint64_t progress);

/*
 * Post n operations at successive offsets with s->post, all but the last
 * with FI_MORE (more follow at once: a NIC may ring one doorbell for the
 * list) and the last with s->last_flags added; s->cntr_target grows by n.
 * Does not wait: see cxd_post_list.
 */
int cxd_post_batch(struct cxd_sess *s, uint64_t size, uint64_t n);

/*
 * Whether an operation of this size goes inline (FI_INJECT, the IDC
 * analogue): not with --no-idc, and only up to the provider's inject
 * size and the operation's own cap (UINT64_MAX: none).
 */
bool cxd_post_injects(const struct cxd_sess *s, uint64_t size, uint64_t cap);

#endif

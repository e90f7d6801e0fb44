/* SPDX-License-Identifier: BSD-3-Clause */
/* Posting and waiting: the path the timed loops run, and its stall checks. */
#include <errno.h>
#include <stdio.h>

#include <rdma/fi_errno.h>

#include "post.h"
#include "session/session.h"
#include "base/cpu_wait.h"
#include "base/signals.h"
#include "base/sizes.h"
#include "sess_priv.h"

void cxd_post_prepare(struct cxd_sess *s, uint64_t size)
{
	s->gran = s->ops->facts.slot ? s->ops->facts.slot :
		  cxd_roundup(size, s->run->buf_align);
	s->off = 0;
	s->ops->post_for(s, size);
}

void cxd_post_inflight(struct cxd_sess *s, uint64_t bytes)
{
	s->inflight_bytes = bytes;
	s->via->allow(s, cxd_post_allow_ms(s, bytes));
}

/*
 * How long of this stall the process spent waiting for a CPU (a busy
 * host, not a stopped fabric), at most the limit again: the wait stays
 * bounded however busy the host.
 */
static uint64_t host_wait_ns(struct cxd_sess *s, uint64_t since,
			     uint64_t limit_ns)
{
	uint64_t w = cxd_cpu_wait_ns();

	if (w == UINT64_MAX)
		return 0;
	if (s->stall_ref != since) {
		s->stall_ref = since;
		s->stall_wait0 = w;
		return 0;
	}
	w -= s->stall_wait0;
	return w < limit_ns ? w : limit_ns;
}

int cxd_post_stalled(struct cxd_sess *s, uint64_t *last_change_ns,
		     const char *what)
{
	uint64_t now = cxd_now_ns(), allow, waited;
	char alive[192] = "", busy[96] = "";
	int ret;

	cxd_sess_beat(s);
	if (cxd_sig_pending())
		return cxd_sess_fail(s, -EINTR, "interrupted by %s during %s",
				     cxd_sig_name(cxd_sig_pending()),
				     cxd_sess_phase(s));
	if (now - *last_change_ns < 100000000ULL)
		return 0;
	/* Stalled for 100 ms: is the peer still there? */
	ret = s->via->check(s);
	if (ret)
		return ret;
	allow = cxd_post_allow_ms(s, s->inflight_bytes);
	waited = host_wait_ns(s, *last_change_ns, allow * 1000000ULL);
	if (now - *last_change_ns <= allow * 1000000ULL + waited)
		return 0;
	/* The peer answered the check above: it is the data path. */
	if (s->via->separate)
		snprintf(alive, sizeof(alive), " although it is alive");
	if (waited)
		snprintf(busy, sizeof(busy), ", and %.1f s more while this "
			 "process waited for a CPU", (double) waited / 1e9);
	/* The peer named as every stall message names it (the sweep's
	 * aggressors stall here with a full queue, or in their drain) */
	return cxd_sess_fail(s, -ETIMEDOUT, "no %s to %s completed for %.1f "
			     "s during %s%s: the fabric path stopped moving "
			     "data (the limit for %llu bytes in flight is "
			     "--timeout %llu s plus 1 s per MB%s)", what,
			     cxd_sess_who(s),
			     (double) (now - *last_change_ns) / 1e9,
			     cxd_sess_phase(s), alive,
			     (unsigned long long) s->inflight_bytes,
			     (unsigned long long) s->timeout_ms / 1000, busy);
}

static int tx_error(struct cxd_sess *s)
{
	char msg[256];
	/* Often the peer went away on purpose: its reason is the better one. */
	int ret = s->via->why(s);

	if (ret)
		return ret;

	cxd_fabric_tx_error(s->fab, msg, sizeof(msg));
	return cxd_sess_fail(s, -EIO, "with %s, during %s: %s",
			     cxd_sess_who(s), cxd_sess_phase(s), msg);
}

int cxd_post_spin_check(struct cxd_sess *s, struct cxd_spin *w,
			uint64_t progress)
{
	if (w->changed == 0 || progress != w->last) {
		w->last = progress;
		w->changed = cxd_now_ns();
	}
	return cxd_post_stalled(s, &w->changed, w->what);
}

int cxd_post_wait(struct cxd_sess *s)
{
	struct fid_cntr *c = s->fab->tx_cntr;
	struct cxd_spin w = CXD_SPIN("operation");
	uint64_t v, target = s->cntr_target;
	unsigned rounds = 0;
	int ret;

	cxd_sess_beat(s);
	while ((v = fi_cntr_read(c)) < target) {
		if (!cxd_post_spin_due(&rounds))
			continue;
		if (fi_cntr_readerr(c) != s->cntr_errs)
			return tx_error(s);
		ret = cxd_post_spin_check(s, &w, v);
		if (ret)
			return ret;
	}
	return 0;
}

int cxd_post_retry(struct cxd_sess *s, uint64_t size, uint64_t loff,
		   uint64_t roff)
{
	struct cxd_spin w = CXD_SPIN("operation");
	uint64_t flags = s->op_flags;
	unsigned rounds = 0;
	int ret;

	/* The retried operation goes without FI_MORE: whatever the provider
	 * held back for the rest of the list must now go out, or the
	 * completions that free the queue never come. */
	s->op_flags &= ~FI_MORE;
	while ((ret = s->post(s, size, loff, roff)) == -FI_EAGAIN) {
		/* Queue full: completions free slots; bound the wait. */
		ret = s->ops->progress(s);
		if (ret == 0 && cxd_post_spin_due(&rounds))
			ret = cxd_post_spin_check(s, &w, 0);
		if (ret) {
			s->op_flags = flags;
			return ret;
		}
	}
	s->op_flags = flags;
	return ret ? cxd_post_failed(s, ret, size) : 0;
}

int cxd_post_failed(struct cxd_sess *s, int ret, uint64_t size)
{
	return cxd_sess_fail(s, ret, "posting a %llu-byte %s to %s failed "
			     "during %s: %s", (unsigned long long) size,
			     s->tool->noun_lower, cxd_sess_who(s),
			     cxd_sess_phase(s), fi_strerror(-ret));
}

int cxd_post_batch(struct cxd_sess *s, uint64_t size, uint64_t n)
{
	return cxd_post_batch_with(s, size, n, s->post);
}

int cxd_post_list(struct cxd_sess *s, uint64_t size, uint64_t n)
{
	int ret = cxd_post_batch(s, size, n);

	return ret ? ret : cxd_post_wait(s);
}

int cxd_post_one(struct cxd_sess *s, uint64_t size)
{
	int ret = s->post(s, size, 0, 0);

	if (ret && (ret = cxd_post_retry(s, size, 0, 0)) != 0)
		return ret;
	s->cntr_target++;
	return cxd_post_wait(s);
}

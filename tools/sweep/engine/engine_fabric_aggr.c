/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --congestion: the aggressors' traffic, posted through the
 * pair tools' operation hooks (write, read) on the libfabric engine's
 * endpoint.
 * Where ranks outnumber a host's CPUs, waits sleep between polls rather
 * than spin: a victim starved of CPU would read as a congested fabric.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include <rdma/fi_domain.h>

#include "sweep/congest/congest.h"
#include "engine_fabric_state.h"
#include "session/post.h"

/* Between completion polls on a crowded host: a shaped or shared link
 * drains far slower than this, and the sockets' buffers keep it busy. */
#define POLL_NS 1000000L

/* An aggressor's operation (write, or read) aimed at rank, sized. */
static void aim_at(struct sw_fab *f, int rank, bool read)
{
	const struct sw_ctx *c = f->c;
	struct cxd_sess *s = &f->s;

	sw_fab_aim(f, rank, "aggressor");
	s->tool = read ? f->read_tool : f->bw_tool;
	s->ops = s->tool->ops;
	s->run = &c->bw_run;
	cxd_post_prepare(s, c->bw_run.min_size);
}

/*
 * Lists in flight per aggressor: a rank that waits for the CPU (or for
 * its target's progress) still leaves data queued at the bottleneck.
 */
#define DEPTH 4

/* Until at most left operations are outstanding, napping between polls
 * on a crowded host; bounded by the pair tools' stall rule (--timeout
 * plus 1 s per MB in flight). */
static int drain(struct cxd_sess *s, bool crowded, uint64_t left)
{
	uint64_t last = 0, changed = cxd_now_ns(), v;
	uint64_t limit = cxd_post_allow_ms(s, DEPTH * s->run->min_size *
					   s->run->list_size) * 1000000ULL;

	while ((v = fi_cntr_read(s->fab->tx_cntr)) + left < s->cntr_target) {
		if (fi_cntr_readerr(s->fab->tx_cntr) != s->cntr_errs) {
			cxd_fabric_tx_error(s->fab, s->err, sizeof(s->err));
			return -EIO;
		}
		if (v != last) {
			last = v;
			changed = cxd_now_ns();
		} else if (cxd_now_ns() - changed > limit) {
			return cxd_sess_fail(s, -ETIMEDOUT, "no operation "
					     "to %s completed in %llu ms",
					     cxd_sess_who(s),
					     (unsigned long long) (limit /
								   1000000));
		}
		if (crowded)
			sw_nap(POLL_NS);
	}
	return 0;
}

/* Whom this aggressor sends to (or reads from) now; -1: none, it only
 * keeps its endpoint progressing (the root of incast and broadcast). */
static int target(const struct sw_aggr *a, uint64_t iter)
{
	int na = a->na, i = a->aidx;

	if (a->phase == CXD_CG_ALLTOALL)
		return a->aggressors[(i + 1 + (int) (iter %
					  (uint64_t) (na - 1))) % na];
	return i == 0 ? -1 : a->aggressors[0];
}

static bool stopped(MPI_Request *stop, uint64_t until_ns)
{
	int flag = 0;

	if (stop == NULL)
		return cxd_now_ns() >= until_ns;
	MPI_Test(stop, &flag, MPI_STATUS_IGNORE);
	return flag != 0;
}

void sw_fab_aggress(struct sw_engine *e, const struct sw_aggr *a,
		    MPI_Request *stop, uint64_t until_ns)
{
	struct sw_fab *f = e->state;
	const struct sw_ctx *c = f->c;
	struct cxd_sess *s = &f->s;
	uint64_t bound = cxd_now_ns() + a->bound_ns + CXD_CG_SETTLE_NS;
	uint64_t n = c->bw_run.list_size;
	bool read = a->phase == CXD_CG_READBCAST;
	int ret = 0;

	for (uint64_t it = 0; ret == 0 && !stopped(stop, until_ns); it++) {
		int t = target(a, it);

		if (stop && cxd_now_ns() > bound)
			sw_die(&c->m, "the victims did not finish the %s phase "
			       "within %llu s", cxd_cg_phase_name(a->phase),
			       (unsigned long long) (a->bound_ns /
						     1000000000ULL));
		if (t < 0) {
			(void) s->ops->progress(s);
			if (a->crowded)
				sw_nap(POLL_NS);
			continue;
		}
		if (it == 0 || a->phase == CXD_CG_ALLTOALL)
			aim_at(f, t, read);
		ret = cxd_post_batch(s, c->bw_run.min_size, n);
		if (ret == 0)
			ret = drain(s, a->crowded, (DEPTH - 1) * n);
	}
	if (ret == 0) /* nothing left in flight when the phase ends */
		ret = drain(s, a->crowded, 0);
	if (ret)
		sw_die(&c->m, "aggressor in the %s phase: %s",
		       cxd_cg_phase_name(a->phase), s->err);
}

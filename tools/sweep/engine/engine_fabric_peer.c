/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's peer for the libfabric engine: the partner rank, reached
 * with MPI messages; every wait is bounded, and a rank that does not
 * answer is named. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "base/stats.h"
#include "engine_fabric_state.h"

static struct sw_fab *fab_of(const struct cxd_sess *s)
{
	return s->via_arg;
}

void sw_fab_aim(struct sw_fab *f, int p, const char *role)
{
	struct cxd_sess *s = &f->s;

	f->partner = p;
	f->role = role;
	snprintf(f->peer_host, sizeof(f->peer_host), "%s", f->c->ranks[p].host);
	snprintf(f->who, sizeof(f->who), "the %s rank %d (%.100s)", role, p,
		 f->c->ranks[p].host);
	s->who = f->who;
	s->peer = f->addrs[p];
	s->fab->peer = f->fiaddr[p];
}

/* The pair's waits keep this rank's provider moving: the partner's
 * operations may need it (tcp and shm progress only when called). */
void sw_fab_progress(void *arg)
{
	struct sw_fab *f = arg;

	if (f->s.fab)
		(void) f->s.ops->progress(&f->s);
}

/*
 * Both sides of the pair send, then receive: a barrier or an exchange.
 * Only the wait behind the partner's timed loop may be long (-n, -D);
 * every other step follows at once, so a silent partner there is
 * stalled after CXD_SWEEP_LATE_S.
 */
static int pair_swap(struct cxd_sess *s, enum sw_tag tag, const void *mine,
		     void *theirs, int len, const char *phase)
{
	struct sw_fab *f = fab_of(s);
	uint64_t bound = strcmp(phase, "the timed loop") == 0 ?
			 f->c->m.wait_ns : CXD_SWEEP_LATE_S * 1000000000ULL;

	if (sw_pair_swap(f->partner, tag, mine, theirs, len, bound,
			 sw_fab_progress, f) != 0)
		return cxd_sess_fail(s, -ETIMEDOUT, "rank %d (%s) did not "
				     "answer within %llu s during %s of round "
				     "%d", f->partner, f->peer_host,
				     (unsigned long long) (bound /
							   1000000000ULL),
				     phase, f->round);
	return 0;
}

static int mpi_barrier(struct cxd_sess *s, const char *phase)
{
	int mine = 1, theirs = 0;

	return pair_swap(s, SW_TAG_BARRIER, &mine, &theirs, sizeof(int),
			 phase);
}

static int mpi_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		     struct cxd_result_msg *theirs)
{
	return pair_swap(s, SW_TAG_SHARE, mine, theirs, sizeof(*mine),
			 "the result exchange");
}

static int mpi_swap_addr(struct cxd_sess *s, const struct cxd_addr_msg *mine,
			 struct cxd_addr_msg *theirs)
{
	return pair_swap(s, SW_TAG_ADDR, mine, theirs, sizeof(*mine),
			 "the address exchange");
}

/* The leading side's figures go to the measurement that asked for them
 * (sw_fab's fig, set for one run): MB/s, or latency in us. */
static int mpi_result(struct cxd_sess *s, struct cxd_report *rep,
		      const struct cxd_result *res)
{
	struct sw_fig *fig = fab_of(s)->fig;

	(void) rep;
	if (!s->is_client || fig == NULL)
		return 0;
	fig->is_lat = res->lat != NULL;
	if (res->lat) {
		fig->v = (double) cxd_stats_percentile_ns(res->lat, 50) / 1e3;
		fig->mean_us = (double) cxd_stats_mean_ns(res->lat) / 1e3;
		fig->p99_us =
			(double) cxd_stats_percentile_ns(res->lat, 99) / 1e3;
		fig->p999_us =
			(double) cxd_stats_percentile_ns(res->lat, 99.9) / 1e3;
	} else {
		fig->v = res->bw_mb_s;
	}
	return 0;
}

/*
 * Every rank writes and is written to (both roles). A partner that dies
 * ends the job (the launcher aborts every rank), one that stalls is named
 * by pair_swap's bound, and sw_die's message reaches the launcher's
 * output: nothing to poll, tell or watch, no watchdog to feed (the
 * partner is named in s->who). With no control connection to
 * follow, the provider picks the local interface (-d names one).
 */
const struct cxd_peer_ops sw_peer_mpi = {
	.both_roles = true, .separate = true,
	.barrier = mpi_barrier, .share = mpi_share,
	.swap_addr = mpi_swap_addr, .result = mpi_result,
	.name = cxd_peer_no_name, CXD_PEER_QUIET_HOOKS,
};

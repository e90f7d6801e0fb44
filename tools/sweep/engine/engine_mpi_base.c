/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI engine's rules, under both builds' halves (engine_mpi_state.h): how
 * long a step may wait, how a failed one is said, and the options the
 * engine refuses.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "engine_mpi_state.h"

/* How long a step may wait for the partner: --timeout, plus 1 s per MB
 * in flight (the pair tools' liveness rule), plus the pair's slack. */
uint64_t em_bound_ns(const struct em *m, uint64_t bytes)
{
	return ((uint64_t) m->c->cfg.local.timeout_s + bytes / 1000000 + 1) *
	       1000000000ULL;
}

int em_fail(struct em *m, int peer, const char *what)
{
	snprintf(m->why, sizeof(m->why), "rank %d (%.100s) did not %s within "
		 "the bound", peer, m->c->ranks[peer].host, what);
	return -ETIMEDOUT;
}

/* An MPI count is an int: a message (the simulated build: a window,
 * em_post) of more bytes is refused, not wrapped. */
static int em_check_count(const struct cxd_run_opts *r, bool one_message,
			  char *err, size_t len)
{
	uint64_t win = one_message ? r->list_size : 1;

	if (r->max_size * win <= INT_MAX)
		return 0;
	if (win == 1)
		snprintf(err, len, "-s %llu: more than --engine mpi can send "
			 "in one message (%d bytes, an MPI count)",
			 (unsigned long long) r->max_size, INT_MAX);
	else
		snprintf(err, len, "-s %llu with -l %llu: a window of %llu "
			 "bytes, which the simulated build sends as one "
			 "message; at most %d (an MPI count)",
			 (unsigned long long) r->max_size,
			 (unsigned long long) r->list_size,
			 (unsigned long long) (r->max_size * win), INT_MAX);
	return -EINVAL;
}

/* What only a libfabric endpoint has; said, not silently dropped. */
int em_check(const struct cxd_cfg *c, bool window_is_message, char *err,
	     size_t len)
{
	const char *opt = c->local.device[0] ? "-d" :
		c->local.provider[0] ? "--provider" :
		c->local.svc_id_set ? "-v" :
		c->run.tclass ? "--tclass" :
		c->run.flags & CXD_RUN_DURATION ? "-D" :
		c->local.given & CXD_GIVEN_HEALTH ? "--health" :
		c->sweep.cg_flags & CXD_CG_ON ? "--congestion" :
		c->sweep.cg_flags & CXD_CG_AGGR_ONLY ? "--aggressors-only" :
		NULL;

	if (opt == NULL)
		return em_check_count(&c->run, window_is_message, err, len);
	snprintf(err, len, "%s does not apply to --engine mpi (MPI picks "
		 "the network and counts messages; use --engine fabric)",
		 opt);
	return -EINVAL;
}

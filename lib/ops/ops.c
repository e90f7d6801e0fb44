/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules shared by the operations' posting code and the summary. */
#include "base/amo.h"
#include "session/session.h"
#include "ops.h"

bool cxd_ops_injects(const struct cxd_ops *ops, const struct cxd_run_opts *run,
		     uint64_t size, uint64_t inject_size)
{
	uint64_t cap = inject_size;

	if (ops->facts.inject_cap && ops->facts.inject_cap < cap)
		cap = ops->facts.inject_cap;
	/* -R sends go by rendezvous: no inject (the originals' rule). */
	if (!ops->facts.injects || cxd_run_has(run, CXD_RUN_NO_IDC) ||
	    cxd_run_has(run, CXD_RUN_RDZV))
		return false;
	if (ops->facts.amo && cxd_amo_returns_old(run->amo_op,
					     cxd_run_has(run, CXD_RUN_FETCHING)))
		return false;
	return size <= cap;
}

/* Rules shared by the operations' posting code and the summary. */
#include "cxd/amo.h"
#include "cxd/session.h"

/* Fetching and compare atomics return the old value: never injected. */
static bool amo_fetches(const struct cxd_run_opts *run)
{
	return cxd_run_has(run, CXD_RUN_FETCHING) ||
	       run->amo_op == CXD_AMO_CSWAP || run->amo_op == CXD_AMO_AXOR;
}

bool cxd_ops_injects(const struct cxd_ops *ops, const struct cxd_run_opts *run,
		     uint64_t size, uint64_t inject_size)
{
	uint64_t cap = inject_size;

	if (ops->inject_cap && ops->inject_cap < cap)
		cap = ops->inject_cap;
	/* -R sends go by rendezvous: no inject (the originals' rule). */
	if (!ops->injects || cxd_run_has(run, CXD_RUN_NO_IDC) ||
	    cxd_run_has(run, CXD_RUN_RDZV))
		return false;
	if (ops->amo && amo_fetches(run))
		return false;
	return size <= cap;
}

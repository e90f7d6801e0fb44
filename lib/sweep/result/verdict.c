/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's verdict (verdict.h): decided once, named and mapped to an
 * exit status here, so the text, the JSON and the exit cannot disagree. */
#include "sweep/capacity/capacity.h"
#include "sweep/judge/judge.h"
#include "out_types.h"
#include "verdict.h"

bool cxd_verdict_baseline_poor(const struct cxd_sweep_res *r, int m)
{
	const struct cxd_rules *rules = r->judged.rules;

	return r->in.base && rules->base[m] && rules->base_poor[m];
}

/* A suspect the latency fit named: its pairs add beyond the run's bound
 * though none need break the links' own tolerance. */
static bool lat_named(const struct cxd_sweep_res *r)
{
	for (size_t i = 0; i < r->suspects.n; i++)
		if (r->suspects.list[i].lat_excess > 0)
			return true;
	return false;
}

enum cxd_verdict cxd_verdict_of(const struct cxd_sweep_res *r)
{
	if (r->outliers.nout_all || (r->cap && r->cap->nfound) ||
	    lat_named(r))
		return CXD_V_FAIL;
	if (r->outliers.nbusy_all || cxd_judge_too_busy(&r->judged) ||
	    (r->cap && (r->cap->nunsure || r->cap->nneeds ||
			r->cap->nunproven)))
		return CXD_V_INCONCLUSIVE;
	for (int m = 0; m < 2; m++)
		if (r->judged.rules->tol[m].poor ||
		    cxd_verdict_baseline_poor(r, m))
			return CXD_V_INCONCLUSIVE;
	return CXD_V_PASS;
}

const char *cxd_verdict_name(enum cxd_verdict v)
{
	return v == CXD_V_PASS ? "PASS" : v == CXD_V_FAIL ? "FAIL" :
	       "INCONCLUSIVE";
}

enum cxd_exit cxd_verdict_exit(enum cxd_verdict v)
{
	return v == CXD_V_FAIL ? CXD_EXIT_OUTLIERS :
	       v == CXD_V_INCONCLUSIVE ? CXD_EXIT_INCONCLUSIVE : CXD_EXIT_OK;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's verdict, its one home: the decision, its name, its exit
 * status (its enum stands beside the result, in out_types.h). */
#ifndef CXD_SWEEP_VERDICT_H
#define CXD_SWEEP_VERDICT_H

#include <stdbool.h>

#include "base/exit_codes.h"
#include "out_types.h"

/* PASS, FAIL (confirmed outliers) or INCONCLUSIVE (none, but a metric's
 * resolution is too poor to vouch for the links, a baseline too noisy to
 * compare against, or a link could not be retested on a quiet host). */
enum cxd_verdict cxd_verdict_of(const struct cxd_sweep_res *r);
/* Metric m compared with a baseline too noisy to vouch for a link. */
bool cxd_verdict_baseline_poor(const struct cxd_sweep_res *r, int m);
/* "PASS", "FAIL", "INCONCLUSIVE": the text's and the JSON's word. */
const char *cxd_verdict_name(enum cxd_verdict v);
/* The exit status: CXD_EXIT_OK, _OUTLIERS or _INCONCLUSIVE. */
enum cxd_exit cxd_verdict_exit(enum cxd_verdict v);

#endif

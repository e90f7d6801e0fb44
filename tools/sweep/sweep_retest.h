/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the retest of the flagged links (sweep_retest.c). */
#ifndef CXD_SWEEP_RETEST_PASS_H
#define CXD_SWEEP_RETEST_PASS_H

#include "judging.h"
#include "pair.h"

/* Every rank: retest the flagged pairs once (all repeats again) and keep
 * its flags whose retest breaks a rule too; mt->fig then holds each
 * link's latest figures. Collective. */
void sw_retest(struct sw_judging *j, const struct sw_ctx *c,
	       struct sw_pacing *p, struct sw_meter *mt);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget in the outputs (out_budget.c): what the plan
 * covered (components by kind, pairs, rounds, probes per link line),
 * what it tells apart and what not, the uncovered, the time against
 * the budget, what the naming explained. Nothing without --budget.
 */
#ifndef CXD_SWEEP_OUT_BUDGET_H
#define CXD_SWEEP_OUT_BUDGET_H

#include <stdio.h>

#include <json-c/json.h>

#include "sweep/judge/judge_budget.h"
#include "out_types.h"

/* The "Budget:" lines of the text report. */
void cxd_out_budget_text(const struct cxd_sweep_res *r, FILE *out);
/* The JSON's "budget" object; NULL without --budget. */
json_object *cxd_out_budget_json(const struct cxd_sweep_res *r);
/* The links the run measured: each pair's two directions, every pair
 * of the job without --budget. */
long cxd_out_budget_links(const struct cxd_sweep_res *r);
/* A plan component's words: "nid0003 (rank 3)", "switch g1s1", "the
 * links between switches g0s0 and g1s0", "the links between groups g0
 * and g1". */
void cxd_out_budget_comp(const struct cxd_sweep_res *r, int comp,
			 char *buf, size_t len);

#endif

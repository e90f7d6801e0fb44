/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's text report (out_text.c), and a suspect's name. */
#ifndef CXD_SWEEP_OUT_TEXT_H
#define CXD_SWEEP_OUT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sweep/judge/judge_suspects.h"
#include "out_types.h"

/* The report: figures, resolution, baseline, outliers, suspects, verdict. */
void cxd_out_text(const struct cxd_sweep_res *r, FILE *out);

/* "vm3 (rank 2, swp0)", "switch x1 (ranks 2, 3)", "the fabric". */
void cxd_out_suspect_name(const struct cxd_sweep_res *r,
			  const struct cxd_suspect *s, char *buf, size_t len);
/* Rank i is named by a suspect (alone, or by its switch or group). */
bool cxd_out_rank_suspect(const struct cxd_sweep_res *r, int i);
/* A component a suspect cannot be told apart from, short: "switch x1",
 * "group g4", "the links between groups g0 and g1". */
void cxd_out_alike_name(const struct cxd_sweep_res *r,
			const struct cxd_alike *a, char *buf, size_t len);

#endif

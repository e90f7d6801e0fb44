/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion's outputs on rank 0 (congest_out.c). */
#ifndef CXD_CONGEST_OUT_H
#define CXD_CONGEST_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "congest.h"

/* "Verdict: ..." (no newline): the worst set impact, and below
 * CXD_CG_MEANINGFUL ranks or on shared hosts, that it is a hint only. */
void cxd_cg_verdict(const struct cxd_cg_res *r, char *buf, size_t len);
void cxd_cg_write_text(const struct cxd_cg_res *r, FILE *out);
/* The sweep's JSON file with the key "congestion". */
int cxd_cg_write_json(const struct cxd_cg_res *r, const char *path,
		      char *err, size_t errlen);

#endif

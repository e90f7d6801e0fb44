/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's text report: the resolution block (out_text_res.c). */
#ifndef CXD_SWEEP_OUT_TEXT_RES_H
#define CXD_SWEEP_OUT_TEXT_RES_H

#include <stdio.h>

#include "out_types.h"

/* The Resolution: block: noise and tolerance, latency's typical link by
 * class, the calibration by class. */
void cxd_out_text_resolution(const struct cxd_sweep_res *r, FILE *out);
/* The cause of an INCONCLUSIVE verdict for crowding: by how much, and
 * the class most crowded. */
void cxd_out_text_crowded_why(const struct cxd_sweep_res *r, FILE *out);

#endif

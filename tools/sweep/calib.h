/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the concurrency calibration (calib.c). */
#ifndef CXD_SWEEP_CALIB_H
#define CXD_SWEEP_CALIB_H

#include "pair.h"

/* With more than one pair at once: a sample of a round's pairs measured
 * again alone. Collective; rank 0 gets each rank's ratio (alone / in
 * the round, NAN none; its to free), the others NULL. */
double *sw_calibrate(const struct sw_ctx *c, struct sw_pacing *p,
		     struct sw_meter *mt);

#endif

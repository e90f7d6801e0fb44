/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the concurrency calibration (calib.c). */
#ifndef CXD_SWEEP_CALIB_H
#define CXD_SWEEP_CALIB_H

#include <stdbool.h>

#include "sweep/model/lclass.h"
#include "pace/pair.h"

/* Rank 0's: each rank's link measured alone against its rounds, per
 * metric (ratio[CXD_M_*]: how much better alone, bandwidth alone /
 * rounds and latency rounds / alone; NAN none) and that link's class
 * (cls, -1 none). */
struct sw_calib {
	double *ratio[2];
	int *cls;
};

/* With more than one pair at once: a sample of every class of link
 * measured again alone (calib.c), in a mode of its own (the sweep's
 * pacing is not needed). Collective; rank 0 gets the figures
 * (sw_calib_free releases them), the others nothing. */
void sw_calibrate(struct sw_calib *out, const struct sw_ctx *c,
		  struct sw_meter *mt);
void sw_calib_free(struct sw_calib *cb);
/* Did the pairs across groups (leaves) crowd each other, beyond what a
 * width measured with a few of them showed (a fat tree's static hashing
 * can pile pairs on one spine)? Then by how much (the median of those
 * pairs' alone / at once - 1), else NAN; every rank gets rank 0's
 * answer (collective), for the pacing to narrow (sw_pacing_narrow). */
double sw_calib_crowd(const struct sw_ctx *c, const struct sw_calib *cb);

#endif

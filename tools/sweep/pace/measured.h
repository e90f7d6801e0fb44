/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: this rank's figures, for the links it led: every repeat,
 * then per link the median, the spread of the repeats and the share of
 * the pair's time spent waiting for a CPU. The pair runs fill them
 * (pair.c), the judging reads them.
 */
#ifndef CXD_SWEEP_MEASURED_H
#define CXD_SWEEP_MEASURED_H

#include <stdint.h>

#include "mpi/mpi_util.h"

struct sw_measured {
	int n;                 /* ranks: one link to each */
	uint64_t repeat;
	double *rep[2];        /* per metric, repeat k of the link to p at
				* [p * repeat + k] */
	double *bw_row, *lat_row; /* medians of the repeats */
	double *spread[2];     /* (max - min) / median of the repeats, % */
	double noise[2];       /* median relative difference of repeats */
	double *busy_row;      /* share of each pair's time spent waiting
				* for a CPU (this rank's side), NAN unknown */
};

void sw_measured_init(struct sw_measured *f, const struct sw_mpi *m,
		      uint64_t repeat);
/* Forget every figure (before a pass). */
void sw_measured_reset(struct sw_measured *f);
/* The medians, spreads and noise from the repeats (or sw_die). */
void sw_measured_stats(struct sw_measured *f, const struct sw_mpi *m);
void sw_measured_free(struct sw_measured *f);

#endif

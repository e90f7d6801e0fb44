/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --matrix FILE (outputs_matrix.c): each rank writes its own
 * record and rows at their offsets with MPI-IO.
 */
#ifndef CXD_SWEEP_OUTPUTS_MATRIX_H
#define CXD_SWEEP_OUTPUTS_MATRIX_H

#include <stdbool.h>

#include <mpi.h>

#include "engine/context.h"
#include "pace/measured.h"

struct sw_matrix {
	MPI_File fh;
	bool open;
};

/* Opened (and truncated) before any traffic: 0, or 2 on every rank
 * when it cannot be written. Nothing to do without --matrix. */
int sw_matrix_open(struct sw_matrix *x, const struct sw_ctx *c);
/* Every rank's record and rows (f's latest figures; tol: the run's
 * tolerances): 0, or 1 on every rank with rank 0 saying why. */
int sw_matrix_write(struct sw_matrix *x, const struct sw_ctx *c,
		    const struct sw_measured *f, const double tol[2]);
/* A run that ended before writing it. */
void sw_matrix_close(struct sw_matrix *x);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's outputs and evidence, kept open across the sweep: the
 * --matrix file (outputs_matrix.h, opened before any traffic), the link
 * error counters around the sweep (health.c), and the files rank 0
 * writes from the report, one writer per option (outputs.c).
 */
#ifndef CXD_SWEEP_OUTPUTS_H
#define CXD_SWEEP_OUTPUTS_H

#include "sweep/result/out.h"
#include "engine/context.h"
#include "engine/engine.h"
#include "pace/measured.h"
#include "outputs_matrix.h"

struct sw_ctrs;

struct sw_outputs {
	struct sw_ctrs *ctrs;  /* health.c: counters around the sweep */
	struct sw_matrix matrix; /* --matrix, open from before the traffic */
};

/* Before any traffic: --matrix created (0, or 2 on every rank when it
 * cannot be), then the counters' first reading. Collective. */
int sw_outputs_open(struct sw_outputs *o, const struct sw_ctx *c,
		    struct sw_engine *e);
/* After the traffic: the counters read again, what moved at rank 0. */
void sw_outputs_evidence(struct sw_outputs *o, const struct sw_ctx *c);
/* Every rank writes its --matrix record and rows (f's latest figures;
 * tol: the run's tolerances), then rank 0 (r: its report, NULL
 * elsewhere) each file an option asks for. 0, or 1 with the reason
 * said. Collective. */
int sw_outputs_write(struct sw_outputs *o, const struct sw_ctx *c,
		     const struct sw_measured *f, const double tol[2],
		     const struct cxd_sweep_res *r);
void sw_outputs_free(struct sw_outputs *o);

#endif

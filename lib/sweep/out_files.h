/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's files for site tooling (out_files.c): metrics, suspects. */
#ifndef CXD_SWEEP_OUT_FILES_H
#define CXD_SWEEP_OUT_FILES_H

#include <stddef.h>

#include "out_types.h"

/* OpenMetrics text (Prometheus' textfile collector reads it): every link
 * where the matrices were gathered (bw not NULL), each rank's median. */
int cxd_out_metrics(const struct cxd_sweep_res *r, const char *path,
		    char *err, size_t errlen);
/* The hosts of the suspects, one per line (scontrol ... state=drain). */
int cxd_out_suspects(const struct cxd_sweep_res *r, const char *path,
		     char *err, size_t errlen);

#endif

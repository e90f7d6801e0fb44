/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's files for site tooling (out_files.c): metrics, suspects;
 * and how every file of the outputs is written. */
#ifndef CXD_SWEEP_OUT_FILES_H
#define CXD_SWEEP_OUT_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "out_types.h"

/* OpenMetrics text (Prometheus' textfile collector reads it): every link
 * where the matrices were gathered (bw not NULL), each rank's median. */
cxd_out_writer_fn cxd_out_metrics;
/* The hosts of the suspects, one per line (scontrol ... state=drain). */
cxd_out_writer_fn cxd_out_suspects;

/* A file's contents from arg. */
typedef void cxd_out_body_fn(const void *arg, FILE *f);
/* The file at path written whole or not at all (a reader never sees
 * half a file): body's text, committed; what names it in err. */
int cxd_out_write(const char *path, const char *what,
		  cxd_out_body_fn *body, const void *arg, char *err,
		  size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --metrics FILE on the pair tools: the run's figures per size in
 * Prometheus' text format, for node_exporter's textfile collector. The
 * file is replaced whole (base/afile.h). Base units: bytes per second
 * (MB = 10^6 bytes), seconds. Names and labels: docs/site.md.
 */
#ifndef CXD_REPORT_METRICS_H
#define CXD_REPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

struct cxd_metrics;

/* NULL when no file is asked or on no memory (then add and write say
 * so: -ENOMEM). */
struct cxd_metrics *cxd_metrics_new(const struct cxd_tool *tool,
				    const struct cxd_cfg *cfg,
				    const struct cxd_summary_info *info);
int cxd_metrics_add(struct cxd_metrics *m, const struct cxd_result *res);
/* The gate's outcome (--expect-bw MB_S, or --expect-lat US on the
 * median), written with the figures; never called: no gate families. */
void cxd_metrics_gate(struct cxd_metrics *m, bool lat, double bound,
		      bool pass, unsigned missed);
int cxd_metrics_write(struct cxd_metrics *m, char *err, size_t len);
void cxd_metrics_free(struct cxd_metrics *m);

#endif

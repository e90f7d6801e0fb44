/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one OpenMetrics (Prometheus text) writer, for every --metrics file
 * (the pair tools', the sweep's): a family's header in one order, label
 * values escaped, the closing line. The samples' values are the
 * callers' (each family has its own format).
 */
#ifndef CXD_BASE_OPENMETRICS_H
#define CXD_BASE_OPENMETRICS_H

#include <stdio.h>

/* A gauge family's header, "# HELP NAME HELP" then "# TYPE NAME gauge"
 * (HELP first, as the Prometheus text format's examples): every family
 * cxd writes is a gauge. */
void cxd_om_gauge(FILE *f, const char *name, const char *help);
/* NAME="VALUE", the value's backslash, double quote and newline escaped. */
void cxd_om_label(FILE *f, const char *name, const char *value);
/* "NAME{": a sample line's start, its labels (cxd_om_label, comma
 * separated) and "} VALUE\n" follow. */
void cxd_om_sample(FILE *f, const char *name);
/* "# EOF": an OpenMetrics document's last line. */
void cxd_om_eof(FILE *f);

#endif

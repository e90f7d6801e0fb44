/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMetrics writer (openmetrics.h). */
#include "openmetrics.h"

void cxd_om_gauge(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

void cxd_om_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=\"", name);
	for (; *value; value++) {
		if (*value == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*value == '\\' || *value == '"')
			fputc('\\', f);
		fputc(*value, f);
	}
	fputc('"', f);
}

void cxd_om_sample(FILE *f, const char *name)
{
	fprintf(f, "%s{", name);
}

void cxd_om_eof(FILE *f)
{
	fputs("# EOF\n", f);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the report's tests (test_report.c, test_report_json.c):
 * a report rendered into memory, and hand-built results. Linked into
 * every unit test (tests/tests.cmake).
 */
#ifndef CXD_TEST_REPORT_RENDER_H
#define CXD_TEST_REPORT_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

/* One rendering: a memory stream plus what the report needs. */
struct render {
	char *buf;
	size_t len;
	FILE *f;
	struct cxd_cfg cfg;
	struct cxd_summary_info info;
	struct cxd_report *rep;
	const struct cxd_tool *tool;
};

/* Opens r for TOOL in format fmt, as its client or its server. */
void render_open(struct render *r, const char *tool, int fmt, bool server);
void render_begin(struct render *r);
void render_result(struct render *r, const struct cxd_result *res);
/* Ends the report and closes the stream; r->buf holds everything. */
void render_end(struct render *r);
/* Begins the report, hands it the n results given (pointers to struct
 * cxd_result), in order, and ends it: r->buf then holds everything. */
void render_run(struct render *r, int n, ...);
void render_free(struct render *r);
/* A bandwidth row; hand-built latency moments (the row shows exactly
 * these min/max/mean/stddev; malloc'ed) and a latency row of them. */
struct cxd_result bw_res(uint64_t size, uint64_t count, double bw, double rate);
struct cxd_lat_stats *lat_stats(uint64_t n, uint64_t min, uint64_t max,
				uint64_t mean, uint64_t sd);
struct cxd_result lat_res(uint64_t size, const struct cxd_lat_stats *s);

#endif

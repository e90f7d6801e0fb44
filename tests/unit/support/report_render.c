/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit-test aid: reports rendered into memory (report_render.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report_render.h"

void render_open(struct render *r, const char *tool, int fmt,
			bool server)
{
	memset(r, 0, sizeof(*r));
	r->tool = cxd_tool_find(tool);
	assert_non_null(r->tool);
	r->f = open_memstream(&r->buf, &r->len);
	assert_non_null(r->f);
	r->cfg.role = server ? CXD_SERVER : CXD_CLIENT;
	r->cfg.out.format = fmt;
	r->cfg.run.iters = r->tool->def.iters;
	r->cfg.run.min_size = r->tool->def.size;
	r->cfg.run.max_size = r->tool->def.size;
	r->cfg.run.list_size = r->tool->def.list_size;
	r->info.is_server = server;
}

void render_begin(struct render *r)
{
	assert_int_equal(cxd_report_begin(&r->rep, r->tool, &r->cfg, &r->info,
					  r->f), 0);
	assert_non_null(r->rep);
}

void render_result(struct render *r, const struct cxd_result *res)
{
	assert_int_equal(cxd_report_result(r->rep, res), 0);
}

/* Ends the report and closes the stream; r->buf holds everything. */
void render_end(struct render *r)
{
	assert_int_equal(cxd_report_end(r->rep), 0);
	r->rep = NULL;
	assert_int_equal(fclose(r->f), 0);
	r->f = NULL;
}

/* Begins the report, hands it the n results given (pointers to struct
 * cxd_result), in order, and ends it: r->buf then holds everything. */
void render_run(struct render *r, int n, ...)
{
	va_list ap;

	render_begin(r);
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		render_result(r, va_arg(ap, const struct cxd_result *));
	va_end(ap);
	render_end(r);
}

void render_free(struct render *r)
{
	free(r->buf);
	r->buf = NULL;
}

struct cxd_result bw_res(uint64_t size, uint64_t count, double bw,
				double rate)
{
	struct cxd_result res;

	memset(&res, 0, sizeof(res));
	res.size = size;
	res.count = count;
	res.count_shown = true;
	res.elapsed_ns = 5000000000ull;
	res.bw_mb_s = bw;
	res.rate_m_s = rate;
	res.verify = -1;
	return res;
}

/* Hand-built moments: the row shows exactly these min/max/mean/stddev. */
struct cxd_lat_stats *lat_stats(uint64_t n, uint64_t min, uint64_t max,
				       uint64_t mean, uint64_t sd)
{
	struct cxd_lat_stats *s = malloc(sizeof(*s));

	assert_non_null(s);
	cxd_stats_reset(s);
	s->n = n;
	s->min_ns = min;
	s->max_ns = max;
	s->sum = (long double) mean * n;
	s->sum2 = ((long double) sd * sd + (long double) mean * mean) * n;
	assert_int_equal(cxd_stats_mean_ns(s), mean);
	assert_int_equal(cxd_stats_stddev_ns(s), sd);
	return s;
}

struct cxd_result lat_res(uint64_t size, const struct cxd_lat_stats *s)
{
	struct cxd_result res;

	memset(&res, 0, sizeof(res));
	res.size = size;
	res.count = s ? s->n : 0;
	res.count_shown = true;
	res.lat = s;
	res.verify = -1;
	return res;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* --expect-bw / --expect-lat on the pair tools: parsing, refusals, and the
 * verdict the report draws from each size (lib/report/gate.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report/report.h"
#include "support/argv_cfg.h"
#include "support/unit_main.h"

static void test_bounds_parse(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	argv_cfg_ok(&cfg, "cxi_write_bw", "--local", "--expect-bw", "35000",
		    NULL);
	assert_true(cfg.sweep.expect_bw == 35000.0);
	assert_true(cfg.sweep.expect_lat == 0.0);
	argv_cfg_ok(&cfg, "cxi_send_lat", "h", "--expect-lat=2.5", NULL);
	assert_true(cfg.sweep.expect_lat == 2.5);
	argv_cfg_ok(&cfg, "cxi_gpu_loopback_bw", "--expect-bw", "22500",
		    NULL);
	assert_true(cfg.sweep.expect_bw == 22500.0);
	argv_cfg_ok(&cfg, "cxi_atomic_lat", "--local", "--expect-lat", "9",
		    NULL);
	/* The sweep keeps both, from the same rows. */
	argv_cfg_ok(&cfg, "cxi_sweep", "--expect-bw", "1", "--expect-lat",
		    "2", NULL);
	assert_true(cfg.sweep.expect_bw == 1.0 && cfg.sweep.expect_lat == 2.0);
	/* Without them: no gate. */
	argv_cfg_ok(&cfg, "cxi_write_bw", "--local", NULL);
	assert_true(cfg.sweep.expect_bw == 0.0);
}

struct refusal {
	const char *tool;
	const char *args[4];
	const char *want;
};

static const struct refusal refusals[] = {
	{ "cxi_write_bw", { "--local", "--expect-bw", "fast" },
	  "Invalid expected bandwidth: 'fast'" },
	{ "cxi_write_bw", { "--local", "--expect-bw", "0" }, "'0'" },
	{ "cxi_read_bw", { "--local", "--expect-bw", "-5" }, "'-5'" },
	{ "cxi_send_bw", { "--local", "--expect-bw", "12x" }, "'12x'" },
	{ "cxi_write_bw", { "--local", "--expect-bw", "nan" }, "'nan'" },
	{ "cxi_write_bw", { "--local", "--expect-bw", "2e9" }, "'2e9'" },
	{ "cxi_write_lat", { "--local", "--expect-lat", "" },
	  "Invalid expected latency: ''" },
	/* The wrong gate for the tool: named, with the right one. */
	{ "cxi_send_lat", { "--local", "--expect-bw", "5" },
	  "'--expect-bw' is not for this tool: it bounds bandwidth; a "
	  "latency tool takes --expect-lat US" },
	{ "cxi_write_bw", { "--local", "--expect-lat=5" },
	  "'--expect-lat=5' is not for this tool: it bounds latency" },
	{ "cxi_gpu_loopback_bw", { "--expect-lat", "5" },
	  "it bounds latency" },
	/* A server prints no latency and its client judges the sizes. */
	{ "cxi_write_bw", { "--expect-bw", "5" },
	  "--expect-bw is a client option" },
	{ "cxi_read_lat", { "--expect-lat", "5" },
	  "--expect-lat is a client option" },
};

static void test_bounds_refused(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		char err[CXD_ERR_LEN];
		struct cxd_cfg cfg;
		int ret = argv_cfg_list(&cfg, err, r->tool, r->args);

		if (ret != -EINVAL || strstr(err, r->want) == NULL)
			fail_msg("%s %s %s: %d '%s', wanted '%s'", r->tool,
				 r->args[0], r->args[1] ? r->args[1] : "", ret,
				 err, r->want);
	}
}

/* A client's report of sizes 1 to n with the figures given. */
struct gate_run {
	char *buf;
	size_t len;
	bool missed;
};

static void run_report(struct gate_run *g, const char *tool, int fmt,
		       bool server, double bw_bound, double lat_bound,
		       const double *v, int n)
{
	const struct cxd_tool *t = cxd_tool_find(tool);
	struct cxd_summary_info info;
	struct cxd_lat_stats st[4];
	struct cxd_report *rep;
	struct cxd_cfg cfg;
	FILE *f;

	assert_non_null(t);
	memset(&cfg, 0, sizeof(cfg));
	memset(&info, 0, sizeof(info));
	cfg.role = server ? CXD_SERVER : CXD_CLIENT;
	cfg.out.format = fmt;
	cfg.run.min_size = 1;
	cfg.run.max_size = 1u << (n - 1);
	cfg.sweep.expect_bw = bw_bound;
	cfg.sweep.expect_lat = lat_bound;
	info.is_server = server;
	f = open_memstream(&g->buf, &g->len);
	assert_non_null(f);
	assert_int_equal(cxd_report_begin(&rep, t, &cfg, &info, f), 0);
	for (int i = 0; i < n && i < 4; i++) {
		struct cxd_result res;

		memset(&res, 0, sizeof(res));
		res.size = 1u << i;
		res.count = 10;
		res.count_shown = true;
		res.elapsed_ns = 1000;
		res.verify = -1;
		res.validated = -1;
		if (cxd_tool_is(t, CXD_TRAIT_SAMPLES)) {
			cxd_stats_reset(&st[i]);
			/* median v[i] us, one slow outlier the mean sees */
			for (int k = 0; k < 9; k++)
				cxd_stats_add(&st[i], (uint64_t) (v[i] * 1e3));
			cxd_stats_add(&st[i], 1000000);
			res.lat = server ? NULL : &st[i];
		} else {
			res.bw_mb_s = v[i];
		}
		assert_int_equal(cxd_report_result(rep, &res), 0);
	}
	g->missed = cxd_report_gate_missed(rep);
	assert_int_equal(cxd_report_end(rep), 0);
	assert_int_equal(fclose(f), 0);
}

/* A text report's gate: missed or not, its text holding want (NULL: no
 * Gate line at all). Frees the report. */
static void text_verdict(struct gate_run *g, bool missed, const char *want)
{
	assert_int_equal(g->missed, missed);
	if (want)
		assert_non_null(strstr(g->buf, want));
	else
		assert_null(strstr(g->buf, "Gate"));
	free(g->buf);
}

static void test_bw_verdicts(void **state)
{
	const double ok[] = { 1500.0, 2000.0, 2500.0 };
	const double one_low[] = { 1500.0, 999.99, 2500.0 };
	struct gate_run g;

	(void) state;
	run_report(&g, "cxi_write_bw", CXD_FMT_TEXT, false, 1000, 0, ok, 3);
	text_verdict(&g, false, "Gate             : PASS: 3 sizes within the "
		     "bound of 1000 MB/s (lowest 1500.00 MB/s at 1 B)\n");
	run_report(&g, "cxi_write_bw", CXD_FMT_TEXT, false, 1000, 0,
		   one_low, 3);
	assert_null(strstr(g.buf, "PASS"));
	assert_null(strstr(g.buf, "FAIL 1 B"));
	text_verdict(&g, true, "Gate             : FAIL 2 B: 999.99 MB/s, "
		     "below the bound of 1000 MB/s\n");
	/* The loopback tool's table is in Gb/s: both units named. */
	run_report(&g, "cxi_gpu_loopback_bw", CXD_FMT_TEXT, false, 22500, 0,
		   one_low, 1);
	text_verdict(&g, true, "FAIL 1 B: 1500.00 MB/s (12.00 Gb/s), below "
		     "the bound of 22500 MB/s (180.00 Gb/s)");
	/* No bound: no line, no verdict. */
	run_report(&g, "cxi_write_bw", CXD_FMT_TEXT, false, 0, 0, one_low, 3);
	text_verdict(&g, false, NULL);
}

/* The same figures under each latency bound, as client or server. */
static const struct lat_case {
	double bound;
	bool server, missed;
	const char *want;
} lat_cases[] = {
	/* The median (2, 3 us) is judged, not the mean the outlier lifts. */
	{ 3.0, false, false, "PASS: 2 sizes within the bound of 3 us "
	  "(highest median 3.00 us at 2 B)" },
	{ 2.5, false, true, "FAIL 2 B: median 3.00 us, above the bound of "
	  "2.5 us" },
	/* A server has no figures and judges nothing (its client does). */
	{ 2.5, true, false, NULL },
};

static void test_lat_verdicts(void **state)
{
	const double v[] = { 2.0, 3.0 };
	struct gate_run g;

	(void) state;
	for (size_t i = 0; i < sizeof(lat_cases) / sizeof(lat_cases[0]); i++) {
		const struct lat_case *c = &lat_cases[i];

		run_report(&g, "cxi_write_lat", CXD_FMT_TEXT, c->server, 0,
			   c->bound, v, 2);
		text_verdict(&g, c->missed, c->want);
	}
}

static void test_json_and_csv(void **state)
{
	const double v[] = { 1500.0, 999.5 };
	struct gate_run g;
	json_object *doc, *gate, *x, *m;

	(void) state;
	run_report(&g, "cxi_read_bw", CXD_FMT_JSON, false, 1000, 0, v, 2);
	assert_true(g.missed);
	doc = json_tokener_parse(g.buf);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "gate", &gate));
	assert_true(json_object_object_get_ex(gate, "verdict", &x));
	assert_string_equal(json_object_get_string(x), "FAIL");
	assert_true(json_object_object_get_ex(gate, "min", &x));
	assert_true(json_object_get_double(x) == 1000.0);
	assert_true(json_object_object_get_ex(gate, "sizes_checked", &x));
	assert_int_equal(json_object_get_int(x), 2);
	assert_true(json_object_object_get_ex(gate, "missed", &m));
	assert_int_equal(json_object_array_length(m), 1);
	x = json_object_array_get_idx(m, 0);
	assert_true(json_object_object_get_ex(x, "size", &m));
	assert_int_equal(json_object_get_int(m), 2);
	/* Not in the summary: the gate object alone holds it. */
	assert_null(strstr(g.buf, "\"Gate\""));
	json_object_put(doc);
	free(g.buf);
	/* CSV: the rows only on stdout (the verdict lines go to stderr). */
	run_report(&g, "cxi_read_bw", CXD_FMT_CSV, false, 1000, 0, v, 2);
	assert_true(g.missed);
	assert_null(strstr(g.buf, "Gate"));
	free(g.buf);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_bounds_parse),
	cmocka_unit_test(test_bounds_refused),
	cmocka_unit_test(test_bw_verdicts),
	cmocka_unit_test(test_lat_verdicts),
	cmocka_unit_test(test_json_and_csv))

/* SPDX-License-Identifier: BSD-3-Clause */
/* Report rendering: JSON and CSV (the text tables: test_report.c). */
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
#include "support/report_render.h"
#include "support/unit_main.h"

static json_object *parse_doc(const char *text)
{
	json_object *doc = json_tokener_parse(text);

	assert_non_null(doc);
	assert_true(json_object_is_type(doc, json_type_object));
	return doc;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static bool has(json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

static void check_identity(json_object *doc, const char *tool,
			   const char *role)
{
	assert_string_equal(json_object_get_string(get(doc, "tool")), tool);
	assert_string_equal(json_object_get_string(get(doc, "version")),
			    CXD_SUITE_VERSION);
	assert_non_null(strchr(json_object_get_string(get(doc, "libfabric")),
			       '.'));
	assert_string_equal(json_object_get_string(get(doc, "role")), role);
	assert_string_equal(json_object_get_string(get(doc, "provider")),
			    "tcp");
	assert_string_equal(json_object_get_string(get(doc, "device")), "lo");
	assert_string_equal(json_object_get_string(get(doc, "local_endpoint")),
			    "fi_sockaddr_in://127.0.0.1:5000");
	assert_string_equal(json_object_get_string(get(doc,
			    "remote_endpoint")), "");
	assert_string_equal(json_object_get_string(get(doc, "peer")),
			    "127.0.0.1:49194");
	/* The provider's inject limit: data here, not in the IDC line. */
	assert_int_equal(json_object_get_int64(get(doc, "inject_size")), 64);
}

static void fill_ids(struct cxd_summary_info *info)
{
	snprintf(info->provider, sizeof(info->provider), "tcp");
	snprintf(info->domain, sizeof(info->domain), "lo");
	snprintf(info->local_ep, sizeof(info->local_ep),
		 "fi_sockaddr_in://127.0.0.1:5000");
	snprintf(info->peer, sizeof(info->peer), "127.0.0.1:49194");
	info->inject_size = 64;
}

/* write_bw in duration mode, bidirectional, 2M huge pages. */
static void check_bw_options(json_object *opts)
{
	assert_int_equal(json_object_get_int64(get(opts, "duration_s")), 5);
	assert_false(has(opts, "iterations"));
	assert_int_equal(json_object_get_int64(get(opts, "min_size")), 65536);
	assert_int_equal(json_object_get_int64(get(opts, "max_size")), 65536);
	assert_int_equal(json_object_get_int64(get(opts, "list_size")), 256);
	assert_true(json_object_get_boolean(get(opts, "bidirectional")));
	assert_int_equal(json_object_get_int64(get(opts, "buf_sz")),
			 1ll << 32);
	assert_int_equal(json_object_get_int64(get(opts, "buf_align")), 64);
	assert_string_equal(json_object_get_string(get(opts, "hugepages")),
			    "2M");
	assert_false(has(opts, "warmup"));
	assert_false(has(opts, "report_all"));
}

static void test_json_bw(void **state)
{
	struct cxd_result a = bw_res(1024, 256000, 29314.66, 28.627597);
	struct cxd_result b = bw_res(2048, 0, 100.5, 2);
	json_object *doc, *res, *row;
	struct render r;

	(void) state;
	b.count_shown = false;
	b.elapsed_ns = 1500;
	render_open(&r, "cxi_write_bw", CXD_FMT_JSON, true);
	fill_ids(&r.info);
	cxd_kv_set(&r.info, "Device", "lo/with/slash");
	r.cfg.run.flags = CXD_RUN_DURATION | CXD_RUN_BIDIR;
	r.cfg.run.duration_s = 5;
	r.cfg.run.buf_sz = 1ull << 32;
	r.cfg.run.buf_align = 64;
	r.cfg.run.hugepages = CXD_HP_2M;
	render_begin(&r);
	render_result(&r, &a);
	render_result(&r, &b);
	/* Nothing is printed before the end. */
	fflush(r.f);
	assert_int_equal(r.len, 0);
	render_end(&r);
	assert_non_null(strstr(r.buf, "\"lo/with/slash\""));
	assert_non_null(strstr(r.buf, "29314.66,") ||
			strstr(r.buf, "29314.66\n"));
	assert_int_equal(r.buf[r.len - 1], '\n');
	doc = parse_doc(r.buf);
	check_identity(doc, "cxi_write_bw", "server");
	assert_string_equal(json_object_get_string(get(get(doc, "summary"),
			    "Device")), "lo/with/slash");
	check_bw_options(get(doc, "options"));
	res = get(doc, "results");
	assert_int_equal(json_object_array_length(res), 2);
	row = json_object_array_get_idx(res, 0);
	assert_int_equal(json_object_get_int64(get(row, "size")), 1024);
	assert_int_equal(json_object_get_int64(get(row, "count")), 256000);
	assert_true(json_object_is_type(get(row, "bw_mb_s"), json_type_double));
	assert_true(json_object_get_double(get(row, "bw_mb_s")) == 29314.66);
	assert_true(json_object_get_double(get(row, "pkt_rate_mpkt_s")) ==
		    28.627597);
	assert_true(json_object_get_double(get(row, "elapsed_us")) == 5e6);
	assert_false(has(row, "bw_gb_s"));
	assert_false(has(row, "verified"));
	row = json_object_array_get_idx(res, 1);
	assert_null(get(row, "count"));
	assert_true(json_object_get_double(get(row, "elapsed_us")) == 1.5);
	assert_true(json_object_is_type(get(row, "pkt_rate_mpkt_s"),
					json_type_double));
	json_object_put(doc);
	render_free(&r);
}

static void check_lat_row(json_object *row)
{
	json_object *arr = get(row, "latencies_us");

	assert_int_equal(json_object_get_int64(get(row, "size")), 8);
	assert_int_equal(json_object_get_int64(get(row, "count")), 100);
	assert_true(json_object_get_double(get(row, "min_us")) == 0.001);
	assert_true(json_object_get_double(get(row, "max_us")) == 0.1);
	assert_true(json_object_get_double(get(row, "mean_us")) == 0.05);
	assert_true(json_object_get_double(get(row, "stddev_us")) == 0.028);
	assert_true(json_object_get_double(get(row, "p50_us")) == 0.05);
	assert_true(json_object_get_double(get(row, "p90_us")) == 0.09);
	assert_true(json_object_get_double(get(row, "p99_us")) == 0.099);
	assert_true(json_object_get_double(get(row, "p999_us")) == 0.1);
	assert_int_equal(json_object_array_length(arr), 100);
	assert_true(json_object_get_double(json_object_array_get_idx(arr, 0))
		    == 0.001);
	assert_true(json_object_get_double(json_object_array_get_idx(arr, 99))
		    == 0.1);
}

static void test_json_lat(void **state)
{
	struct cxd_lat_stats *s = lat_stats(0, 0, 0, 0, 0);
	uint64_t smp[100];
	struct cxd_result res;
	json_object *doc, *opts;
	struct render r;

	(void) state;
	cxd_stats_reset(s);
	for (uint64_t i = 0; i < 100; i++) {
		smp[i] = i + 1;
		cxd_stats_add(s, i + 1);
	}
	res = lat_res(8, s);
	res.samples = smp;
	res.nsamples = 100;
	render_open(&r, "cxi_send_lat", CXD_FMT_JSON, false);
	fill_ids(&r.info);
	r.cfg.run.flags = CXD_RUN_REPORT_ALL;
	r.cfg.run.warmup = 10;
	r.cfg.run.latency_gap_us = 1000;
	render_run(&r, 1, &res);
	doc = parse_doc(r.buf);
	check_identity(doc, "cxi_send_lat", "client");
	opts = get(doc, "options");
	assert_int_equal(json_object_get_int64(get(opts, "iterations")), 100);
	assert_int_equal(json_object_get_int64(get(opts, "warmup")), 10);
	assert_int_equal(json_object_get_int64(get(opts, "latency_gap_us")),
			 1000);
	assert_true(json_object_get_boolean(get(opts, "report_all")));
	assert_string_equal(json_object_get_string(get(opts, "hugepages")),
			    "none");
	assert_false(has(opts, "list_size"));
	assert_false(has(opts, "bidirectional"));
	assert_false(has(opts, "buf_sz"));
	check_lat_row(json_object_array_get_idx(get(doc, "results"), 0));
	json_object_put(doc);
	render_free(&r);
	free(s);
}

static void test_json_lat_server_and_verify(void **state)
{
	struct cxd_result res = lat_res(8, NULL), failed = res, passed = res;
	json_object *doc, *rows, *row;
	struct render r;

	(void) state;
	render_open(&r, "cxi_atomic_lat", CXD_FMT_JSON, true);
	r.cfg.run.amo_op = CXD_AMO_CSWAP;
	r.cfg.run.cswap_op = CXD_CSWAP_NE;
	r.cfg.run.amo_type = CXD_T_FLOAT;
	r.cfg.run.flags = CXD_RUN_FETCHING;
	failed.verify = 0;
	passed.verify = 1;
	render_run(&r, 3, &res, &failed, &passed);
	doc = parse_doc(r.buf);
	assert_string_equal(json_object_get_string(get(doc, "role")), "server");
	assert_false(has(get(doc, "options"), "hugepages"));
	/* What the AMOs were, as data. */
	assert_string_equal(json_object_get_string(
				    get(get(doc, "options"), "atomic_op")),
			    "CSWAP");
	assert_string_equal(json_object_get_string(
				    get(get(doc, "options"), "cswap_op")), "NE");
	assert_string_equal(json_object_get_string(
				    get(get(doc, "options"), "atomic_type")),
			    "FLOAT");
	assert_true(json_object_get_boolean(
		get(get(doc, "options"), "fetching")));
	rows = get(doc, "results");
	assert_int_equal(json_object_array_length(rows), 3);
	row = json_object_array_get_idx(rows, 0);
	assert_int_equal(json_object_get_int64(get(row, "size")), 8);
	assert_true(json_object_get_boolean(get(row, "see_client")));
	assert_false(has(row, "min_us"));
	assert_false(has(row, "verified"));
	row = json_object_array_get_idx(rows, 1);
	assert_true(json_object_is_type(get(row, "verified"),
					json_type_boolean));
	assert_false(json_object_get_boolean(get(row, "verified")));
	row = json_object_array_get_idx(rows, 2);
	assert_true(json_object_get_boolean(get(row, "verified")));
	json_object_put(doc);
	render_free(&r);
}

/* The gaps a latency client kept, and a ping-pong responder's own count. */
static void test_json_lat_gaps_and_responder(void **state)
{
	struct cxd_lat_stats *s = lat_stats(0, 0, 0, 0, 0);
	struct cxd_lat_stats *g = lat_stats(0, 0, 0, 0, 0);
	struct cxd_result res, none;
	json_object *doc, *row;
	struct render r;

	(void) state;
	cxd_stats_reset(s);
	cxd_stats_reset(g);
	for (uint64_t i = 0; i < 9; i++) {
		cxd_stats_add(s, 2000 + i);
		cxd_stats_add(g, 100000 + 1000 * i); /* 100..108 us */
	}
	res = lat_res(8, s);
	res.gaps = g;
	none = lat_res(16, s); /* no gap figures: no keys */
	render_open(&r, "cxi_write_lat", CXD_FMT_JSON, false);
	render_run(&r, 2, &res, &none);
	doc = parse_doc(r.buf);
	row = json_object_array_get_idx(get(doc, "results"), 0);
	assert_true(json_object_get_double(get(row, "gap_min_us")) == 100.0);
	assert_true(json_object_get_double(get(row, "gap_max_us")) == 108.0);
	assert_true(json_object_get_double(get(row, "gap_mean_us")) == 104.0);
	/* p50 is a histogram bucket's midpoint: within 1/128 of 104 us. */
	assert_true(json_object_get_double(get(row, "gap_p50_us")) >= 103.1);
	assert_true(json_object_get_double(get(row, "gap_p50_us")) <= 104.9);
	row = json_object_array_get_idx(get(doc, "results"), 1);
	assert_false(has(row, "gap_min_us"));
	assert_false(has(row, "gap_p50_us"));
	json_object_put(doc);
	render_free(&r);

	/* Server: a responder's count is shown, a passive target's is not. */
	res = lat_res(8, NULL);
	res.count = 42;
	none = lat_res(16, NULL);
	none.count_shown = false;
	render_open(&r, "cxi_send_lat", CXD_FMT_JSON, true);
	render_run(&r, 2, &res, &none);
	doc = parse_doc(r.buf);
	row = json_object_array_get_idx(get(doc, "results"), 0);
	assert_true(json_object_get_boolean(get(row, "see_client")));
	assert_int_equal(json_object_get_int64(get(row, "count")), 42);
	assert_false(has(row, "min_us"));
	row = json_object_array_get_idx(get(doc, "results"), 1);
	assert_true(json_object_get_boolean(get(row, "see_client")));
	assert_false(has(row, "count"));
	json_object_put(doc);
	render_free(&r);

	/* The text server still prints only the seed's line. */
	render_open(&r, "cxi_send_lat", CXD_FMT_TEXT, true);
	render_run(&r, 1, &res);
	assert_null(strstr(r.buf, "42"));
	assert_non_null(strstr(r.buf, "See client for results.\n"));
	render_free(&r);
	free(g);
	free(s);
}

static void test_json_loopback(void **state)
{
	struct cxd_result res = bw_res(131072, 1810432, 23686.25, 11.56597);
	json_object *doc, *row;
	struct render r;

	(void) state;
	render_open(&r, "cxi_gpu_loopback_bw", CXD_FMT_JSON, false);
	render_run(&r, 1, &res);
	doc = parse_doc(r.buf);
	row = json_object_array_get_idx(get(doc, "results"), 0);
	assert_true(json_object_get_double(get(row, "bw_gb_s")) == 189.49);
	assert_true(json_object_get_double(get(row, "bw_mb_s")) == 23686.25);
	assert_false(has(get(doc, "options"), "bidirectional"));
	json_object_put(doc);
	render_free(&r);
}

static void test_csv_bw(void **state)
{
	struct cxd_result a = bw_res(1024, 256000, 29314.66, 28.627597);
	struct cxd_result b = bw_res(65536, 0, 21479.54, 10.488056);
	struct render r;

	(void) state;
	b.count_shown = false;
	b.elapsed_ns = 1234567;
	render_open(&r, "cxi_read_bw", CXD_FMT_CSV, true);
	cxd_kv_set(&r.info, "Device", "cxi0");
	render_run(&r, 2, &a, &b);
	assert_string_equal(r.buf,
			    "size,count,elapsed_us,bw_mb_s,pkt_rate_mpkt_s\n"
			    "1024,256000,5000000.000,29314.66,28.627597\n"
			    "65536,,1234.567,21479.54,10.488056\n");
	render_free(&r);

	render_open(&r, "cxi_gpu_loopback_bw", CXD_FMT_CSV, false);
	a = bw_res(131072, 1810432, 23686.25, 11.56597);
	render_run(&r, 1, &a);
	assert_string_equal(r.buf, "size,count,elapsed_us,bw_mb_s,"
			    "pkt_rate_mpkt_s,bw_gb_s\n"
			    "131072,1810432,5000000.000,23686.25,11.565970,"
			    "189.49\n");
	render_free(&r);
}

static void test_csv_lat(void **state)
{
	struct cxd_lat_stats *s = lat_stats(0, 0, 0, 0, 0);
	struct cxd_result res;
	struct render r;

	(void) state;
	cxd_stats_reset(s);
	for (uint64_t v = 1; v <= 100; v++)
		cxd_stats_add(s, v);
	res = lat_res(8, s);
	render_open(&r, "cxi_write_lat", CXD_FMT_CSV, false);
	render_run(&r, 1, &res);
	assert_string_equal(r.buf, "size,count,min_us,max_us,mean_us,"
			    "stddev_us,p50_us,p90_us,p99_us,p999_us\n"
			    "8,100,0.001,0.100,0.050,0.028,0.050,0.090,"
			    "0.099,0.100\n");
	render_free(&r);

	/* The server has only the header. */
	res = lat_res(8, NULL);
	render_open(&r, "cxi_write_lat", CXD_FMT_CSV, true);
	render_run(&r, 1, &res);
	assert_string_equal(r.buf, "size,count,min_us,max_us,mean_us,"
			    "stddev_us,p50_us,p90_us,p99_us,p999_us\n");
	render_free(&r);
	free(s);
}

/* Freeing without end prints nothing more and leaks nothing (ASan). */
CXD_UNIT_MAIN(
	cmocka_unit_test(test_json_bw),
	cmocka_unit_test(test_json_lat),
	cmocka_unit_test(test_json_lat_server_and_verify),
	cmocka_unit_test(test_json_lat_gaps_and_responder),
	cmocka_unit_test(test_json_loopback),
	cmocka_unit_test(test_csv_bw),
	cmocka_unit_test(test_csv_lat))

/* SPDX-License-Identifier: BSD-3-Clause */
/* Report rendering: the seed text tables byte for byte, JSON and CSV. */
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

#define SEP51 "---------------------------------------------------\n"
#define SEP48 "------------------------------------------------\n"
#define SEP72 "--------------------------------------------------" \
	      "----------------------\n"

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

static void render_open(struct render *r, const char *tool, int fmt,
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

static void render_begin(struct render *r)
{
	assert_int_equal(cxd_report_begin(&r->rep, r->tool, &r->cfg, &r->info,
					  r->f), 0);
	assert_non_null(r->rep);
}

static void render_result(struct render *r, const struct cxd_result *res)
{
	assert_int_equal(cxd_report_result(r->rep, res), 0);
}

/* Ends the report and closes the stream; r->buf holds everything. */
static void render_end(struct render *r)
{
	assert_int_equal(cxd_report_end(r->rep), 0);
	r->rep = NULL;
	assert_int_equal(fclose(r->f), 0);
	r->f = NULL;
}

/* Begins the report, hands it the n results given (pointers to struct
 * cxd_result), in order, and ends it: r->buf then holds everything. */
static void render_run(struct render *r, int n, ...)
{
	va_list ap;

	render_begin(r);
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		render_result(r, va_arg(ap, const struct cxd_result *));
	va_end(ap);
	render_end(r);
}

static void render_free(struct render *r)
{
	free(r->buf);
	r->buf = NULL;
}

static struct cxd_result bw_res(uint64_t size, uint64_t count, double bw,
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
static struct cxd_lat_stats *lat_stats(uint64_t n, uint64_t min, uint64_t max,
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

static struct cxd_result lat_res(uint64_t size, const struct cxd_lat_stats *s)
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

static void test_header_widths(void **state)
{
	static const struct { const char *tool; size_t len; } want[] = {
		{ "cxi_write_bw", 51 }, { "cxi_read_bw", 51 },
		{ "cxi_send_bw", 51 }, { "cxi_atomic_bw", 48 },
		{ "cxi_gpu_loopback_bw", 51 }, { "cxi_write_lat", 72 },
		{ "cxi_read_lat", 72 }, { "cxi_send_lat", 70 },
		{ "cxi_atomic_lat", 71 },
	};
	char buf[200];

	(void) state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct cxd_tool *t = cxd_tool_find(want[i].tool);

		assert_non_null(t);
		assert_int_equal(cxd_report_header(t, buf, sizeof(buf)),
				 want[i].len);
		assert_int_equal(strlen(buf), want[i].len);
	}
	cxd_report_header(cxd_tool_find("cxi_write_bw"), buf, sizeof(buf));
	assert_string_equal(buf, "RDMA Size[B]      Writes  BW[MB/s]  "
			    "PktRate[Mpkt/s]");
	cxd_report_header(cxd_tool_find("cxi_atomic_bw"), buf, sizeof(buf));
	assert_string_equal(buf, "AMO Size[B]         Ops  BW[MB/s]    "
			    "OpRate[M/s]");
	cxd_report_header(cxd_tool_find("cxi_send_lat"), buf, sizeof(buf));
	assert_string_equal(buf, "     Bytes       Sends     Min[us]     "
			    "Max[us]    Mean[us]  StdDev[us]");
	cxd_report_header(cxd_tool_find("cxi_gpu_loopback_bw"), buf,
			  sizeof(buf));
	assert_string_equal(buf, "RDMA Size[B]      Writes  BW[Gb/s]  "
			    "PktRate[Mpkt/s]");
}

static void test_kv_set(void **state)
{
	struct cxd_summary_info *info = calloc(1, sizeof(*info));
	char big[400];

	(void) state;
	assert_non_null(info);
	cxd_kv_set(info, "Duration", "%d seconds", 5);
	assert_int_equal(info->nsummary, 1);
	assert_string_equal(info->summary[0].key, "Duration");
	assert_string_equal(info->summary[0].val, "5 seconds");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cxd_kv_set(info, big, "%s", big);
	assert_int_equal(strlen(info->summary[1].key), CXD_KV_KEY - 1);
	assert_int_equal(strlen(info->summary[1].val), CXD_KV_VAL - 1);
	while (info->nsummary < CXD_SUMMARY_MAX)
		cxd_kv_set(info, "k", "v");
	cxd_kv_set(info, "overflow", "ignored");
	assert_int_equal(info->nsummary, CXD_SUMMARY_MAX);
	assert_string_equal(info->summary[CXD_SUMMARY_MAX - 1].key, "k");
	free(info);
}

static void write_bw_summary(struct cxd_summary_info *info)
{
	cxd_kv_set(info, "Device", "cxi0");
	cxd_kv_set(info, "Service ID", "%d", 1);
	cxd_kv_set(info, "Client TX Mem", "System");
	cxd_kv_set(info, "Server RX Mem", "System");
	cxd_kv_set(info, "Test Type", "Duration");
	cxd_kv_set(info, "Duration", "%d seconds", 5);
	cxd_kv_set(info, "Min Write Size", "1024");
	cxd_kv_set(info, "Max Write Size", "65536");
	cxd_kv_set(info, "List Size", "256");
	cxd_kv_set(info, "HRP", "Enabled");
	cxd_kv_set(info, "IDC", "Enabled");
	cxd_kv_set(info, "Bidirectional", "Enabled");
	cxd_kv_set(info, "Max RDMA Buf", "4294967296 (16777216 used)");
	cxd_kv_set(info, "RDMA Buf Align", "64");
	cxd_kv_set(info, "Hugepages", "Disabled");
	cxd_kv_set(info, "Local (client)", "NIC 0x13 PID 0 VNI 10");
	cxd_kv_set(info, "Remote (server)", "NIC 0x12 PID 0");
}

/* The man page's write_bw client run, line for line. */
static void test_text_write_bw_seed(void **state)
{
	static const struct { uint64_t size, count; double bw, rate; } rows[] = {
		{ 1024, 71572224, 29314.66, 28.627597 },
		{ 2048, 44694272, 36613.15, 17.877517 },
		{ 4096, 21218304, 34763.74, 16.974481 },
		{ 8192, 11737856, 38461.53, 18.780044 },
		{ 16384, 6154752, 40333.92, 19.694297 },
		{ 32768, 3153664, 41334.64, 20.182929 },
		{ 65536, 1571328, 40550.70, 19.800147 },
	};
	const char *want = SEP51
		"    CXI RDMA Write Bandwidth Test\n"
		"Device           : cxi0\n"
		"Service ID       : 1\n"
		"Client TX Mem    : System\n"
		"Server RX Mem    : System\n"
		"Test Type        : Duration\n"
		"Duration         : 5 seconds\n"
		"Min Write Size   : 1024\n"
		"Max Write Size   : 65536\n"
		"List Size        : 256\n"
		"HRP              : Enabled\n"
		"IDC              : Enabled\n"
		"Bidirectional    : Enabled\n"
		"Max RDMA Buf     : 4294967296 (16777216 used)\n"
		"RDMA Buf Align   : 64\n"
		"Hugepages        : Disabled\n"
		"Local (client)   : NIC 0x13 PID 0 VNI 10\n"
		"Remote (server)  : NIC 0x12 PID 0\n"
		SEP51
		"RDMA Size[B]      Writes  BW[MB/s]  PktRate[Mpkt/s]\n"
		"        1024    71572224  29314.66        28.627597\n"
		"        2048    44694272  36613.15        17.877517\n"
		"        4096    21218304  34763.74        16.974481\n"
		"        8192    11737856  38461.53        18.780044\n"
		"       16384     6154752  40333.92        19.694297\n"
		"       32768     3153664  41334.64        20.182929\n"
		"       65536     1571328  40550.70        19.800147\n"
		SEP51;
	struct render r;

	(void) state;
	render_open(&r, "cxi_write_bw", CXD_FMT_TEXT, false);
	write_bw_summary(&r.info);
	render_begin(&r);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct cxd_result res = bw_res(rows[i].size, rows[i].count,
					       rows[i].bw, rows[i].rate);

		render_result(&r, &res);
	}
	render_end(&r);
	assert_string_equal(r.buf, want);
	render_free(&r);
}

/* Uni-directional server: "-" for the count, header still printed. */
static void test_text_server_dash(void **state)
{
	struct cxd_result res = bw_res(65536, 0, 21479.54, 10.488056);
	struct render r;

	(void) state;
	res.count_shown = false;
	render_open(&r, "cxi_read_bw", CXD_FMT_TEXT, true);
	render_run(&r, 1, &res);
	assert_string_equal(r.buf, SEP51
			    "    CXI RDMA Read Bandwidth Test\n"
			    SEP51
			    "RDMA Size[B]       Reads  BW[MB/s]  "
			    "PktRate[Mpkt/s]\n"
			    "       65536           -  21479.54        "
			    "10.488056\n"
			    SEP51);
	render_free(&r);
}

static void test_text_atomic_bw_verify(void **state)
{
	struct cxd_result ok = bw_res(16, 67584000, 1081.16, 67.572741);
	struct cxd_result bad = ok;
	struct render r;

	(void) state;
	ok.verify = 1;
	bad.verify = 0;
	render_open(&r, "cxi_atomic_bw", CXD_FMT_TEXT, false);
	cxd_kv_set(&r.info, "Atomic Op", "NON-FETCHING CSWAP EQ");
	render_run(&r, 2, &ok, &bad);
	assert_string_equal(r.buf, SEP48
			    "    CXI Atomic Memory Operation Bandwidth Test\n"
			    "Atomic Op        : NON-FETCHING CSWAP EQ\n"
			    SEP48
			    "AMO Size[B]         Ops  BW[MB/s]    OpRate[M/s]\n"
			    "         16    67584000   1081.16      67.572741\n"
			    "         16    67584000   1081.16      67.572741\n"
			    "Atomic verification FAILED: target values differ "
			    "from the expected result\n"
			    SEP48);
	render_free(&r);
}

/* The seed's loopback example, including a value-less "Found" line. */
static void test_text_loopback(void **state)
{
	struct cxd_result res = bw_res(131072, 1810432, 189.49 * 1000 / 8,
				       11.565970);
	struct render r;

	(void) state;
	render_open(&r, "cxi_gpu_loopback_bw", CXD_FMT_TEXT, false);
	r.cfg.role = CXD_LOCAL;
	cxd_kv_set(&r.info, "Cmds per iter", "8192");
	cxd_kv_set(&r.info, "Found 4 GPU(s)", "%s", "");
	render_run(&r, 1, &res);
	assert_string_equal(r.buf, SEP51
			    "    CXI Loopback Bandwidth Test\n"
			    "Cmds per iter    : 8192\n"
			    "Found 4 GPU(s)\n"
			    SEP51
			    "RDMA Size[B]      Writes  BW[Gb/s]  "
			    "PktRate[Mpkt/s]\n"
			    "      131072     1810432    189.49        "
			    "11.565970\n"
			    SEP51);
	render_free(&r);
}

static void test_text_lat_rows(void **state)
{
	struct cxd_lat_stats *a = lat_stats(5, 2070, 2120, 2090, 10);
	struct cxd_lat_stats *b = lat_stats(100, 1609, 2659, 1641, 139);
	struct cxd_result ra = lat_res(8, a), rb = lat_res(8, b);
	struct render r;

	(void) state;
	render_open(&r, "cxi_write_lat", CXD_FMT_TEXT, false);
	render_run(&r, 1, &ra);
	assert_non_null(strstr(r.buf, SEP72 "RDMA Size[B]      Writes     "
			       "Min[us]     Max[us]    Mean[us]  StdDev[us]\n"
			       "           8           5        2.07        "
			       "2.12        2.09        0.01\n" SEP72));
	render_free(&r);

	/* send_lat: 10-wide size column, values truncated not rounded. */
	render_open(&r, "cxi_send_lat", CXD_FMT_TEXT, false);
	render_run(&r, 1, &rb);
	assert_non_null(strstr(r.buf, "\n         8         100        1.60"
			       "        2.65        1.64        0.13\n"));
	render_free(&r);
	free(a);
	free(b);
}

/* The man page's write_lat --report-all client run, then a second size. */
static void test_text_report_all(void **state)
{
	static const uint64_t smp[] = { 2008, 2012, 2008, 2007, 2008 };
	struct cxd_lat_stats *s = lat_stats(5, 2070, 2120, 2090, 10);
	struct cxd_result res = lat_res(8, s), second;
	struct render r;

	(void) state;
	res.samples = smp;
	res.nsamples = 5;
	second = res;
	render_open(&r, "cxi_write_lat", CXD_FMT_TEXT, false);
	r.cfg.run.flags |= CXD_RUN_REPORT_ALL;
	cxd_kv_set(&r.info, "Results Reported", "All");
	second.size = 16;
	second.nsamples = 2;
	render_run(&r, 2, &res, &second);
	assert_string_equal(r.buf, SEP72
			    "    CXI RDMA Write Latency Test\n"
			    "Results Reported : All\n"
			    SEP72
			    "  WriteNum  Latency[us]\n"
			    "         0        2.008\n"
			    "         1        2.012\n"
			    "         2        2.008\n"
			    "         3        2.007\n"
			    "         4        2.008\n"
			    SEP72
			    "RDMA Size[B]      Writes     Min[us]     Max[us]"
			    "    Mean[us]  StdDev[us]\n"
			    "           8           5        2.07        2.12"
			    "        2.09        0.01\n"
			    SEP72
			    "  WriteNum  Latency[us]\n"
			    "         0        2.008\n"
			    "         1        2.012\n"
			    SEP72
			    "RDMA Size[B]      Writes     Min[us]     Max[us]"
			    "    Mean[us]  StdDev[us]\n"
			    "          16           5        2.07        2.12"
			    "        2.09        0.01\n"
			    SEP72);
	render_free(&r);
	free(s);
}

/* Each tool names its own index column; sub-µs digits are kept. */
static void test_text_report_all_index(void **state)
{
	static const uint64_t smp[] = { 1234567, 5 };
	struct cxd_lat_stats *s = lat_stats(2, 5, 1234567, 617286, 617281);
	struct cxd_result res = lat_res(8, s);
	struct render r;

	(void) state;
	res.samples = smp;
	res.nsamples = 2;
	render_open(&r, "cxi_read_lat", CXD_FMT_TEXT, false);
	r.cfg.run.flags |= CXD_RUN_REPORT_ALL;
	render_run(&r, 1, &res);
	assert_non_null(strstr(r.buf, "\n   ReadNum  Latency[us]\n"
			       "         0     1234.567\n"
			       "         1        0.005\n"));
	assert_non_null(strstr(r.buf, "    1234.56      617.28      617.28\n"));
	render_free(&r);
	free(s);
}

/* The man page's write_lat server: one block per size, no header. */
static void test_text_lat_server(void **state)
{
	struct cxd_result res = lat_res(8, NULL), second = res;
	struct render r;

	(void) state;
	render_open(&r, "cxi_write_lat", CXD_FMT_TEXT, true);
	cxd_kv_set(&r.info, "Device", "cxi0");
	render_run(&r, 1, &res);
	assert_string_equal(r.buf, SEP72
			    "    CXI RDMA Write Latency Test\n"
			    "Device           : cxi0\n"
			    SEP72
			    "See client for results.\n"
			    SEP72);
	render_free(&r);

	render_open(&r, "cxi_write_lat", CXD_FMT_TEXT, true);
	second.size = 16;
	render_run(&r, 2, &res, &second);
	assert_string_equal(r.buf, SEP72
			    "    CXI RDMA Write Latency Test\n"
			    SEP72
			    "See client for results.\n"
			    SEP72
			    "See client for results.\n"
			    SEP72);
	render_free(&r);
}

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
static void test_free_without_end(void **state)
{
	struct cxd_result res = bw_res(8, 1, 1, 1);
	struct render r;

	(void) state;
	render_open(&r, "cxi_write_bw", CXD_FMT_JSON, false);
	render_begin(&r);
	render_result(&r, &res);
	cxd_report_free(r.rep);
	cxd_report_free(NULL);
	assert_int_equal(fclose(r.f), 0);
	assert_int_equal(r.len, 0);
	render_free(&r);
}

/* lib/report/figures.c: the formulas every format shares (MB = 10^6,
 * Gb = 10^9). */
static void test_report_figures_units_and_summed_sides(void **state)
{
	struct cxd_span mine = { .count = 1000, .elapsed_ns = 1000000 };
	struct cxd_span peer = { .count = 500, .elapsed_ns = 2000000 };
	struct cxd_result res = { .size = 65536, .elapsed_ns = 1000000 };
	struct cxd_figures f;

	(void) state;
	assert_int_equal(cxd_packets(false, 2048), 1);
	assert_int_equal(cxd_packets(false, 2049), 2);
	assert_int_equal(cxd_packets(true, 65536), 1);
	cxd_bw_combine(&res, cxd_packets(false, 65536), &mine, NULL);
	cxd_result_figures(&res, &f);
	assert_true(f.bw_mb_s == 65536.0);     /* 65.536 MB in 1 ms */
	assert_true(f.rate_m_s == 32.0);       /* 32 packets per write */
	assert_true(f.bw_gb_s == 524.288);
	assert_true(f.elapsed_us == 1000.0);
	/* Each side at its own rate, summed; a side that did not post adds
	 * nothing. */
	cxd_bw_combine(&res, 1, &mine, &peer);
	assert_true(res.bw_mb_s == 65536.0 + 16384.0);
	assert_true(res.rate_m_s == 1.0 + 0.25);
	cxd_bw_combine(&res, 1, NULL, &peer);
	assert_true(res.bw_mb_s == 16384.0);
	assert_false(f.has_gaps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_figures_units_and_summed_sides),
		cmocka_unit_test(test_header_widths),
		cmocka_unit_test(test_kv_set),
		cmocka_unit_test(test_text_write_bw_seed),
		cmocka_unit_test(test_text_server_dash),
		cmocka_unit_test(test_text_atomic_bw_verify),
		cmocka_unit_test(test_text_loopback),
		cmocka_unit_test(test_text_lat_rows),
		cmocka_unit_test(test_text_report_all),
		cmocka_unit_test(test_text_report_all_index),
		cmocka_unit_test(test_text_lat_server),
		cmocka_unit_test(test_json_bw),
		cmocka_unit_test(test_json_lat),
		cmocka_unit_test(test_json_lat_server_and_verify),
		cmocka_unit_test(test_json_lat_gaps_and_responder),
		cmocka_unit_test(test_json_loopback),
		cmocka_unit_test(test_csv_bw),
		cmocka_unit_test(test_csv_lat),
		cmocka_unit_test(test_free_without_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

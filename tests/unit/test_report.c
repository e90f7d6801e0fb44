/* SPDX-License-Identifier: BSD-3-Clause */
/* Report rendering: the seed text tables byte for byte, the figures' units
 * (JSON and CSV: test_report_json.c). */
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

#define SEP51 "---------------------------------------------------\n"
#define SEP48 "------------------------------------------------\n"
#define SEP72 "--------------------------------------------------" \
	      "----------------------\n"


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

CXD_UNIT_MAIN(
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
	cmocka_unit_test(test_free_without_end))

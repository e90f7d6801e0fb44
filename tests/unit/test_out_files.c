/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's --metrics file at scale: each rank's median always, every
 * link only where rank 0 gathered the matrices (out_files.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/result/out.h"
#include "sweep/result/out_files.h"

static const struct cxd_sweep_rank ranks[3] = {
	{ "nid1", "fi_sockaddr_in://10.0.0.1:5", "cxi0" },
	{ "nid2", "fi_sockaddr_in://10.0.0.2:5", "cxi0" },
	{ "nid3", "fi_sockaddr_in://10.0.0.3:5", "cxi0" } };

/* The file's text for a 3-rank result; bw/lat NULL: not gathered. */
static char *metrics(const double *bw, const double *lat)
{
	static const double med[6] = { 24.5, 15.0, 18.4, 16.0, NAN, 15.5 };
	struct cxd_rules rules = { .n = 3 };
	struct cxd_sweep_res r = {
		.run = { .n = 3, .ranks = ranks },
		.links = { .bw = bw, .lat = lat, .rank_med = med },
		.judged = { .rules = &rules } };
	char path[] = "/tmp/cxd-metrics-XXXXXX", err[256];
	static char text[8192];
	int fd = mkstemp(path);
	FILE *f;
	size_t n;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cxd_out_metrics(&r, path, err, sizeof(err)), 0);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unlink(path);
	return text;
}

static void test_rank_medians_only(void **state)
{
	char *t = metrics(NULL, NULL);

	(void) state;
	/* Base units: 24.5 MB/s is 24.5e6 B/s, 15 us is 15e-6 s. */
	assert_non_null(strstr(t, "cxi_sweep_rank_bandwidth_bytes_per_second{"
			       "host=\"nid1\",nic=\"cxi0\",rank=\"0\"} 24500000\n"));
	assert_non_null(strstr(t, "cxi_sweep_rank_latency_seconds{host=\"nid2\","
			       "nic=\"cxi0\",rank=\"1\"} 1.6e-05\n"));
	/* Rank 2's bandwidth was not measured: no sample, not a zero. */
	assert_null(strstr(t, "cxi_sweep_rank_bandwidth_bytes_per_second{"
			   "host=\"nid3\""));
	assert_null(strstr(t, "cxi_sweep_link_bandwidth"));
	assert_non_null(strstr(t, "# EOF\n"));
}

static void test_links_when_gathered(void **state)
{
	double bw[9] = { NAN, 24, 24, 18, NAN, 24, 24, 24, NAN };
	char *t = metrics(bw, bw);

	(void) state;
	assert_non_null(strstr(t, "cxi_sweep_link_bandwidth_bytes_per_second{"
			       "src_host=\"nid2\""));
	assert_non_null(strstr(t, "cxi_sweep_rank_bandwidth_bytes_per_second"));
}

/* The suspects file of r at path, read back into text. */
static void suspects_text(const struct cxd_sweep_res *r, const char *path,
			  char *text, size_t len)
{
	char err[256];
	size_t n;
	FILE *f;

	assert_int_equal(cxd_out_suspects(r, path, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, len - 1, f);
	text[n] = '\0';
	fclose(f);
}

/* --suspects: HOST<TAB>REASON, each host once, the reason one line with
 * no tab or double quote (scontrol's reason="..."); written whole. */
static void test_suspects_with_reasons(void **state)
{
	static const struct cxd_sweep_rank two[3] = {
		{ "nid1", "fi_sockaddr_in://10.0.0.1:5", "cxi0" },
		{ "nid2", "fi_sockaddr_in://10.0.0.2:5", "cxi\"0" },
		{ "nid2", "fi_sockaddr_in://10.0.0.2:6", "cxi1" } };
	struct cxd_suspect sus[2] = {
		{ .kind = CXD_S_RANK, .metric = CXD_M_BW, .id = 1, .bad = 2,
		  .links = 2 },
		{ .kind = CXD_S_RANK, .metric = CXD_M_LAT, .id = 2, .bad = 2,
		  .links = 2 } };
	struct cxd_rules rules = { .n = 3 };
	struct cxd_sweep_res r = { .run = { .n = 3, .ranks = two },
				   .judged = { .rules = &rules },
				   .suspects = { sus, 2 } };
	char dir[] = "/tmp/cxd-sus-XXXXXX", path[64], err[256], text[512];

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/suspects", dir);
	suspects_text(&r, path, text, sizeof(text));
	assert_string_equal(text, "nid2\tcxi_sweep rank 1 cxi 0: 2 of 2 links "
			    "slow\n");
	/* a NIC not told apart from its switch: said so, for the drain */
	sus[0].nalike = 1;
	suspects_text(&r, path, text, sizeof(text));
	assert_string_equal(text, "nid2\tcxi_sweep rank 1 cxi 0: 2 of 2 links "
			    "slow, not told apart from another component\n");
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* no temporary left */
	/* A directory that is not there: an error naming the file. */
	assert_int_not_equal(cxd_out_suspects(&r, path, err,
					      sizeof(err)), 0);
	assert_non_null(strstr(err, path));
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_rank_medians_only),
	cmocka_unit_test(test_links_when_gathered),
	cmocka_unit_test(test_suspects_with_reasons))

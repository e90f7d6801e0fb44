/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's inputs: the topology file (its own form and Slurm's), host
 * lists, and a baseline (JSON or a --matrix file) matched to this run. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/matrix_file.h"
#include "support/tmp_text.h"
#include "support/topo_text.h"
#include "support/unit_main.h"
#include "sweep/model/baseline.h"
#include "sweep/model/matrix.h"
#include "sweep/model/topo.h"
#include "sweep/model/topo_add.h"
#include "base/hostlist.h"

static const struct cxd_sweep_rank ranks[3] = {
	{ "vm", "fi_sockaddr_in://10.0.0.1:4001", "swp0" },
	{ "vm", "fi_sockaddr_in://10.0.0.2:4002", "swp0" },
	{ "vm", "fi_sockaddr_in://10.0.0.3:4003", "swp0" },
};

/* The file at path (holding what) refused by the topology reader (topo)
 * or the baseline's, its error naming want: one check for both. */
static void load_refused(bool topo, const char *path, const char *what,
			 const char *want)
{
	struct cxd_topo t;
	struct cxd_baseline b;
	char err[256] = "";

	assert_int_not_equal(topo ? cxd_topo_load(path, &t, err, sizeof(err))
				  : cxd_baseline_load(path, &b, err,
						      sizeof(err)),
			     0);
	if (strstr(err, want) == NULL)
		fail_msg("%s: got '%s', want '%s'", what, err, want);
}

/* A file of text refused, its error naming want. */
static void refused(bool topo, const char *text, const char *want)
{
	char *p = write_tmp(text);

	load_refused(topo, p, text, want);
	unlink(p);
}

static void topo_refused(const char *text, const char *want)
{
	refused(true, text, want);
}

static void baseline_refused(const char *text, const char *want)
{
	refused(false, text, want);
}

static void test_judge_topology_places_ranks_or_names_why(void **state)
{
	struct cxd_topo t;
	char err[256];
	int sof[3], gof[3];

	(void) state;
	topo_of_text(&t, "# site\n10.0.0.1 s0 g0\n10.0.0.2 s0 g0 # two\n\n"
		     "10.0.0.3 s1 g1\nnid9 s1\n");
	assert_int_equal(t.nl, 4);
	assert_int_equal(cxd_topo_place(&t, ranks, 3, sof, gof, NULL, err,
					sizeof(err)), 0);
	assert_int_equal(sof[0], 0);
	assert_int_equal(sof[2], 1);
	assert_int_equal(gof[2], 1);
	assert_string_equal(t.switch_name[1], "s1");
	cxd_topo_free(&t);
	/* A rank no line places: named. */
	topo_of_text(&t, "10.0.0.1 s0\n10.0.0.2 s0\n");
	assert_int_not_equal(cxd_topo_place(&t, ranks, 3, sof, gof, NULL, err,
					    sizeof(err)), 0);
	assert_non_null(strstr(err, "no line places rank 2"));
	cxd_topo_free(&t);
	/* Malformed and duplicate lines: file and line named. */
	topo_refused("10.0.0.1 s0\nlonely\n",
		     ":2: expected 'NAME SWITCH [GROUP]'");
	topo_refused("a s0\nb s1\na s2\n", ":3: 'a' is placed twice");
	load_refused(true, "/nonexistent/topo", "missing", "/nonexistent/topo");
}

/* Slurm's topology.conf: leaf switches place nodes (host lists expanded),
 * the switch above is their group; a bad line names its number. */
static void test_topology_slurm_conf(void **state)
{
	static const struct cxd_sweep_rank sr[3] = {
		{ "n02", "fi_sockaddr_in://10.0.0.1:1", "cxi0" },
		{ "n10", "fi_sockaddr_in://10.0.0.2:1", "cxi0" },
		{ "gpu7", "fi_sockaddr_in://10.0.0.3:1", "cxi0" },
	};
	static const char *const broken[][2] = {
		{ "SwitchName=s1 Nodes=n[1-2]\nNodes=n3\n", ":2: no SwitchName=" },
		{ "SwitchName=s1 Nodes=n[1-2\n", ":1: Nodes=: a bracket" },
		{ "SwitchName=s1 Nodes=n[2-1]\n", ":1: Nodes=: a range that runs down" },
		{ "# x\nSwitchName=s1 Color=red\n", ":2: unknown key 'Color'" },
		{ "SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=a\n",
		  ":2: 'a' is placed twice (first at line 1)" },
		{ "SwitchName=t Switches=s9\n", ":1: switch 's9' (in Switches=) is not defined" },
		{ "SwitchName=s1 Nodes=a\nSwitchName=s1 Nodes=b\n", ":2: switch 's1' defined twice" },
		{ "SwitchName=s1 n1\n", ":1: 'n1' is not KEY=VALUE" },
		{ "SwitchName=s1 Nodes=n[1-2]\\\n", ":1: a continued line" },
	};
	struct cxd_topo t;
	char err[256];
	int sof[3], gof[3];

	(void) state;
	topo_of_text(&t, "# topology.conf\n"
		     "SwitchName=s1 Nodes=n[01-04,08] LinkSpeed=200\n"
		     "switchname=s2 nodes=n[09-10],gpu[6-7] # lower case\n"
		     "SwitchName=s3 Nodes=lone\n"
		     "SwitchName=top Switches=s[1-2]\n");
	assert_true(t.slurm);
	assert_int_equal(t.nl, 10);
	assert_int_equal(cxd_topo_place(&t, sr, 3, sof, gof, NULL, err,
					sizeof(err)), 0);
	assert_string_equal(t.switch_name[sof[0]], "s1");
	assert_string_equal(t.switch_name[sof[1]], "s2");
	assert_int_equal(sof[1], sof[2]);
	assert_string_equal(t.group_name[gof[0]], "top");
	assert_int_equal(gof[0], gof[2]);
	for (int i = 0; i < t.nl; i++)
		if (strcmp(t.l[i].name, "lone") == 0)
			assert_int_equal(t.l[i].group_ix, -1);
	cxd_topo_free(&t);
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++)
		topo_refused(broken[i][0], broken[i][1]);
}

static int collect(const char *name, void *arg)
{
	char *out = arg;

	strcat(out, name);
	strcat(out, " ");
	return strcmp(name, "stop") == 0 ? 7 : 0;
}

static void test_hostlist(void **state)
{
	char out[512], err[128];

	(void) state;
	out[0] = '\0';
	assert_int_equal(cxd_hostlist_each("n[08-10],login,r[1-2]c[1,3]",
					   collect, out, err, sizeof(err)), 0);
	assert_string_equal(out, "n08 n09 n10 login r1c1 r1c3 r2c1 r2c3 ");
	out[0] = '\0';
	assert_int_equal(cxd_hostlist_each("a,stop,b", collect, out, err,
					   sizeof(err)), 7);
	assert_string_equal(out, "a stop ");
	assert_int_equal(cxd_hostlist_each("a,,b", collect, out, err,
					   sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty item"));
	assert_int_equal(cxd_hostlist_each("n[x]", collect, out, err,
					   sizeof(err)), -EINVAL);
	assert_int_equal(cxd_hostlist_each("n[1-]", collect, out, err,
					   sizeof(err)), -EINVAL);
	assert_int_equal(cxd_hostlist_each("", collect, out, err,
					   sizeof(err)), -EINVAL);
}

static void test_addr_node(void **state)
{
	char node[64];

	(void) state;
	cxd_topo_addr_node("fi_sockaddr_in://10.1.2.3:4567", node, sizeof(node));
	assert_string_equal(node, "10.1.2.3");
	cxd_topo_addr_node("fi_sockaddr_in6://[fe80::1]:99", node, sizeof(node));
	assert_string_equal(node, "[fe80::1]");
	cxd_topo_addr_node("fi_shm://1234", node, sizeof(node));
	assert_string_equal(node, "1234");
}

#define BASE_JSON(prov, size) \
	"{ \"tool\": \"cxi_sweep\", \"provider\": \"" prov "\",\n" \
	"  \"options\": { \"size\": " size " },\n" \
	"  \"ranks\": [ { \"host\": \"vm\", \"address\": " \
	"\"fi_sockaddr_in://10.0.0.3:5\" },\n" \
	"    { \"host\": \"vm\", \"address\": \"fi_sockaddr_in://10.0.0.1:6\" }," \
	"\n    { \"host\": \"vm\", \"address\": \"fi_sockaddr_in://10.0.0.9:7\" }" \
	" ],\n  \"bw_mb_s\": [[null, 1, 2], [3, null, 5], [6, 7, null]],\n" \
	"  \"lat_us\": [[null, 1, 2], [3, null, 5], [6, 7, null]],\n" \
	"  \"resolution\": { \"bw\": { \"tolerance_pct\": 12.5 } } }\n"

/* Ranks move between launches: links are matched by address here (the
 * host names repeat), never by rank number. */
static void test_baseline_match(void **state)
{
	struct cxd_baseline b;
	double *bw, *lat;
	char err[256];
	char *p;

	(void) state;
	p = write_tmp(BASE_JSON("tcp", "65536"));
	assert_int_equal(cxd_baseline_load(p, &b, err, sizeof(err)), 0);
	assert_true(fabs(b.tol[0] - 0.125) < 1e-12);
	assert_int_equal(cxd_baseline_match(&b, ranks, 3, "tcp", 65536,
					    &bw, &lat), 0);
	assert_int_equal(b.matched, 2); /* 10.0.0.2 is not in the file */
	assert_int_equal(b.map[0], 1);
	assert_int_equal(b.map[2], 0);
	assert_true(bw[0 * 3 + 2] == 3);  /* file rank 1 -> file rank 0 */
	assert_true(bw[2 * 3 + 0] == 1);
	assert_true(isnan(bw[0 * 3 + 1]));
	assert_int_equal(b.nnotes, 2);
	free(bw);
	free(lat);
	cxd_baseline_free(&b);
	/* Another size: bandwidth is not compared, latency is. */
	assert_int_equal(cxd_baseline_load(p, &b, err, sizeof(err)), 0);
	assert_int_equal(cxd_baseline_match(&b, ranks, 3, "tcp", 1024,
					    &bw, &lat), 0);
	assert_null(bw);
	assert_non_null(lat);
	assert_non_null(strstr(b.notes[0], "transfer size 65536 B there"));
	free(lat);
	cxd_baseline_free(&b);
	unlink(p);
	/* Not a sweep's JSON, not JSON, missing. */
	baseline_refused("{ \"tool\": \"cxi_write_bw\" }",
			 "is not a cxi_sweep --json file");
	baseline_refused("{ nope", "not valid JSON");
	load_refused(false, "/nonexistent/b.json", "missing", "No such file");
}

/* A --matrix file as a baseline: the same match as from JSON. */
static void test_baseline_matrix(void **state)
{
	struct cxd_matrix_head h = { 3, 65536, 3, { 0.125, 1.0 }, "tcp" };
	const struct cxd_sweep_rank file[3] = {
		{ "vm", "fi_sockaddr_in://10.0.0.3:5", "" },
		{ "vm", "fi_sockaddr_in://10.0.0.1:6", "" },
		{ "vm", "fi_sockaddr_in://10.0.0.9:7", "" } };
	unsigned char head[CXD_MATRIX_HEAD];
	double m[9] = { NAN, 1, 2, 3, NAN, 5, 6, 7, NAN };
	char path[] = "/tmp/cxd-matrix-XXXXXX", err[256];
	struct cxd_baseline b;
	double *bw, *lat;
	FILE *f;
	int fd = mkstemp(path);

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	f = matrix_open(path, &h, file, 3);
	fwrite(m, sizeof(double), 9, f);
	fwrite(m, sizeof(double), 9, f);
	fclose(f);
	assert_int_equal(cxd_matrix_bytes(3), 128 + 3 * 512 + 2 * 9 * 8);
	assert_true(cxd_matrix_is(path));
	assert_int_equal(cxd_baseline_load(path, &b, err, sizeof(err)), 0);
	assert_string_equal(b.provider, "tcp");
	assert_true(b.size == 65536 && b.tol[0] == 0.125);
	assert_int_equal(cxd_baseline_match(&b, ranks, 3, "tcp", 65536,
					    &bw, &lat), 0);
	assert_int_equal(b.matched, 2);
	assert_true(bw[0 * 3 + 2] == 3 && bw[2 * 3 + 0] == 1);
	free(bw);
	free(lat);
	cxd_baseline_free(&b);
	/* Cut short: named with the size it needs. */
	assert_int_equal(truncate(path, 1000), 0);
	assert_int_not_equal(cxd_baseline_load(path, &b, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "cut short"));
	assert_non_null(strstr(err, "1808 bytes"));
	/* Another version: refused, not misread. */
	cxd_matrix_put_head(&h, head);
	head[8] = 9;
	f = fopen(path, "wb");
	fwrite(head, 1, sizeof(head), f);
	fclose(f);
	assert_int_not_equal(cxd_baseline_load(path, &b, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "version 9"));
	unlink(path);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_judge_topology_places_ranks_or_names_why),
	cmocka_unit_test(test_addr_node),
	cmocka_unit_test(test_topology_slurm_conf),
	cmocka_unit_test(test_hostlist),
	cmocka_unit_test(test_baseline_match),
	cmocka_unit_test(test_baseline_matrix))

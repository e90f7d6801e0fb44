/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion's pure parts: the split, the impact arithmetic,
 * the verdict, the outputs; and --tclass's parsing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/stamp.h"
#include "base/tclass.h"
#include "cxd/config.h"
#include "support/argv_cfg.h"
#include "support/unit_main.h"
#include "sweep/congest/congest.h"
#include "sweep/congest/congest_out.h"

/* Every rank once, victims even and >= 2, aggressors >= 2, pairs valid. */
static void check_split(const struct cxd_cg_split *sp, int n)
{
	int *seen = calloc((size_t) n, sizeof(int)), partner, idx;

	assert_non_null(seen);
	assert_int_equal(sp->nv + sp->na, n);
	assert_true(sp->nv >= 2 && sp->nv % 2 == 0 && sp->na >= 2);
	for (int i = 0; i < sp->nv; i++)
		seen[sp->victims[i]]++;
	for (int i = 0; i < sp->na; i++) {
		seen[sp->aggressors[i]]++;
		assert_true(i == 0 || sp->aggressors[i - 1] <
				      sp->aggressors[i]);
	}
	for (int r = 0; r < n; r++) {
		assert_int_equal(seen[r], 1);
		if (cxd_cg_role(sp, r, &partner, &idx)) {
			int back = -1;

			assert_int_not_equal(partner, r);
			assert_int_equal(cxd_cg_role(sp, partner, &back, &idx),
					 1);
			assert_int_equal(back, r);
		} else {
			assert_int_equal(sp->aggressors[idx], r);
		}
	}
	free(seen);
}

static void test_split_counts(void **state)
{
	struct cxd_cg_split sp;
	char err[256];
	/* n, frac, victims wanted: round, made even, >= 2, leave 2 */
	static const struct { int n; double f; int nv; } c[] = {
		{ 4, 0.2, 2 }, { 4, 0.9, 2 }, { 10, 0.2, 2 }, { 10, 0.5, 4 },
		{ 20, 0.2, 4 }, { 100, 0.2, 20 }, { 7, 0.5, 4 }, { 5, 0.99, 2 },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (int p = CXD_CG_RANDOM; p <= CXD_CG_SPREAD; p++) {
			assert_int_equal(cxd_cg_split(c[i].n, c[i].f, p, 42,
						      &sp, err, sizeof(err)),
					 0);
			assert_int_equal(sp.nv, c[i].nv);
			check_split(&sp, c[i].n);
			cxd_cg_free(&sp);
		}
	assert_int_not_equal(cxd_cg_split(3, 0.5, 0, 1, &sp, err,
					  sizeof(err)), 0);
	assert_non_null(strstr(err, "at least 4 ranks"));
}

static void test_split_placement(void **state)
{
	struct cxd_cg_split a, b;
	char err[256];
	bool differs = false;

	(void) state;
	assert_int_equal(cxd_cg_split(8, 0.5, CXD_CG_FIRST, 0, &a, err, 256),
			 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(a.victims[i], i);
	assert_int_equal(a.aggressors[0], 4);
	cxd_cg_free(&a);
	assert_int_equal(cxd_cg_split(8, 0.5, CXD_CG_LAST, 0, &a, err, 256), 0);
	assert_int_equal(a.victims[0], 4);
	assert_int_equal(a.aggressors[0], 0);
	cxd_cg_free(&a);
	assert_int_equal(cxd_cg_split(8, 0.5, CXD_CG_SPREAD, 0, &a, err, 256),
			 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(a.victims[i], 2 * i);
	cxd_cg_free(&a);
	/* random: the same seed gives the same split, another seed may not */
	assert_int_equal(cxd_cg_split(16, 0.25, 0, 7, &a, err, 256), 0);
	assert_int_equal(cxd_cg_split(16, 0.25, 0, 7, &b, err, 256), 0);
	assert_memory_equal(a.victims, b.victims, 4 * sizeof(int));
	cxd_cg_free(&b);
	for (uint64_t s = 8; s < 16 && !differs; s++) {
		assert_int_equal(cxd_cg_split(16, 0.25, 0, s, &b, err, 256), 0);
		differs = memcmp(a.victims, b.victims, 4 * sizeof(int)) != 0;
		cxd_cg_free(&b);
	}
	assert_true(differs);
	cxd_cg_free(&a);
}

static void test_congest_options_parse_or_name_the_bad(void **state)
{
	static const char *const bad[] = { "0", "1", "1.0", "-0.5", "abc",
					   "0.5x", "nan", "inf", "0x0.8",
					   "1e-400" };
	char err[256];
	double f;
	int p;

	(void) state;
	assert_int_equal(cxd_cg_parse_frac("", &f, err, sizeof(err)), 0);
	assert_true(fabs(f - 0.2) < 1e-12);
	assert_int_equal(cxd_cg_parse_frac("0.25", &f, err, sizeof(err)), 0);
	assert_true(fabs(f - 0.25) < 1e-12);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(cxd_cg_parse_frac(bad[i], &f, err,
						       sizeof(err)), 0);
		assert_non_null(strstr(err, bad[i]));
	}
	assert_int_equal(cxd_cg_parse_place("", &p, err, sizeof(err)), 0);
	assert_int_equal(p, CXD_CG_RANDOM);
	assert_int_equal(cxd_cg_parse_place("spread", &p, err, 256), 0);
	assert_int_equal(p, CXD_CG_SPREAD);
	assert_int_not_equal(cxd_cg_parse_place("odd", &p, err, 256), 0);
	assert_non_null(strstr(err, "'odd'"));
	assert_int_equal(cxd_tclass_parse("low_latency"), CXD_TC_LOW_LATENCY);
	assert_int_equal(cxd_tclass_parse("BULK_DATA"), CXD_TC_BULK_DATA);
	assert_int_equal(cxd_tclass_parse("default"), -1);
	assert_int_equal(cxd_tclass_parse("fast"), -1);
}

static void test_tclass_option(void **state)
{
	struct cxd_cfg cfg;
	char err[256] = "";

	(void) state;
	assert_int_equal(argv_cfg(&cfg, err, "cxi_write_lat", "--tclass",
				  "scavenger", NULL), 0);
	assert_int_equal(cfg.run.tclass, CXD_TC_SCAVENGER);
	assert_int_equal(argv_cfg(&cfg, err, "cxi_read_bw", NULL), 0);
	assert_int_equal(cfg.run.tclass, CXD_TC_UNSPEC);
	assert_int_not_equal(argv_cfg(&cfg, err, "cxi_write_bw", "--tclass",
				      "fast", NULL), 0);
	assert_non_null(strstr(err, "'fast'"));
	assert_int_equal(argv_cfg(&cfg, err, "cxi_sweep", "--congestion",
				  "--aggressor-tclass", "bulk_data", NULL), 0);
	assert_true(cfg.sweep.cg_flags & CXD_CG_ON);
	assert_int_equal(cfg.sweep.aggr_tclass, CXD_TC_BULK_DATA);
	/* a pair tool has no --congestion */
	assert_int_not_equal(argv_cfg(&cfg, err, "cxi_write_bw",
				      "--congestion", NULL), 0);
}

static void test_congest_impact_ratio_nan_when_unknown(void **state)
{
	(void) state;
	assert_true(fabs(cxd_cg_impact(CXD_CGM_MEAN, 2.0, 10.0) - 5.0) < 1e-12);
	assert_true(fabs(cxd_cg_impact(CXD_CGM_P99, 4.0, 2.0) - 0.5) < 1e-12);
	/* bandwidth: isolated / loaded, so a slower link is above 1 too */
	assert_true(fabs(cxd_cg_impact(CXD_CGM_BW, 100.0, 25.0) - 4.0) < 1e-12);
	assert_true(isnan(cxd_cg_impact(CXD_CGM_BW, 0.0, 25.0)));
	assert_true(isnan(cxd_cg_impact(CXD_CGM_MEAN, 1.0, NAN)));
	assert_true(isnan(cxd_cg_impact(CXD_CGM_MEAN, -1.0, 2.0)));
}

/* Two links: one hit hard by incast, one not; a third with no figures. */
static void fill(struct cxd_cg_link *l)
{
	for (int k = 0; k < 3; k++)
		for (int p = 0; p < CXD_CG_NPHASES; p++)
			for (int m = 0; m < CXD_CGM_COUNT; m++)
				l[k].v[p][m] = k == 2 ? NAN :
					       m == CXD_CGM_BW ? 100.0 : 10.0;
	l[0].src = 0, l[0].dst = 1, l[1].src = 2, l[1].dst = 3;
	l[2].src = 1, l[2].dst = 0;
	l[0].v[CXD_CG_INCAST][CXD_CGM_MEAN] = 90.0;
	l[0].v[CXD_CG_INCAST][CXD_CGM_BW] = 20.0;
}

static void test_set_and_verdict(void **state)
{
	struct cxd_cg_link l[3];
	int vict[] = { 0, 1, 2, 3 }, aggr[] = { 4, 5, 6, 7 };
	struct cxd_cg_split sp = { 8, 4, 4, vict, aggr };
	struct cxd_sweep_rank ranks[8];
	struct cxd_cg_res r = { .sp = &sp, .ranks = ranks, .nhosts = 8,
				.links = l, .nlinks = 3 };
	char v[512];

	(void) state;
	memset(ranks, 0, sizeof(ranks));
	fill(l);
	/* the mean over the links that have the figure (not the NAN one) */
	assert_true(fabs(cxd_cg_set_value(l, 3, CXD_CG_INCAST, CXD_CGM_MEAN) -
			 50.0) < 1e-9);
	cxd_cg_verdict(&r, v, sizeof(v));
	assert_non_null(strstr(v, "worst victim impact 5.00x (incast, lat "
			       "mean)"));
	assert_non_null(strstr(v, "a hint only: 8 ranks on 8 hosts"));
	sp.n = 12;
	r.nhosts = 12;
	cxd_cg_verdict(&r, v, sizeof(v));
	assert_null(strstr(v, "hint only"));
	r.nhosts = 3; /* enough ranks, but sharing hosts */
	cxd_cg_verdict(&r, v, sizeof(v));
	assert_non_null(strstr(v, "hint only"));
}

static void test_congest_json_holds_impact_links_and_seed(void **state)
{
	struct cxd_cg_link l[3];
	int vict[] = { 0, 1, 2, 3 }, aggr[] = { 4, 5, 6, 7 };
	struct cxd_cg_split sp = { 8, 4, 4, vict, aggr };
	struct cxd_sweep_rank ranks[8];
	char *argv[] = { "cxi_sweep", "--congestion", NULL };
	struct cxd_cfg cfg = { 0 };
	struct cxd_cg_res r = { .sp = &sp, .ranks = ranks, .nhosts = 2,
				.links = l, .nlinks = 2, .seed = 9,
				.cfg = &cfg };
	char path[] = "/tmp/test_congest_XXXXXX", err[256];
	json_object *d, *c, *x;
	int fd = mkstemp(path);

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	memset(ranks, 0, sizeof(ranks));
	fill(l);
	cxd_stamp_take(&cfg.out.stamp, 2, argv);
	assert_int_equal(cxd_cg_write_json(&r, path, err, sizeof(err)), 0);
	d = json_object_from_file(path);
	assert_non_null(d);
	/* the stamp every document opens with (docs/json.md) */
	assert_true(json_object_object_get_ex(d, "schema_version", &x));
	assert_int_equal(json_object_get_int(x), CXD_SCHEMA_CONGESTION);
	assert_true(json_object_object_get_ex(d, "start_time", &x));
	assert_int_equal(strlen(json_object_get_string(x)), 20);
	assert_string_equal(json_object_get_string(x) + 19, "Z");
	assert_true(json_object_object_get_ex(d, "host", &x));
	assert_string_equal(json_object_get_string(x), cfg.out.stamp.host);
	assert_true(json_object_object_get_ex(d, "command", &x));
	assert_int_equal(json_object_array_length(x), 2);
	assert_string_equal(json_object_get_string(
				    json_object_array_get_idx(x, 1)),
			    "--congestion");
	assert_true(json_object_object_get_ex(d, "congestion", &c));
	assert_true(json_object_object_get_ex(c, "set", &x));
	assert_true(json_object_object_get_ex(x, "incast", &x));
	assert_true(json_object_object_get_ex(x, "impact", &x));
	assert_true(json_object_object_get_ex(x, "lat_mean_us", &x));
	assert_true(fabs(json_object_get_double(x) - 5.0) < 1e-9);
	assert_true(json_object_object_get_ex(c, "links", &x));
	assert_int_equal(json_object_array_length(x), 2);
	assert_true(json_object_object_get_ex(c, "seed", &x));
	assert_int_equal(json_object_get_int64(x), 9);
	json_object_put(d);
	unlink(path);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_split_counts),
	cmocka_unit_test(test_split_placement),
	cmocka_unit_test(test_congest_options_parse_or_name_the_bad),
	cmocka_unit_test(test_tclass_option),
	cmocka_unit_test(test_congest_impact_ratio_nan_when_unknown),
	cmocka_unit_test(test_set_and_verdict),
	cmocka_unit_test(test_congest_json_holds_impact_links_and_seed))

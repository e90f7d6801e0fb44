/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's verdict: noise, rules, outliers, suspects (the topology
 * and baseline files: test_sweep_inputs.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/judge/judge_suspects.h"
#include "sweep/judge/stat.h"

#define N 6

/* An N x N fabric at 24 MB/s whose links to and from slow[] run at
 * rate * 24 (both ends slow: the slower counts). */
static void fabric(double *m, const int *slow, int nslow, double rate)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			bool s = false;

			for (int k = 0; k < nslow; k++)
				s |= slow[k] == i || slow[k] == j;
			m[i * N + j] = i == j ? NAN : s ? 24 * rate : 24;
		}
}

static struct cxd_rules rules_for(const double *bw, double noise)
{
	struct cxd_rules r = { .n = N };

	r.typical[CXD_M_BW] = cxd_judge_typical(bw, N);
	r.tol[CXD_M_BW] = cxd_judge_tol(CXD_M_BW, noise, 0);
	r.typical[CXD_M_LAT] = NAN;
	r.tol[CXD_M_LAT] = cxd_judge_tol(CXD_M_LAT, noise, 0);
	return r;
}

static void test_judge_noise_from_relative_differences(void **state)
{
	double x[3] = { 100, 101, 99 }, d[3];

	(void) state;
	assert_int_equal(cxd_judge_rel_diffs(x, 3, d), 3);
	/* |100-101|, |100-99|, |101-99| over 100 */
	assert_true(fabs(d[0] - 0.01) < 1e-12 && fabs(d[2] - 0.02) < 1e-12);
	assert_true(fabs(cxd_judge_sigma(0.01) - 0.010483) < 1e-5);
	x[1] = NAN;
	assert_int_equal(cxd_judge_rel_diffs(x, 3, d), 1);
}

/* At 4 ranks one slow rank owns half the links: the median of links
 * falls between, the median of rows does not. */
static void test_judge_typical_link_ignores_one_slow_rank(void **state)
{
	double m[16];

	(void) state;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			m[i * 4 + j] = i == j ? NAN : i == 2 || j == 2 ? 18 : 24;
	assert_true(cxd_stat_median(m, 16) < 24);
	assert_true(cxd_judge_typical(m, 4) == 24);
}

static void test_judge_tolerance_floor_sigma_and_poor(void **state)
{
	struct cxd_tol t;

	(void) state;
	t = cxd_judge_tol(CXD_M_BW, 0.005, 0); /* quiet: the floor */
	assert_true(fabs(t.tol - 0.10) < 1e-12 && !t.poor && !t.explicit_);
	t = cxd_judge_tol(CXD_M_BW, 0.03, 0);  /* 4 sigma */
	assert_true(fabs(t.tol - 0.12) < 1e-12 && !t.poor);
	t = cxd_judge_tol(CXD_M_BW, 0.04, 0);  /* 16 %: a lane down too near */
	assert_true(t.poor);
	t = cxd_judge_tol(CXD_M_BW, 0.08, 0);  /* cannot see a lane down */
	assert_true(t.poor);
	t = cxd_judge_tol(CXD_M_BW, NAN, 0);
	assert_true(t.poor);
	t = cxd_judge_tol(CXD_M_BW, 0.08, 93); /* --min-bw 93: as said */
	assert_true(fabs(t.tol - 0.07) < 1e-12 && t.explicit_ && !t.poor);
	t = cxd_judge_tol(CXD_M_LAT, 0.01, 300);
	assert_true(fabs(t.tol - 2.0) < 1e-12);
	t = cxd_judge_tol(CXD_M_LAT, 0.01, 0); /* twice the typical link */
	assert_true(fabs(t.tol - 1.0) < 1e-12);
}

/* One rank a quarter slow (a lane down): its ten links and only those;
 * the retest keeps those it confirms. */
static void test_flag_lane_down(void **state)
{
	int slow[] = { 2 };
	double m[N * N];
	struct cxd_outlier o[N * N];
	struct cxd_rules r;
	size_t k;

	(void) state;
	fabric(m, slow, 1, 0.75);
	r = rules_for(m, 0.004);
	k = cxd_judge_flag(&r, m, CXD_M_BW, o, N * N);
	assert_int_equal(k, 10);
	for (size_t i = 0; i < k; i++) {
		assert_true(o[i].src == 2 || o[i].dst == 2);
		assert_int_equal(o[i].why, CXD_R_PEERS);
		assert_true(o[i].reference == 24);
		assert_true(fabs(o[i].limit - 21.6) < 1e-9);
		o[i].retest = i == 0 ? 23.9 : 18; /* the first was a blip */
	}
	{
		double busy[N * N];
		size_t nb = 99;

		for (int i = 0; i < N * N; i++)
			busy[i] = 0.01;
		/* The retest of pair 2-5 ran while rank 5 waited for a CPU:
		 * both its links are held back, not judged. */
		busy[5 * N + 2] = 0.6;
		assert_int_equal(cxd_judge_confirm(&r, o, k, busy, &nb), 7);
		assert_int_equal(nb, 2);
		assert_int_equal(o[7].src, 2);
		assert_int_equal(o[7].dst, 5);
		assert_int_equal(o[8].src, 5);
		assert_true(o[8].busy == 0.6);
	}
	/* A healthy fabric with the same noise: nothing. */
	fabric(m, slow, 0, 1);
	m[7] = 22; /* 8 % low: inside the 10 % floor */
	r = rules_for(m, 0.004);
	assert_int_equal(cxd_judge_flag(&r, m, CXD_M_BW, o, N * N), 0);
	/* Not measured is never fine. */
	m[8] = NAN;
	assert_int_equal(cxd_judge_flag(&r, m, CXD_M_BW, o, N * N), 1);
	/* Too noisy to judge against the peers: nothing but the unmeasured
	 * (the verdict then says inconclusive). */
	fabric(m, slow, 1, 0.75);
	r = rules_for(m, 0.08);
	assert_true(r.tol[CXD_M_BW].poor);
	assert_int_equal(cxd_judge_flag(&r, m, CXD_M_BW, o, N * N), 0);
}

/* The busy rule at its bound: a latency outlier confirmed by its retest
 * stands only when neither rank waited for a CPU over 20 % of the retest.
 * Two ranks sharing a CPU wait about half of the time; 49.6 % once passed
 * as judged and failed a healthy run. */
static void test_busy_bound(void **state)
{
	const double b = CXD_JUDGE_BUSY_MAX;
	const double share[] = { 0.02, b - 0.001, NAN, b + 0.001, 0.496,
				 0.6 };
	struct cxd_outlier o[6];
	struct cxd_rules r = { .n = N };
	double busy[N * N];
	size_t nb = 99;

	(void) state;
	assert_true(b >= 0.15 && b <= 0.25);
	r.typical[CXD_M_BW] = r.typical[CXD_M_LAT] = 0.34;
	r.tol[CXD_M_BW] = cxd_judge_tol(CXD_M_BW, 0.01, 0);
	r.tol[CXD_M_LAT] = cxd_judge_tol(CXD_M_LAT, 0.01, 0);
	for (int i = 0; i < 6; i++)
		o[i] = (struct cxd_outlier){ 0, i, CXD_M_LAT, 0.85, 0.34, 0.68,
					     0.87, share[i], CXD_R_PEERS };
	o[5].retest = 0.35; /* busy, but the retest is fine: dropped */
	assert_int_equal(cxd_judge_confirm(&r, o, 6, NULL, &nb), 3);
	assert_int_equal(nb, 2);
	/* Quiet, just under the bound, unknown (no schedstat): judged. */
	assert_true(o[0].busy == 0.02 && o[1].busy == b - 0.001);
	assert_true(isnan(o[2].busy));
	/* Just over it, and the wait that once failed: not judged. */
	assert_true(o[3].busy == b + 0.001 && o[4].busy == 0.496);
	assert_true(cxd_judge_held(&o[3]) && !cxd_judge_held(&o[1]));
	/* Bandwidth: a wait under the bound that explains the shortfall
	 * (620 against a bound of 719 with 15 % waited: 611) holds it; a
	 * quiet pair's 2 % does not, nor a link slower than the wait. */
	{
		struct cxd_outlier w = { 1, 0, CXD_M_BW, 603, 820, 719, 620,
					 0.15, CXD_R_PEERS };

		assert_true(cxd_judge_held(&w));
		w.busy = 0.02;
		assert_false(cxd_judge_held(&w));
		w.busy = 0.10;
		assert_false(cxd_judge_held(&w)); /* 647 > 620: the link's */
		w.busy = NAN;
		assert_false(cxd_judge_held(&w));
	}
	/* From the matrix: the busier rank of the pair counts. */
	for (int i = 0; i < N * N; i++)
		busy[i] = 0.01;
	busy[2 * N + 0] = b + 0.05; /* rank 2, during its retest with 0 */
	for (int i = 0; i < 3; i++)
		o[i] = (struct cxd_outlier){ 0, i + 1, CXD_M_LAT, 0.85, 0.34,
					     0.68, 0.87, NAN, CXD_R_PEERS };
	assert_int_equal(cxd_judge_confirm(&r, o, 3, busy, &nb), 2);
	assert_int_equal(nb, 1);
	assert_int_equal(o[2].dst, 2);
	assert_true(o[2].busy == b + 0.05);
}

/* Everything at half its baseline: the peers see nothing, the baseline
 * every link; an absolute floor too. */
/* A healthy fabric in was, the same at half speed in now, and the rules
 * judging now with no baseline yet. */
static struct cxd_rules halved(double *now, double *was)
{
	fabric(now, NULL, 0, 1);
	fabric(was, NULL, 0, 1);
	for (int i = 0; i < N * N; i++)
		now[i] /= 2;
	return rules_for(now, 0.004);
}

static void test_baseline_and_expect(void **state)
{
	double now[N * N], was[N * N];
	struct cxd_outlier o[N * N];
	struct cxd_rules r;

	(void) state;
	r = halved(now, was);
	assert_int_equal(cxd_judge_flag(&r, now, CXD_M_BW, o, N * N), 0);
	r.base[CXD_M_BW] = was;
	r.base_tol[CXD_M_BW] = 0.12; /* the baseline's own, the wider */
	assert_int_equal(cxd_judge_flag(&r, now, CXD_M_BW, o, N * N), 30);
	assert_int_equal(o[0].why, CXD_R_BASELINE);
	assert_string_equal(cxd_judge_reason_name(o[0].why), "baseline");
	assert_true(o[0].reference == 24);
	assert_true(fabs(o[0].limit - 24 * 0.88) < 1e-9);
	/* A baseline whose own run was too noisy: never a licence to pass
	 * a halved fabric within its 72 %, nor a ground to flag. */
	r.base_tol[CXD_M_BW] = 0.72;
	r.base_poor[CXD_M_BW] = cxd_judge_poor(CXD_M_BW, 0.72);
	assert_true(r.base_poor[CXD_M_BW]);
	assert_false(cxd_judge_poor(CXD_M_BW, 0.12));
	assert_int_equal(cxd_judge_flag(&r, now, CXD_M_BW, o, N * N), 0);
	r.base_poor[CXD_M_BW] = false;
	r.base[CXD_M_BW] = NULL;
	r.expect[CXD_M_BW] = 12.5;
	assert_int_equal(cxd_judge_flag(&r, now, CXD_M_BW, o, N * N), 30);
	assert_string_equal(cxd_judge_reason_name(o[0].why), "expected");
	r.expect[CXD_M_BW] = 11.5;
	assert_int_equal(cxd_judge_flag(&r, now, CXD_M_BW, o, N * N), 0);
}

static size_t suspects_of(const double *m, const struct cxd_topo_map *t,
			  struct cxd_suspect *s)
{
	struct cxd_outlier o[N * N];
	struct cxd_rules r = rules_for(m, 0.004);
	size_t k = cxd_judge_flag(&r, m, CXD_M_BW, o, N * N);

	return cxd_judge_suspects(o, k, N, t, s, 16);
}

/* A suspect named: its kind and id, and bad of the links it carries
 * out. */
static void assert_suspect(const struct cxd_suspect *s,
			   enum cxd_suspect_kind kind, int id, int bad,
			   int links)
{
	assert_int_equal(s->kind, kind);
	assert_int_equal(s->id, id);
	assert_int_equal(s->bad, bad);
	assert_int_equal(s->links, links);
}

static void test_suspect_rank(void **state)
{
	int one[] = { 2 }, two[] = { 2, 3 };
	double m[N * N];
	struct cxd_suspect s[16];

	(void) state;
	fabric(m, one, 1, 0.75);
	assert_int_equal(suspects_of(m, NULL, s), 1);
	assert_suspect(&s[0], CXD_S_RANK, 2, 10, 10);
	/* Two slow ranks: both named, each 10 of 10. */
	fabric(m, two, 2, 0.75);
	assert_int_equal(suspects_of(m, NULL, s), 2);
	assert_int_equal(s[1].id, 3);
	/* One bad link: the link is reported, nobody is a suspect. */
	fabric(m, NULL, 0, 1);
	m[1 * N + 4] = 5;
	assert_int_equal(suspects_of(m, NULL, s), 0);
}

/* Ranks 2 and 3 behind a switch whose uplink is slow: fine between
 * themselves, slow to everyone else. */
static void test_suspect_switch(void **state)
{
	int sof[N] = { 0, 0, 1, 1, 0, 0 }, gof[N] = { 0, 0, 1, 1, 0, 0 };
	struct cxd_topo_map t = { .switch_of = sof, .group_of = gof,
				  .nswitch = 2, .ngroup = 2 };
	int two[] = { 2, 3 };
	double m[N * N];
	struct cxd_suspect s[16];

	(void) state;
	fabric(m, two, 2, 0.75);
	m[2 * N + 3] = m[3 * N + 2] = 24;
	assert_int_equal(suspects_of(m, NULL, s), 2); /* 8 of 10 each */
	assert_int_equal(s[0].bad, 8);
	assert_int_equal(suspects_of(m, &t, s), 1);
	assert_suspect(&s[0], CXD_S_SWITCH, 1, 16, 16);
	assert_int_equal(s[0].bad_in, 0);
	assert_int_equal(s[0].in, 2);
	assert_true(cxd_judge_rank_suspect(s, 1, 3, &t));
	assert_false(cxd_judge_rank_suspect(s, 1, 4, &t));
	/* Two switches of one group, both cut off: the group is named. */
	sof[2] = 1, sof[3] = 2, t.nswitch = 3;
	assert_int_equal(suspects_of(m, &t, s), 1);
	assert_int_equal(s[0].kind, CXD_S_GROUP);
	assert_int_equal(s[0].id, 1);
}

/* Three groups of two: {0,1} {2,3} {4,5}. Every link between groups 0
 * and 1 slow (a bundle of global links at half speed), nothing else:
 * the links between the two groups are named, no rank, switch or group;
 * each of the four ranks has 4 of its 10 links out. */
static void test_suspect_bundle(void **state)
{
	int sof[N] = { 0, 1, 2, 3, 4, 5 }, gof[N] = { 0, 0, 1, 1, 2, 2 };
	struct cxd_topo_map t = { .switch_of = sof, .group_of = gof,
				  .nswitch = 6, .ngroup = 3 };
	double m[N * N];
	struct cxd_suspect s[16];

	(void) state;
	fabric(m, NULL, 0, 1);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			if (i != j && gof[i] + gof[j] == 1)
				m[i * N + j] = 12;
	assert_int_equal(suspects_of(m, NULL, s), 0);
	assert_int_equal(suspects_of(m, &t, s), 1);
	assert_suspect(&s[0], CXD_S_BUNDLE, 0, 8, 8);
	assert_int_equal(s[0].id2, 1);
	for (int r = 0; r < N; r++)
		assert_false(cxd_judge_rank_suspect(s, 1, r, &t));
	assert_true(cxd_judge_link_suspect(s, 1, 1, 2, &t));
	assert_true(cxd_judge_link_suspect(s, 1, 3, 0, &t));
	assert_false(cxd_judge_link_suspect(s, 1, 0, 4, &t));
	assert_false(cxd_judge_link_suspect(s, 1, 0, 1, &t));
	/* Half of them only (one direction): no majority, no bundle. */
	for (int i = 2; i < 4; i++)
		for (int j = 0; j < 2; j++)
			m[i * N + j] = 24;
	assert_int_equal(suspects_of(m, &t, s), 0);
}

/* The calibration: pairs alone against their rounds. */
static void test_crowd(void **state)
{
	double ratio[6] = { 1.02, NAN, 0.99, 1.01, NAN, 1.03 };
	struct cxd_tol t = cxd_judge_tol(CXD_M_BW, 0.004, 0);

	(void) state;
	assert_true(isnan(t.crowd));
	cxd_judge_crowd(&t, CXD_M_BW, ratio, NULL, 6);
	assert_int_equal(t.crowd_pairs, 4);
	assert_true(fabs(t.crowd - 0.015) < 1e-9);
	assert_false(t.crowded);
	assert_false(t.poor);
	/* Alone 5 times as fast: the round's pairs shared links. */
	for (int i = 0; i < 6; i++)
		ratio[i] = i % 2 ? 5.0 : 4.0;
	cxd_judge_crowd(&t, CXD_M_BW, ratio, NULL, 6);
	assert_true(t.crowded);
	assert_true(t.poor);
	assert_true(fabs(t.crowd - 3.5) < 1e-9);
	/* Nothing measured alone: nothing said. */
	t = cxd_judge_tol(CXD_M_BW, 0.004, 0);
	cxd_judge_crowd(&t, CXD_M_BW, NULL, NULL, 0);
	assert_true(isnan(t.crowd));
	assert_false(t.poor);
}

/* Latency's calibration: in the round / alone. 1.5 times is within
 * latency's 100 % floor; 400 times (8 bytes waiting on a scheduler's
 * tick where ranks share CPUs) crowded; the floor, not a noise-widened
 * tolerance, bounds it. */
static void test_crowd_lat(void **state)
{
	double ratio[4] = { 1.5, 1.4, NAN, 1.6 };
	int cls[4] = { 0, 0, -1, 0 };
	struct cxd_tol t = cxd_judge_tol(CXD_M_LAT, 0.05, 0);

	(void) state;
	cxd_judge_crowd(&t, CXD_M_LAT, ratio, cls, 4);
	assert_false(t.crowded);
	assert_false(t.poor);
	assert_int_equal(t.crowd_pairs_of[0], 3);
	for (int i = 0; i < 4; i++)
		ratio[i] = 400.0;
	t = cxd_judge_tol(CXD_M_LAT, 0.6, 0);
	assert_true(t.poor);
	cxd_judge_crowd(&t, CXD_M_LAT, ratio, cls, 4);
	assert_true(t.crowded);
	/* A bandwidth floor would call 1.5 times crowded; latency's not. */
	for (int i = 0; i < 4; i++)
		ratio[i] = 1.5;
	t = cxd_judge_tol(CXD_M_LAT, 0.6, 0);
	cxd_judge_crowd(&t, CXD_M_LAT, ratio, cls, 4);
	assert_false(t.crowded);
}

/* Every link slow (against a baseline): the fabric, not six nodes. */
static void test_suspect_fabric(void **state)
{
	double now[N * N], was[N * N];
	struct cxd_outlier o[N * N];
	struct cxd_suspect s[16];
	struct cxd_rules r;
	size_t k;

	(void) state;
	r = halved(now, was);
	r.base[CXD_M_BW] = was;
	k = cxd_judge_flag(&r, now, CXD_M_BW, o, N * N);
	assert_int_equal(cxd_judge_suspects(o, k, N, NULL, s, 16), 1);
	assert_int_equal(s[0].kind, CXD_S_FABRIC);
	assert_int_equal(s[0].bad, 30);
	assert_false(cxd_judge_rank_suspect(s, 1, 0, NULL));
}

/* Each rank judging its own row (its baseline row only) flags exactly
 * what a judge of the whole matrix flags. */
static void test_flag_by_rows(void **state)
{
	int slow[] = { 2 };
	double m[N * N], was[N * N];
	struct cxd_outlier all[N * N], row[N];
	struct cxd_rules r, mine;
	size_t k, got = 0;

	(void) state;
	fabric(m, slow, 1, 0.75);
	fabric(was, NULL, 0, 1);
	was[0 * N + 1] = 40; /* one link was much faster */
	r = rules_for(m, 0.004);
	r.base[CXD_M_BW] = was;
	k = cxd_judge_flag(&r, m, CXD_M_BW, all, N * N);
	assert_int_equal(k, 11);
	for (int i = 0; i < N; i++) {
		size_t n;

		mine = r;
		mine.base[CXD_M_BW] = was + i * N;
		mine.base_row = true;
		n = cxd_judge_flag_row(&mine, m + i * N, CXD_M_BW, i, row, N);
		for (size_t j = 0; j < n; j++, got++) {
			assert_int_equal(row[j].src, all[got].src);
			assert_int_equal(row[j].dst, all[got].dst);
			assert_int_equal(row[j].why, all[got].why);
			assert_true(row[j].limit == all[got].limit);
		}
	}
	assert_int_equal(got, k);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_judge_noise_from_relative_differences),
	cmocka_unit_test(test_judge_typical_link_ignores_one_slow_rank),
	cmocka_unit_test(test_judge_tolerance_floor_sigma_and_poor),
	cmocka_unit_test(test_flag_lane_down),
	cmocka_unit_test(test_busy_bound),
	cmocka_unit_test(test_baseline_and_expect),
	cmocka_unit_test(test_suspect_rank),
	cmocka_unit_test(test_suspect_switch),
	cmocka_unit_test(test_suspect_fabric),
	cmocka_unit_test(test_flag_by_rows),
	cmocka_unit_test(test_suspect_bundle),
	cmocka_unit_test(test_crowd),
	cmocka_unit_test(test_crowd_lat))

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency over the routes (lib/sweep/judge/judge_lat.c) on synthetic
 * matrices of a 128-rank dragonfly-like placement (8 groups of 4
 * switches of 4 ranks): every switch pair takes its own route's latency
 * (0.21 us on one switch, 0.31 within a group, 0.41-0.51 across by the
 * hops its way crosses), every link a seeded multiplicative noise. A NIC
 * that adds 150 ns to each of its pairs is named; healthy noise is not;
 * nor is a host whose pairs waited for a CPU, nor a rank whose excess is
 * within the noise of its own pairs (a tapered fabric's slow class).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge_lat.h"

#define MAXN 128

struct mat {
	int n, ns;
	int sof[MAXN], gof[MAXN];
	struct cxd_topo_map tm;
	double lat[MAXN * MAXN], busy[MAXN * MAXN];
	unsigned seed;
};

/* A standard normal from a small seeded generator (Box-Muller): the
 * same matrix every run. */
static double gauss(struct mat *m)
{
	double u, v;

	m->seed = m->seed * 1103515245u + 12345u;
	u = ((m->seed >> 8) + 1.0) / 16777218.0;
	m->seed = m->seed * 1103515245u + 12345u;
	v = ((m->seed >> 8) + 1.0) / 16777218.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A route's latency between switches a and b: one switch, one group,
 * or across groups with 0-2 hops inside the groups (by where the
 * bundle lands, here a function of the two switches). */
static double route(int a, int b, int s)
{
	if (a == b)
		return 0.206;
	if (a / s == b / s)
		return 0.306;
	return 0.406 + 0.05 * ((a % s != b / s % s) + (b % s != a / s % s));
}

/* g groups of s switches of h ranks; noise: a link's relative sigma. */
static void make(struct mat *m, int g, int s, int h, double noise)
{
	memset(m, 0, sizeof(*m));
	m->n = g * s * h;
	m->ns = g * s;
	m->seed = 7;
	for (int r = 0; r < m->n; r++) {
		m->sof[r] = r / h;
		m->gof[r] = r / (h * s);
	}
	for (int i = 0; i < m->n; i++)
		for (int j = 0; j < m->n; j++) {
			m->lat[i * m->n + j] = i == j ? NAN :
				route(m->sof[i], m->sof[j], s) *
				exp(noise * gauss(m));
			m->busy[i * m->n + j] = i == j ? NAN : 0.02;
		}
	m->tm = (struct cxd_topo_map){ .switch_of = m->sof,
		.group_of = m->gof, .nswitch = m->ns, .ngroup = g };
}

/* Rank r adds x us to each of its pairs, both ways. */
static void slow_nic(struct mat *m, int r, double x)
{
	for (int j = 0; j < m->n; j++)
		if (j != r) {
			m->lat[r * m->n + j] += x;
			m->lat[j * m->n + r] += x;
		}
}

static void fit(struct mat *m, double noise, struct cxd_latfit *f)
{
	const struct cxd_latfit_in in = { .n = m->n, .lat = m->lat,
		.busy = m->busy, .topo = &m->tm, .noise = noise,
		.typical = 0.206 };

	assert_int_equal(cxd_latfit_run(&in, f), 0);
	assert_int_equal(f->state, CXD_LF_RAN);
}

/* One rank named, id, its excess within tol of want (us). */
static void assert_named_alone(const struct cxd_latfit *f, int id,
			       double want, double tol)
{
	assert_int_equal(f->nnamed, 1);
	assert_int_equal(f->named[0].id, id);
	assert_true(fabs(f->named[0].lat_excess - want) < tol);
}

/* +150 ns on rank 21 of a quiet fabric (0.1 % noise): named alone,
 * with about its excess, every pair of it beyond the bound. */
static void test_nic_150ns_named(void **state)
{
	static struct mat m;
	struct cxd_latfit f;

	(void) state;
	make(&m, 8, 4, 4, 0.001);
	slow_nic(&m, 21, 0.150);
	fit(&m, 0.001, &f);
	assert_named_alone(&f, 21, 0.150, 0.005);
	assert_int_equal(f.named[0].kind, CXD_S_RANK);
	assert_int_equal(f.named[0].metric, CXD_M_LAT);
	assert_true(f.named[0].bad > 120);
	assert_int_equal(f.named[0].links, 127);
	assert_true(f.bound < 0.150);
	cxd_latfit_free(&f);
}

/* Two ranks a switch: a switch pair's median is the mean of its two
 * ranks', so the fit splits the excess between them (no pair tells a
 * switch +x/2 with its ranks +-x/2 from one rank +x). Half of 150 ns is
 * still beyond the bound: named, with half its excess. */
static void test_nic_two_a_switch(void **state)
{
	static struct mat m;
	struct cxd_latfit f;

	(void) state;
	make(&m, 8, 4, 2, 0.001);
	slow_nic(&m, 11, 0.150);
	fit(&m, 0.001, &f);
	assert_named_alone(&f, 11, 0.075, 0.01);
	cxd_latfit_free(&f);
}

/* Healthy fabrics at 0.1 %, 2 % and 5 % noise between links: nobody
 * named, and the bound grows with the noise. */
static void test_healthy_noise_not_named(void **state)
{
	static struct mat m;
	const double noise[] = { 0.001, 0.02, 0.05 };
	double last = 0;

	(void) state;
	for (size_t k = 0; k < sizeof(noise) / sizeof(noise[0]); k++) {
		struct cxd_latfit f;

		make(&m, 8, 4, 4, noise[k]);
		fit(&m, noise[k], &f);
		assert_int_equal(f.nnamed, 0);
		assert_int_equal(f.fitted, 128);
		assert_true(f.bound >= last);
		last = f.bound;
		cxd_latfit_free(&f);
	}
}

/* A host whose pairs waited for a CPU (40 % of their time) measured
 * itself: +0.6 us on each pair, not fitted, not named. */
static void test_busy_host_not_named(void **state)
{
	static struct mat m;
	struct cxd_latfit f;

	(void) state;
	make(&m, 8, 4, 4, 0.01);
	slow_nic(&m, 21, 0.600);
	for (int j = 0; j < m.n; j++)
		m.busy[21 * m.n + j] = j == 21 ? NAN : 0.40;
	fit(&m, 0.01, &f);
	assert_int_equal(f.nnamed, 0);
	assert_int_equal(f.busy, 1);
	assert_true(isnan(f.excess[21]));
	assert_int_equal(f.fitted, 127);
	cxd_latfit_free(&f);
}

/* A tapered fabric as the real-fabric test shapes one (tc tbf): two
 * groups, pairs across them 3,500 us (the shaped link's queue), 9 on one
 * switch, 20 within a group; rank 5 (switch 1 of group 1) +434 us on each
 * of its pairs, as one retransmit made it. At 26 % repeat noise that is
 * within its own bound (the noise as a share of its typical pair), not
 * named though far beyond the run's bound from the one-switch pairs; at
 * 0.1 % noise it is named, its bound its own. */
static void tapered(struct mat *m, double noise)
{
	static const int sw[7] = { 0, 0, 0, 1, 1, 1, 2 };

	memset(m, 0, sizeof(*m));
	m->n = 7;
	m->ns = 3;
	m->seed = 11;
	for (int r = 0; r < m->n; r++) {
		m->sof[r] = sw[r];
		m->gof[r] = sw[r] > 0;
	}
	for (int i = 0; i < m->n; i++)
		for (int j = 0; j < m->n; j++) {
			double t = m->sof[i] == m->sof[j] ? 9.0 :
				   m->gof[i] == m->gof[j] ? 20.0 : 3500.0;

			m->lat[i * m->n + j] = i == j ? NAN :
				t * exp(noise * gauss(m));
			m->busy[i * m->n + j] = i == j ? NAN : 0.0;
		}
	m->tm = (struct cxd_topo_map){ .switch_of = m->sof,
		.group_of = m->gof, .nswitch = 3, .ngroup = 2 };
	slow_nic(m, 5, 434.0);
}

static void test_relative_noise(void **state)
{
	static struct mat m;
	const struct cxd_latfit_in in = { .n = 7, .lat = m.lat,
		.busy = m.busy, .topo = &m.tm, .noise = 0.26, .typical = 9.0 };
	struct cxd_latfit_in quiet = in;
	struct cxd_latfit f;

	(void) state;
	tapered(&m, 0.26);
	assert_int_equal(cxd_latfit_run(&in, &f), 0);
	assert_true(f.bound < 434.0);
	assert_int_equal(f.nnamed, 0);
	cxd_latfit_free(&f);
	tapered(&m, 0.001);
	quiet.noise = 0.001;
	assert_int_equal(cxd_latfit_run(&quiet, &f), 0);
	assert_int_equal(f.nnamed, 1);
	assert_int_equal(f.named[0].id, 5);
	assert_true(f.named[0].lat_bound >= f.bound);
	assert_true(f.named[0].lat_bound < 434.0);
	cxd_latfit_free(&f);
}

/* Half the ranks slow is the fabric's typical moving, not one NIC. */
static void test_half_slow_names_none(void **state)
{
	static struct mat m;
	struct cxd_latfit f;

	(void) state;
	make(&m, 8, 4, 4, 0.001);
	for (int r = 0; r < m.n; r += 2)
		slow_nic(&m, r, 0.150);
	fit(&m, 0.001, &f);
	assert_int_equal(f.nnamed, 0);
	cxd_latfit_free(&f);
}

CXD_UNIT_MAIN(cmocka_unit_test(test_nic_150ns_named),
	      cmocka_unit_test(test_nic_two_a_switch),
	      cmocka_unit_test(test_healthy_noise_not_named),
	      cmocka_unit_test(test_relative_noise),
	      cmocka_unit_test(test_busy_host_not_named),
	      cmocka_unit_test(test_half_slow_names_none))

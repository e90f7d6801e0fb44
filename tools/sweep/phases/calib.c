/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: did the pairs measured at once lower each other's
 * bandwidth, or raise each other's latency? With no --topology the
 * sweep cannot know which pairs share links (a tapered fabric's global
 * or spine links), and with one the links it knows may not be all that
 * is shared (where a group's global links land, how a fat tree hashes
 * over its spines); so after the passes a sample of every class of link (on one switch, within a group,
 * across groups: each pass's pairs, lclass.h) is measured again one pair
 * at a time, and each figure is set against the same link's figure from
 * its pass. Latency too: ranks that share a host's CPUs (or a shared
 * link's queue) wait on each other, and 8 bytes that take 10 us alone
 * took 4 ms, a scheduler's tick, in rounds of three pairs on 2 cores.
 * Rank 0 keeps the ratios and classes; the rules (judge_mpi.c,
 * cxd_judge_crowd) decide what they mean.
 */
#include <math.h>
#include <stdlib.h>

#include "sweep/judge/judge.h"
#include "sweep/sched/retest.h"
#include "sweep/judge/stat.h"
#include "calib.h"

/* Per class: enough pairs for a median, few enough to cost little (one
 * at a time). */
#define CALIB_PAIRS 12

/* The link this rank led alone, and its figure per metric. */
struct alone {
	struct sw_meter *mt;
	int peer;
	double v[2];
};

static void keep_alone(void *arg, uint64_t k, const struct sw_dir *d,
		       const struct sw_fig *f)
{
	struct alone *a = arg;

	(void) k;
	a->peer = d->peer;
	a->v[d->lat ? CXD_M_LAT : CXD_M_BW] = f->v;
}

/* The calibration's pair: one latency and one bandwidth run each way. */
static void calib_pair(void *arg, const struct sw_turn *t, int p)
{
	struct alone *a = arg;
	const struct sw_ctx *c = a->mt->c;

	if (sw_pair_runs(a->mt, t, p, 1, "peer", keep_alone, a) != 0)
		sw_die(&c->m, "with rank %d (%s) measuring alone: %s", p,
		       c->ranks[p].host, a->mt->eng->why(a->mt->eng));
}

/* This rank's link to the peer it was measured alone with against its
 * figure from the rounds (the median of the repeats), as how much
 * better it did alone: bandwidth alone / rounds, latency rounds /
 * alone; NAN: none. */
static double my_ratio(const struct alone *a, enum cxd_metric m)
{
	const struct sw_measured *f = a->mt->fig;
	double *rep, med, v = a->v[m];

	if (a->peer < 0 || !isfinite(v) || v <= 0)
		return NAN;
	rep = f->rep[m] + (size_t) a->peer * f->repeat;
	med = cxd_stat_median(rep, f->repeat);
	if (!isfinite(med) || med <= 0)
		return NAN;
	return m == CXD_M_BW ? v / med : med / v;
}

/* Rank 0: each rank's ratios, and its sampled pair's class. */
static void collect(struct sw_calib *out, const struct sw_ctx *c,
		    const struct alone *a, const struct cxd_pair *pairs,
		    const enum cxd_lclass *cls, int np)
{
	int n = c->m.n;

	if (c->m.rank == 0) {
		for (int m = 0; m < 2; m++)
			out->ratio[m] = sw_alloc(&c->m, (size_t) n,
						 sizeof(double));
		out->cls = sw_alloc(&c->m, (size_t) n, sizeof(int));
		for (int r = 0; r < n; r++)
			out->cls[r] = -1;
		for (int i = 0; i < np; i++)
			out->cls[pairs[i].a] = out->cls[pairs[i].b] =
				(int) cls[i];
	}
	for (int m = 0; m < 2; m++) {
		double mine = my_ratio(a, (enum cxd_metric) m);

		sw_gather(&c->m, &mine, 1, MPI_DOUBLE, out->ratio[m],
			  "gathering the calibration");
	}
}

void sw_calibrate(struct sw_calib *out, const struct sw_ctx *c,
		  struct sw_meter *mt)
{
	/* One pair at a time: the slots chain every pair to the last. */
	const struct sw_pace_mode solo = sw_pace_mode_at(SW_RUN_BOTH, 1);
	struct cxd_pair pairs[CALIB_PAIRS * CXD_LC_N];
	enum cxd_lclass cls[CALIB_PAIRS * CXD_LC_N];
	struct alone a = { mt, -1, { NAN, NAN } };
	int np = cxd_lclass_sample(c->m.n, c->place.switch_of,
				   c->place.group_of, CALIB_PAIRS, pairs, cls);
	struct cxd_plan pl;

	*out = (struct sw_calib){ { NULL, NULL }, NULL };
	if (np < 0 || cxd_retest_plan(c->m.n, 1, pairs, np, &pl) != 0)
		sw_die(&c->m, "out of memory");
	sw_pace(c, &solo, &pl, calib_pair, &a, NULL);
	cxd_sched_free(&pl);
	collect(out, c, &a, pairs, cls, np);
}

void sw_calib_free(struct sw_calib *cb)
{
	free(cb->ratio[CXD_M_BW]);
	free(cb->ratio[CXD_M_LAT]);
	free(cb->cls);
	*cb = (struct sw_calib){ { NULL, NULL }, NULL };
}

/* Rank 0: were two or more of the links across groups (or leaves)
 * sampled faster alone than in their pass by more than the tolerance
 * before any noise widens it (--min-bw's, or the floor)? A few pairs
 * piled on one spine or switch link leave the median alone, and would
 * each be flagged. Their median ratio - 1 then, else NAN. */
static double across_crowd(const struct sw_ctx *c, const struct sw_calib *cb)
{
	double *x = sw_alloc(&c->m, (size_t) c->m.n, sizeof(double));
	/* The judge's tolerance with no noise to widen it. */
	double bound = cxd_judge_tol(CXD_M_BW, NAN, c->cfg.sweep.bw_pct).tol;
	double med;
	int over = 0;

	for (int r = 0; r < c->m.n; r++) {
		x[r] = cb->cls[r] == CXD_LC_ACROSS ? cb->ratio[CXD_M_BW][r] :
						     NAN;
		over += isfinite(x[r]) && x[r] - 1.0 > bound;
	}
	med = cxd_stat_median(x, (size_t) c->m.n) - 1.0;
	free(x);
	return over >= 2 ? med : NAN;
}

double sw_calib_crowd(const struct sw_ctx *c, const struct sw_calib *cb)
{
	double crowd = NAN;

	if (c->m.rank == 0 && cb->ratio[CXD_M_BW])
		crowd = across_crowd(c, cb);
	sw_bcast(&c->m, &crowd, 1, MPI_DOUBLE, "the calibration");
	return crowd;
}

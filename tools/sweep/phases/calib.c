/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: did the pairs measured at once lower each other's
 * bandwidth? With no --topology the sweep cannot know which pairs share
 * links (a tapered fabric's global or spine links), and with one the
 * links it knows may not be all that is shared (where a group's global
 * links land, how a fat tree hashes over its spines); so after the
 * passes a sample of every class of link (on one switch, within a group,
 * across groups: each pass's pairs, lclass.h) is measured again one pair
 * at a time, and each figure is set against the same link's figure from
 * its pass. Rank 0 keeps the ratios and classes; the rules (judge_mpi.c,
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

/* The link this rank led alone, and its figure. */
struct alone {
	struct sw_meter *mt;
	int peer;
	double v;
};

static void keep_alone(void *arg, uint64_t k, const struct sw_dir *d,
		       const struct sw_fig *f)
{
	struct alone *a = arg;

	(void) k;
	a->peer = d->peer;
	a->v = f->v;
}

/* The calibration's pair: one bandwidth run each way. */
static void calib_pair(void *arg, const struct sw_turn *t, int p)
{
	struct alone *a = arg;
	const struct sw_ctx *c = a->mt->c;

	if (sw_pair_runs(a->mt, t, p, 1, "peer", keep_alone, a) != 0)
		sw_die(&c->m, "with rank %d (%s) measuring alone: %s", p,
		       c->ranks[p].host, a->mt->eng->why(a->mt->eng));
}

/* This rank's link to the peer it was measured alone with, over its
 * figure from the rounds (the median of the repeats); NAN: none. */
static double my_ratio(const struct alone *a)
{
	const struct sw_measured *f = a->mt->fig;
	double *rep, med;

	if (a->peer < 0 || !isfinite(a->v))
		return NAN;
	rep = f->rep[CXD_M_BW] + (size_t) a->peer * f->repeat;
	med = cxd_stat_median(rep, f->repeat);
	return isfinite(med) && med > 0 ? a->v / med : NAN;
}

/* Rank 0: each rank's ratio, and its sampled pair's class. */
static void collect(struct sw_calib *out, const struct sw_ctx *c,
		    double mine, const struct cxd_pair *pairs,
		    const enum cxd_lclass *cls, int np)
{
	int n = c->m.n;

	if (c->m.rank == 0) {
		out->ratio = sw_alloc(&c->m, (size_t) n, sizeof(double));
		out->cls = sw_alloc(&c->m, (size_t) n, sizeof(int));
		for (int r = 0; r < n; r++)
			out->cls[r] = -1;
		for (int i = 0; i < np; i++)
			out->cls[pairs[i].a] = out->cls[pairs[i].b] =
				(int) cls[i];
	}
	sw_gather(&c->m, &mine, 1, MPI_DOUBLE, out->ratio,
		  "gathering the calibration");
}

void sw_calibrate(struct sw_calib *out, const struct sw_ctx *c,
		  struct sw_meter *mt)
{
	/* One pair at a time: the slots chain every pair to the last. */
	const struct sw_pace_mode solo = sw_pace_mode_at(SW_RUN_BW, 1);
	struct cxd_pair pairs[CALIB_PAIRS * CXD_LC_N];
	enum cxd_lclass cls[CALIB_PAIRS * CXD_LC_N];
	struct alone a = { mt, -1, NAN };
	int np = cxd_lclass_sample(c->m.n, c->place.switch_of,
				   c->place.group_of, CALIB_PAIRS, pairs, cls);
	struct cxd_plan pl;

	*out = (struct sw_calib){ NULL, NULL };
	if (np < 0 || cxd_retest_plan(c->m.n, 1, pairs, np, &pl) != 0)
		sw_die(&c->m, "out of memory");
	sw_pace(c, &solo, &pl, calib_pair, &a, NULL);
	cxd_sched_free(&pl);
	collect(out, c, my_ratio(&a), pairs, cls, np);
}

void sw_calib_free(struct sw_calib *cb)
{
	free(cb->ratio);
	free(cb->cls);
	*cb = (struct sw_calib){ NULL, NULL };
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
		x[r] = cb->cls[r] == CXD_LC_ACROSS ? cb->ratio[r] : NAN;
		over += isfinite(x[r]) && x[r] - 1.0 > bound;
	}
	med = cxd_stat_median(x, (size_t) c->m.n) - 1.0;
	free(x);
	return over >= 2 ? med : NAN;
}

double sw_calib_crowd(const struct sw_ctx *c, const struct sw_calib *cb)
{
	double crowd = NAN;

	if (c->m.rank == 0 && cb->ratio)
		crowd = across_crowd(c, cb);
	sw_bcast(&c->m, &crowd, 1, MPI_DOUBLE, "the calibration");
	return crowd;
}

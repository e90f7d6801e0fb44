/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: did the pairs of a round lower each other's bandwidth? With
 * no --topology the sweep cannot know which pairs share links (a tapered
 * fabric's global or spine links), and with one the domains it names may
 * not be all that is shared; so after the rounds a sample of one round's
 * pairs is measured again one pair at a time, and each figure is set
 * against the same link's figure from its round. Rank 0 keeps the
 * ratios; the rules (judge_mpi.c, cxd_judge_crowd) decide what they
 * mean.
 */
#include <math.h>
#include <stdlib.h>

#include "sweep/retest.h"
#include "sweep/stat.h"
#include "calib.h"

/* Enough pairs for a median, few enough to cost little (one at a time). */
#define CALIB_PAIRS 16

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
static void calib_pair(void *arg, int p)
{
	struct alone *a = arg;
	const struct sw_ctx *c = a->mt->c;

	if (sw_pair_runs(a->mt, p, 1, "peer", keep_alone, a) != 0)
		sw_die(&c->m, "with rank %d (%s) measuring alone: %s", p,
		       c->ranks[p].host, a->mt->eng->why(a->mt->eng));
}

/* Up to CALIB_PAIRS pairs of the first round, spread over it. */
static int sample(int n, struct cxd_pair *out)
{
	struct cxd_pair *all = calloc((size_t) n / 2 + 1, sizeof(*all));
	int c = all ? cxd_pairs_round(n, 0, all) : -1, k = 0;

	for (int j = 0; c > 0 && j < CALIB_PAIRS && j < c; j++)
		out[k++] = all[(size_t) j * (size_t) c /
			       (size_t) (c < CALIB_PAIRS ? c : CALIB_PAIRS)];
	free(all);
	return c < 0 ? -1 : k;
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

double *sw_calibrate(const struct sw_ctx *c, struct sw_pacing *p,
		     struct sw_meter *mt)
{
	struct cxd_pair pairs[CALIB_PAIRS];
	struct alone a = { mt, -1, NAN };
	int np = sample(c->m.n, pairs), keep = p->pairs_at_once;
	double mine, *ratio = NULL;
	struct cxd_plan pl;

	if (np < 0 || cxd_retest_plan(c->m.n, 1, pairs, np, &pl) != 0)
		sw_die(&c->m, "out of memory");
	/* One pair at a time: the slots chain every pair to the last. */
	p->pairs_at_once = 1;
	p->what = SW_RUN_BW;
	sw_pace(c, p, &pl, calib_pair, &a, NULL);
	p->what = SW_RUN_BOTH;
	p->pairs_at_once = keep;
	cxd_sched_free(&pl);
	mine = my_ratio(&a);
	if (c->m.rank == 0)
		ratio = sw_alloc(&c->m, (size_t) c->m.n, sizeof(double));
	sw_gather(&c->m, &mine, 1, MPI_DOUBLE, ratio,
		  "gathering the calibration");
	return ratio;
}

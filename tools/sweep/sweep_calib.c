/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: did the pairs of a round lower each other's bandwidth? With
 * no --topology the sweep cannot know which pairs share links (a tapered
 * fabric's global or spine links), and with one the domains it names may
 * not be all that is shared; so after the rounds a sample of one round's
 * pairs is measured again one pair at a time, and each figure is set
 * against the same link's figure from its round. Rank 0 keeps the
 * ratios; the rules (sweep_judge.c, cxd_judge_crowd) decide what they
 * mean.
 */
#include <math.h>
#include <stdlib.h>

#include "sweep/retest.h"
#include "sweep_mpi.h"

/* Enough pairs for a median, few enough to cost little (one at a time). */
#define CALIB_PAIRS 16

static void keep_alone(void *arg, uint64_t k, const struct sw_dir *d,
		       const struct sw_fig *f)
{
	struct sw *w = arg;

	(void) k;
	w->judge.alone_peer = d->peer;
	w->judge.alone_v = f->v;
}

/* The calibration's pair: one bandwidth run each way. */
static void calib_pair(struct sw *w, int p)
{
	if (sw_pair_runs(w, p, 1, "peer", keep_alone, w) != 0)
		sw_die(&w->m, "with rank %d (%s) measuring alone: %s", p,
		       w->ranks[p].host, w->eng->why(w->eng));
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
static double my_ratio(const struct sw *w)
{
	int p = w->judge.alone_peer;
	double *rep, med;

	if (p < 0 || !isfinite(w->judge.alone_v))
		return NAN;
	rep = w->judge.rep[CXD_M_BW] + (size_t) p * w->repeat;
	med = cxd_stat_median(rep, w->repeat);
	return isfinite(med) && med > 0 ? w->judge.alone_v / med : NAN;
}

void sw_calibrate(struct sw *w)
{
	struct cxd_pair pairs[CALIB_PAIRS];
	int np = sample(w->m.n, pairs), keep = w->pace.pairs_at_once;
	double mine;
	struct cxd_plan pl;

	if (np < 0 || cxd_retest_plan(w->m.n, 1, pairs, np, &pl) != 0)
		sw_die(&w->m, "out of memory");
	w->judge.alone_peer = -1;
	w->judge.alone_v = NAN;
	/* One pair at a time: the slots chain every pair to the last. */
	w->pace.pairs_at_once = 1;
	w->pace.what = SW_RUN_BW;
	sw_pace(w, &pl, calib_pair, NULL);
	w->pace.what = SW_RUN_BOTH;
	w->pace.pairs_at_once = keep;
	cxd_sched_free(&pl);
	mine = my_ratio(w);
	if (w->m.rank == 0)
		w->judge.crowd_ratio = sw_alloc(&w->m, (size_t) w->m.n,
						sizeof(double));
	sw_gather(&w->m, &mine, 1, MPI_DOUBLE, w->judge.crowd_ratio,
		  "gathering the calibration");
}

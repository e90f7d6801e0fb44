/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the link widths (width_mpi.h). A width the --topology file
 * states is taken as read. Otherwise one sample of each kind of shared
 * link the placement has is measured (lib/sweep/model/width.c chooses it): k
 * disjoint pairs across it at once, bandwidth only, one run each way,
 * for k = 1, 2, ... until a pair runs slower than the bandwidth
 * tolerance allows against one pair alone, or the sample, the hosts'
 * CPUs or CXD_WIDTH_CAP run out. Every rank takes each step's decision
 * from the same all-reduced figure, so all walk the same steps.
 */
#include <math.h>
#include <stdio.h>

#include <mpi.h>

#include "sweep/judge/judge.h"
#include "sweep/sched/retest.h"
#include "sweep/model/width.h"
#include "pace/pair.h"
#include "width_mpi.h"

/* A step's runs on this rank: the slowest figure it led (INFINITY:
 * none; 0: a run that gave no figure, which counts as slowed). */
struct wrun {
	struct sw_meter mt;
	double v;
};

static void keep_min(void *arg, uint64_t k, const struct sw_dir *d,
		     const struct sw_fig *f)
{
	struct wrun *w = arg;
	double v = isfinite(f->v) ? f->v : 0.0;

	(void) k;
	(void) d;
	if (v < w->v)
		w->v = v;
}

static void width_pair(void *arg, const struct sw_turn *t, int p)
{
	struct wrun *w = arg;
	const struct sw_ctx *c = w->mt.c;

	if (sw_pair_runs(&w->mt, t, p, 1, "peer", keep_min, w) != 0)
		sw_die(&c->m, "with rank %d (%s) measuring a link's width: %s",
		       p, c->ranks[p].host, w->mt.eng->why(w->mt.eng));
}

/* The sample's first k pairs at once, in one listed round: the slowest
 * pair's bandwidth, on every rank. */
static double run_k(const struct sw_ctx *c, struct wrun *w,
		    const struct cxd_width_sample *s, int k)
{
	/* All k at once, not in turns: their crowding is the figure. */
	const struct sw_pace_mode bw = sw_pace_mode_at(SW_RUN_BW, k);
	struct cxd_plan pl;
	double worst = 0.0;

	if (cxd_retest_plan(c->m.n, k, s->p, k, &pl) != 0)
		sw_die(&c->m, "out of memory");
	w->v = INFINITY;
	sw_pace(c, &bw, &pl, width_pair, w, NULL);
	cxd_sched_free(&pl);
	sw_allreduce(&c->m, &w->v, &worst, 1, MPI_DOUBLE, MPI_MIN,
		     "the widths' figures");
	return worst;
}

/* The cap pairs to be run, once each way at latency, all at once,
 * figures dropped: a provider connects on first use (pair.c), and the
 * first pair's figure is every later step's yardstick. */
static void warm(const struct sw_ctx *c, struct wrun *w,
		 const struct cxd_width_sample *s, int cap)
{
	const struct sw_pace_mode lat = sw_pace_mode_at(SW_RUN_LAT, cap);
	struct cxd_plan pl;

	if (cxd_retest_plan(c->m.n, cap, s->p, cap, &pl) != 0)
		sw_die(&c->m, "out of memory");
	sw_pace(c, &lat, &pl, width_pair, w, NULL);
	cxd_sched_free(&pl);
}

static void measure(const struct sw_ctx *c, struct wrun *w,
		    const struct cxd_width_sample *s,
		    struct cxd_topo_width *out)
{
	/* No noise is known yet: --min-bw's tolerance, or the judge's
	 * floor. */
	double tol = cxd_judge_tol(CXD_M_BW, NAN, c->cfg.sweep.bw_pct).tol;
	double worst[CXD_WIDTH_CAP];
	int cap = s->np < c->hosts.pairs_at_once ? s->np :
		  c->hosts.pairs_at_once, nk = 0;

	warm(c, w, s, cap);
	while (cxd_width_more(worst, nk, tol, cap)) {
		worst[nk] = run_k(c, w, s, nk + 1);
		nk++;
	}
	cxd_width_fit(worst, nk, tol, out);
}

/* Why a sample present is not measured; NULL: it is. */
static const char *why_not(const struct sw_ctx *c,
			   const struct cxd_width_sample *s)
{
	if (c->coord_only)
		return "coordination only (a test copy)";
	if (c->hosts.one_host)
		return "every rank on one host";
	if (c->hosts.pairs_at_once < 2)
		return "one pair at a time";
	if (s->np < 2)
		return "fewer than 2 hosts on a side";
	return NULL;
}

/* Kind k, not stated: measured, or said why not. */
static void one_kind(struct sw_ctx *c, struct wrun *w,
		     const struct cxd_width_sample *s, struct cxd_topo_width *got)
{
	const char *why = why_not(c, s);

	if (why) {
		got->src = CXD_TOPO_WS_UNKNOWN;
		snprintf(got->why, sizeof(got->why), "%s", why);
	} else {
		measure(c, w, s, got);
	}
	got->a = s->a;
	got->b = s->b;
}

/* The widths the topology states (rank 0's file) into stated[], on
 * every rank (0: not stated), and which they are into c. */
static void stated_widths(struct sw_ctx *c, const struct sw_inputs *in,
			  int *stated)
{
	const struct cxd_topo_width *tw = in->has_topo ? in->topo.width : NULL;

	for (int k = 0; k < CXD_TOPO_W_KINDS; k++)
		stated[k] = tw && tw[k].src == CXD_TOPO_WS_STATED ?
			    tw[k].pairs : 0;
	sw_bcast(&c->m, stated, CXD_TOPO_W_KINDS, MPI_INT, "the widths");
	for (int k = 0; k < CXD_TOPO_W_KINDS; k++)
		c->width_stated[k] = stated[k] > 0;
}

void sw_widths_stated(struct sw_ctx *c, const struct sw_inputs *in)
{
	if (c->place.switch_of != NULL)
		stated_widths(c, in, c->width);
}

void sw_widths(struct sw_ctx *c, struct sw_engine *e, struct sw_inputs *in)
{
	struct cxd_topo_width *tw = in->has_topo ? in->topo.width : NULL;
	struct cxd_width_sample s[CXD_TOPO_W_KINDS];
	struct wrun w = { { c, e, NULL, 0 }, INFINITY };
	int stated[CXD_TOPO_W_KINDS] = { 0 };

	if (c->place.switch_of == NULL)
		return;
	stated_widths(c, in, stated);
	if (cxd_width_samples(&c->place, c->ranks, c->m.n, s) != 0)
		sw_die(&c->m, "out of memory");
	for (int k = 0; k < CXD_TOPO_W_KINDS; k++) {
		struct cxd_topo_width got = { 0 };

		c->width[k] = stated[k];
		if (stated[k] || !s[k].present)
			continue;
		one_kind(c, &w, &s[k], &got);
		c->width[k] = got.pairs;
		if (tw)
			tw[k] = got;
	}
}

bool sw_widths_planned(const struct sw_ctx *c, const struct sw_inputs *in)
{
	const struct cxd_topo_width *tw = in->has_topo ? in->topo.width : NULL;
	struct cxd_width_sample s[CXD_TOPO_W_KINDS];

	if (c->place.switch_of == NULL ||
	    cxd_width_samples(&c->place, c->ranks, c->m.n, s) != 0)
		return false; /* out of memory: sw_widths says so */
	for (int k = 0; k < CXD_TOPO_W_KINDS; k++)
		if (s[k].present && !(tw && tw[k].src == CXD_TOPO_WS_STATED) &&
		    why_not(c, &s[k]) == NULL)
			return true;
	return false;
}

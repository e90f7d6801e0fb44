/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: a plan's pairs paced by the schedule chosen (pace_plan.h):
 * both metrics in one pass, or on shared links latency in full rounds
 * and then bandwidth dealt, chained, or routed (rank 0's plan, each
 * rank sent its steps, each round paced to its end: pace_steps.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "sweep/sched/sched_dealt.h"
#include "pace_plan.h"
#include "pace_steps.h"

/* The dealt bandwidth pass's plans (p->sched chose it, lib/sweep/sched/
 * sched_choose.c) at k pairs at once: nested where groups hold several
 * switches (p->shared_sw), whose switch pairs share a few links: the
 * pairs within groups dealt by switch (in), then those across groups by
 * group (out; cxd_sched_dealt_within, _across); else out alone. 0, or
 * the error. */
static int dealt_plans(const struct sw_ctx *c, const struct sw_pacing *p,
		       int k, struct cxd_plan *in, struct cxd_plan *out)
{
	bool nested = p->sched.kind == CXD_SCHED_NESTED;
	int n = c->m.n, cap = cxd_sched_cap(&p->sched);
	int ret = nested ? cxd_sched_dealt_within(n, p->shared_sw, p->shared,
						  k, in) : 0;

	if (ret == 0)
		ret = nested ? cxd_sched_dealt_across(n, p->shared, k, cap,
						      out) :
		      cxd_sched_dealt_capped(n, p->shared, k, cap, out);
	return ret;
}

/* The bandwidth pass dealt in mode bw: by domain pair into slots, their
 * parts one after the other, after the pairs within groups if nested. */
static void pace_dealt(const struct sw_ctx *c, const struct sw_pacing *p,
		       const struct sw_pace_mode *bw, sw_measure_fn *measure,
		       void *arg)
{
	struct cxd_plan in = { .ops = NULL }, out = { .ops = NULL };
	int ret = dealt_plans(c, p, bw->pairs_at_once, &in, &out);

	if (ret != 0) /* the choice made these plans once already */
		sw_die(&c->m, "%s", ret == -ENOMEM ? "out of memory" :
		       "the dealt schedule chosen could not be made");
	if (in.ops) /* made: nested */
		sw_pace(c, bw, &in, measure, arg, NULL);
	sw_pace_parts(c, bw, &out, measure, arg);
	cxd_sched_free(&in);
	cxd_sched_free(&out);
}

/* The rounds sw_pace_plan walks over plan pl in mode m with the shared
 * links: the latency pass's, then the bandwidth pass's (pl's again, or
 * the dealt plans' slots, made here to be counted): rank 0's progress
 * line only. */
static unsigned shared_rounds(const struct sw_ctx *c,
			      const struct sw_pacing *p,
			      const struct sw_pace_mode *m,
			      const struct cxd_plan *pl)
{
	enum cxd_sched_kind kind = p->sched.kind;
	struct cxd_plan in = { .ops = NULL }, out = { .ops = NULL };
	unsigned lat = m->what != SW_RUN_BW ? (unsigned) pl->nrounds : 0;
	unsigned bw = (unsigned) pl->nrounds;

	if (m->what == SW_RUN_LAT)
		return lat;
	if (cxd_sched_sweep(pl) && kind == CXD_SCHED_ROUTED)
		return lat + (unsigned) p->routed.nrounds; /* rank 0's */
	if (cxd_sched_sweep(pl) &&
	    (kind == CXD_SCHED_NESTED || kind == CXD_SCHED_DEALT) &&
	    dealt_plans(c, p, m->pairs_at_once, &in, &out) == 0)
		bw = (unsigned) ((in.ops ? in.nrounds : 0) + out.nrounds);
	cxd_sched_free(&in);
	cxd_sched_free(&out);
	return lat + bw;
}

/* The whole sweep's bandwidth pass routed, in mode bw: rank 0's plan,
 * each rank sent its own steps, each round paced to its end (a round
 * keeps the link lines within their widths, not two rounds). */
static void pace_routed(const struct sw_ctx *c, const struct sw_pacing *p,
			const struct sw_pace_mode *bw, sw_measure_fn *measure,
			void *arg)
{
	struct sw_steps st = { .np = c->m.rank == 0 ?
				     (int) ((size_t) c->m.n * (size_t)
					    (c->m.n - 1) / 2) : 0 };

	sw_steps_deal(c, false, &p->routed, &st);
	sw_steps_alone(c, bw, &st, measure, arg);
	sw_steps_free(&st);
}

/* The bandwidth pass of the shared-links schedule, in mode bw: the whole
 * sweep's dealt into slots where that was chosen, else plan pl's rounds
 * chained by domain pair (a plan of some pairs only always: a retest's).
 * With a dealt plan the rounds' times are the latency pass's alone: its
 * slots are not pl's rounds. */
static void pace_shared_bw(const struct sw_ctx *c, const struct sw_pacing *p,
			   const struct sw_pace_mode *bw,
			   const struct cxd_plan *pl, sw_measure_fn *measure,
			   void *arg, double *secs)
{
	/* The rounds chained: pairs across domains take turns. */
	const struct sw_pace_mode turns = { .what = bw->what,
					    .pairs_at_once = bw->pairs_at_once,
					    .key_dom = p->shared };
	enum cxd_sched_kind kind = p->sched.kind;
	double *bw_s;

	if (cxd_sched_sweep(pl) && kind == CXD_SCHED_ROUTED) {
		pace_routed(c, p, bw, measure, arg);
		return;
	}
	if (cxd_sched_sweep(pl) &&
	    (kind == CXD_SCHED_NESTED || kind == CXD_SCHED_DEALT)) {
		pace_dealt(c, p, bw, measure, arg);
		return;
	}
	bw_s = secs ? sw_alloc(&c->m, (size_t) pl->nrounds + 1,
			       sizeof(double)) : NULL;
	sw_pace(c, &turns, pl, measure, arg, bw_s);
	for (int r = 0; secs && c->m.rank == 0 && r < pl->nrounds; r++)
		secs[r] += bw_s[r];
	free(bw_s);
}

/* The pairs of plan pl measured for m->what: both metrics at once, or
 * (p->shared not NULL) latency in full rounds and then bandwidth taking
 * turns on the shared links (pace_shared_bw), each pass in its own mode;
 * secs (rank 0, may be NULL) gets each round's time. */
void sw_pace_plan(const struct sw_ctx *c, const struct sw_pacing *p,
		  const struct sw_pace_mode *m, const struct cxd_plan *pl,
		  sw_measure_fn *measure, void *arg, double *secs)
{
	const struct sw_pace_mode lat = sw_pace_mode_at(SW_RUN_LAT,
							m->pairs_at_once);
	const struct sw_pace_mode bw = sw_pace_mode_at(SW_RUN_BW,
						       m->pairs_at_once);

	if (p->shared == NULL) {
		sw_pace(c, m, pl, measure, arg, secs);
		return;
	}
	if (c->m.line)
		cxd_rprog_expect(c->m.line, shared_rounds(c, p, m, pl));
	if (m->what != SW_RUN_BW)
		sw_pace(c, &lat, pl, measure, arg, secs);
	if (m->what != SW_RUN_LAT)
		pace_shared_bw(c, p, &bw, pl, measure, arg, secs);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: rank 0's report of the run (run_state.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sweep/out_text.h"
#include "sweep/sched_circle.h"
#include "sweep/sched_listed.h"
#include "sweep/verdict.h"
#include "health.h"
#include "run_state.h"

/* Only --json lists every round's pairs (n^2 / 2 of them). */
static const struct cxd_plan *listed_plan(const struct sw *w,
					  struct sw_report *rep)
{
	const struct cxd_plan *main_pl = &w->plan;

	if (cxd_sched_listed(main_pl) || !w->c->cfg.sweep.json[0])
		return main_pl;
	if (cxd_sched_list(w->c->m.n, main_pl, &rep->listed) != 0)
		sw_die(&w->c->m, "out of memory");
	return &rep->listed;
}

int sw_report(const struct sw *w, struct sw_report *rep)
{
	const struct sw_ctx *c = w->c;
	const struct sw_gathered *g = &w->seen;
	const struct sw_inputs *in = w->in;
	double secs = (double) (cxd_now_ns() - w->t0) / 1e9;
	const struct cxd_plan *pl = listed_plan(w, rep);
	/* Only --json's listed rounds are read (the writers' round_first). */
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	struct cxd_sweep_res *r = &rep->r;

	*r = (struct cxd_sweep_res){
		.n = c->m.n, .ranks = c->ranks, .bw = g->m[0], .lat = g->m[1],
		.spread = { g->spread[0], g->spread[1] },
		.stat = { g->stat[0], g->stat[1] }, .rank_med = g->rank_med,
		.out = g->l.o, .nout = g->l.nout, .nout_all = g->l.nout_all,
		.busy = g->l.o + g->l.nout, .nbusy = g->l.nbusy,
		.nbusy_all = g->l.nbusy_all, .rules = &w->judge.report,
		.sus = g->sus, .nsus = g->nsus, .cap = &w->cap.res,
		.topo = in->has_topo ? &in->topo : NULL,
		.tmap = in->has_topo ? &c->place : NULL,
		.base = in->has_base ? &in->base : NULL,
		.nrounds = pl->nrounds, .round_first = ls ? ls->first : NULL,
		.pairs_at_once = w->pace.pairs_at_once,
		.round_count = ls ? ls->count : NULL,
		.round_pairs = ls ? ls->pairs : NULL,
		.round_s = w->pace.round_s,
		.total_s = secs,
		.cfg = &c->cfg, .schedule = &w->pace.sched,
		.retest_pairs = w->judge.retest_pairs,
		.retest_metrics = w->judge.retest_metrics,
		.lat_iters = c->lat_iters, .repeat = c->repeat };
	rep->moved = sw_alloc(&c->m, (size_t) c->m.n, sizeof(char *));
	for (int i = 0; i < c->m.n; i++)
		rep->moved[i] = sw_counters_moved(w->out.ctrs, i);
	r->moved = rep->moved;
	snprintf(r->provider, sizeof(r->provider), "%s", c->bw_run.provider);
	snprintf(r->engine, sizeof(r->engine), "%s", w->eng->name);
	w->eng->version(r->engine_version, sizeof(r->engine_version));
	r->verdict = cxd_verdict_of(r);
	cxd_out_text(r, stdout);
	if (w->judge.retest_rounds > 0)
		printf("Retest: %d pairs measured again, alone per shared "
		       "link: %d rounds\n", w->judge.retest_pairs,
		       w->judge.retest_rounds);
	fflush(stdout);
	return cxd_verdict_exit(r->verdict);
}

void sw_report_free(struct sw_report *rep)
{
	free(rep->moved);
	cxd_sched_free(&rep->listed); /* a zero plan when not listed */
}

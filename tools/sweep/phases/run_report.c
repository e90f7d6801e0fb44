/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: rank 0's report of the run (run_state.h). Each part fills
 * its own section of the result; the report fills those of the run as a
 * whole and merges the suspects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/judge/judge_suspects.h"
#include "sweep/result/out_text.h"
#include "sweep/sched/sched_circle.h"
#include "sweep/sched/sched_listed.h"
#include "sweep/result/verdict.h"
#include "health.h"
#include "run_state.h"

/* Only --json lists every round's pairs (n^2 / 2 of them); --budget's
 * plan is listed already. */
static const struct cxd_plan *listed_plan(const struct sw *w,
					  struct sw_report *rep)
{
	const struct cxd_plan *main_pl = sw_budget_on(w->c) ? &w->bud.listed :
					 &w->plan;

	if (cxd_sched_listed(main_pl) || !w->c->cfg.sweep.json[0])
		return main_pl;
	if (cxd_sched_list(w->c->m.n, main_pl, &rep->listed) != 0)
		sw_die(&w->c->m, "out of memory");
	return &rep->listed;
}

/* Who ran and how: the context's ranks and options, the engine's names. */
static void run_facts(const struct sw *w, struct cxd_sweep_run *s)
{
	const struct sw_ctx *c = w->c;

	*s = (struct cxd_sweep_run){ .n = c->m.n, .ranks = c->ranks,
		.cfg = &c->cfg, .lat_iters = c->lat_iters,
		.repeat = c->repeat };
	snprintf(s->provider, sizeof(s->provider), "%s", c->bw_run.provider);
	snprintf(s->engine, sizeof(s->engine), "%s", w->eng->name);
	w->eng->version(s->engine_version, sizeof(s->engine_version));
}

/* The rounds as paced, of the plan as listed, and the run's length so
 * far (the pacing is not this file's to change). */
static void rounds(const struct sw *w, struct sw_report *rep,
		   struct cxd_sweep_rounds *s)
{
	const struct cxd_plan *pl = listed_plan(w, rep);
	/* Only --json's listed rounds are read (the writers' round_first). */
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);

	*s = (struct cxd_sweep_rounds){ .nrounds = pl->nrounds,
		.pairs_at_once = w->pace.pairs_at_once,
		.round_first = ls ? ls->first : NULL,
		.round_count = ls ? ls->count : NULL,
		.round_pairs = ls ? ls->pairs : NULL,
		.round_s = sw_budget_on(w->c) ? w->bud.round_s :
			   w->pace.round_s,
		.total_s = (double) (cxd_now_ns() - w->t0) / 1e9 };
}

/* A rank the latency fit names that the outliers named already (its
 * NIC, switch or group, in latency): one suspect, the outliers'. */
static bool named_already(const struct sw *w, const struct cxd_suspect *s,
			  size_t n, const struct cxd_suspect *x)
{
	const struct cxd_topo_map *tm = w->c->place.switch_of ?
					&w->c->place : NULL;

	for (size_t i = 0; i < n; i++)
		if (s[i].metric == CXD_M_LAT &&
		    cxd_judge_rank_suspect(&s[i], 1, x->id, tm))
			return true;
	return false;
}

/* Rank 0's suspects in the outputs' order: the gathering's (with
 * --budget the plan's classes named instead), the latency fit's, then
 * the capacity pass's (each part keeps its own; the report owns the
 * list). */
static void merge_suspects(const struct sw *w, struct sw_report *rep)
{
	const struct cxd_sweep_suspects part[] = {
		sw_budget_on(w->c) ? sw_budget_suspects(&w->bud) :
		sw_gathered_suspects(&w->seen), sw_latfit_suspects(&w->lat),
		sw_capacity_suspects(&w->cap) };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		n += part[i].n;
	rep->sus = sw_alloc(&w->c->m, n + 1, sizeof(*rep->sus));
	n = 0;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		for (size_t k = 0; k < part[i].n; k++)
			if (i != 1 || !named_already(w, rep->sus, n,
						     &part[i].list[k]))
				rep->sus[n++] = part[i].list[k];
	rep->r.suspects = (struct cxd_sweep_suspects){ rep->sus, n };
}

/* Per rank, the link error counters that moved: the evidence. */
static void counters_moved(const struct sw *w, struct sw_report *rep)
{
	const struct sw_mpi *m = &w->c->m;

	rep->moved = sw_alloc(m, (size_t) m->n, sizeof(char *));
	for (int i = 0; i < m->n; i++)
		rep->moved[i] = sw_counters_moved(w->out.ctrs, i);
	rep->r.moved = rep->moved;
}

int sw_report(const struct sw *w, struct sw_report *rep)
{
	struct cxd_sweep_res *r = &rep->r;

	bool budget = sw_budget_on(w->c);

	/* --budget's rounds are the plan's, no schedule was chosen */
	*r = (struct cxd_sweep_res){ .schedule = budget ? NULL :
				     &w->pace.sched };
	if (budget) {
		sw_budget_report(&w->bud, w->t0, &rep->budget);
		r->budget = &rep->budget;
	}
	run_facts(w, &r->run);
	sw_inputs_report(w->in, w->c, &r->in);
	rounds(w, rep, &r->rounds);
	sw_gathered_report(&w->seen, &r->links, &r->outliers);
	sw_judging_report(&w->judge, &r->judged);
	sw_capacity_report(&w->cap, &r->cap);
	r->latfit = &w->lat;
	merge_suspects(w, rep);
	counters_moved(w, rep);
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
	free(rep->sus);
	cxd_sched_free(&rep->listed); /* a zero plan when not listed */
}

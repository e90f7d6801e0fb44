/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the whole all-pairs sweep on one screen (run.h). Each
 * phase is a call to the part that owns it, in this order: the
 * bootstrap (boot.h), the placement (judge_mpi.h's inputs), the outputs
 * opened (outputs.h), the shared links' widths (width_mpi.h), the main
 * plan paced (pace/pace_mpi.h, pace/pair.h), the calibration and the
 * narrowing it may ask for (calib.h), the judging (judge_mpi.h), the
 * retest (retest_mpi.h), the gathering (gather.h), the latency fit
 * (latfit_mpi.h), the capacity pass
 * (capacity_mpi.h), the evidence (outputs.h: the counters that moved),
 * the report (run_report.c) and the files. With --budget a covering
 * plan (budget_mpi.h) stands for the widths, the main plan and the
 * calibration: it is planned and its time foreseen, measured, judged
 * and retested as the main plan is, and its classes name the suspects
 * (no latency fit: it wants every pair); the capacity pass follows with
 * the widths the topology states, where its time foreseen fits what is
 * left of the budget. Rank 0's
 * progress line
 * (lib/base/progress_rounds.h, where it goes: progress_tty.h) names the
 * phases that measure in rounds; the pacing moves it on between rounds,
 * and it is erased before the report.
 */
#include <math.h>
#include <stdlib.h>

#include "base/clock.h"
#include "sweep/sched/sched_circle.h"
#include "boot.h"
#include "calib.h"
#include "progress_tty.h"
#include "retest_mpi.h"
#include "run.h"
#include "run_state.h"
#include "width_mpi.h"

/* The phases rank 0's progress line names, in sw_run's order. */
enum { PH_WIDTHS, PH_MAIN, PH_BUDGET, PH_CALIB, PH_RETEST, PH_CAPACITY };

static const struct {
	const char *name;
	bool counted; /* its rounds known ahead (progress_rounds.h) */
} phase_row[] = {
	[PH_WIDTHS] = { "link widths", false }, /* as many as it takes */
	[PH_MAIN] = { "main pass", true },
	[PH_BUDGET] = { "covering plan", true },
	[PH_CALIB] = { "calibration", true },
	[PH_RETEST] = { "retest", true },
	[PH_CAPACITY] = { "capacity pass", true },
};

/* Rank 0: the phases this run may go through, as known before the
 * first (the conditions are the phases' own): the widths where some
 * are measured, the calibration with pairs at once, the capacity pass
 * with --topology and pairs at once (unless the gathering names the
 * whole fabric); the retest is counted though it runs only where
 * outliers are found, and then skipped by the line as by the run. */
static unsigned phases_planned(const struct sw *w)
{
	const struct sw_ctx *c = w->c;
	unsigned m = 1u << PH_MAIN | 1u << PH_RETEST;

	if (c->place.switch_of && !c->coord_only &&
	    c->hosts.pairs_at_once >= 2 &&
	    !(c->cfg.sweep.sw_flags & CXD_SW_NO_CAPACITY))
		m |= 1u << PH_CAPACITY;
	if (sw_budget_on(c))
		return (m & 1u << PH_CAPACITY) | 1u << PH_BUDGET |
		       1u << PH_RETEST;
	if (sw_widths_planned(c, w->in))
		m |= 1u << PH_WIDTHS;
	if (w->pace.pairs_at_once > 1 && !c->coord_only)
		m |= 1u << PH_CALIB;
	return m;
}

/* Phase k starts: its name and place on the line (one not planned does
 * not run). */
static void phase(struct sw *w, int k)
{
	unsigned x, y;

	if (!(w->phases & (1u << k)))
		return;
	cxd_rprog_place(w->phases, (unsigned) k, &x, &y);
	cxd_rprog_phase(w->c->m.line, phase_row[k].name, x, y,
			phase_row[k].counted, cxd_now_ns());
}

/* The main plan: every pair, by the schedule the placement allows. */
static void main_plan(struct sw *w)
{
	const struct sw_ctx *c = w->c;
	const struct sw_pace_mode both = sw_pace_mode_main(&w->pace,
							   SW_RUN_BOTH);

	sw_measured_init(&w->fig, &c->m, c->repeat);
	w->meter = (struct sw_meter){ c, w->eng, &w->fig, 0 };
	if (cxd_sched_main(c->m.n, w->pace.pairs_at_once, &w->plan) != 0)
		sw_die(&c->m, "out of memory");
	sw_pacing_choose(&w->pace, c, &w->plan);
	sw_pace_plan(c, &w->pace, &both, &w->plan, sw_measure_pair,
		     &w->meter, w->pace.round_s);
	if (w->pace.routed) { /* rank 0's, for the report */
		w->pace.sched.routed_s = w->pace.routed->pass_s;
		w->pace.sched.routed_pair_s = w->pace.routed->pair_s;
	}
}

/* With more than one pair at once, whichever schedule ran: with the
 * shared-links one it checks that the domains given were the links
 * shared (a fat tree's leaf uplinks are shared by pairs to different
 * leaves). */
static void calibrate(struct sw *w)
{
	const struct sw_pace_mode bw = sw_pace_mode_main(&w->pace, SW_RUN_BW);

	if (w->pace.pairs_at_once <= 1 || w->c->coord_only)
		return;
	sw_calibrate(&w->crowd, w->c, &w->meter);
	/* Crowded across groups (leaves): fewer at once, measured again,
	 * as ClusterKit halves its pairs per retest round. */
	while (sw_pacing_narrow(&w->pace, sw_calib_crowd(w->c, &w->crowd))) {
		sw_pace_plan(w->c, &w->pace, &bw, &w->plan, sw_measure_pair,
			     &w->meter, NULL);
		sw_calib_free(&w->crowd);
		sw_calibrate(&w->crowd, w->c, &w->meter);
	}
}

/* Rank 0's report: the verdict's exit status (0 elsewhere). */
static int report(struct sw *w, struct sw_report *rep)
{
	if (w->c->m.rank != 0)
		return CXD_EXIT_OK;
	sw_progress_part(&w->line);
	return sw_report(w, rep);
}

/* Every output written (--matrix by every rank, the files by rank 0):
 * rank 0's status, a failure to write before the verdict's. */
static int write_outputs(struct sw *w, const struct sw_report *rep,
			 int verdict)
{
	const struct sw_ctx *c = w->c;
	const double tol[2] = { w->judge.rules.tol[0].tol,
				w->judge.rules.tol[1].tol };
	int ret = sw_outputs_write(&w->out, c, &w->fig, tol,
				   c->m.rank == 0 ? &rep->r : NULL);

	return ret ? ret : verdict;
}

/* The phases that measure, each shown on rank 0's line (c->m.line
 * while they run: the line is w's), which is erased at their end: the
 * evidence's collectives then part it from the report on stdout, which
 * a launcher forwards apart from stderr. */
static void measure_start(struct sw *w, struct sw_ctx *c)
{
	cxd_rprog_init(&w->line, sw_progress_tty(c), "cxi_sweep", w->t0);
	c->m.line = w->line.out ? &w->line : NULL;
	sw_pacing_init(&w->pace, c);
	w->phases = c->m.line ? phases_planned(w) : 0;
}

static void measure(struct sw *w, struct sw_ctx *c)
{
	struct sw_engine *e = w->eng;

	measure_start(w, c);
	phase(w, PH_WIDTHS);
	sw_widths(c, e, w->in);                  /* shared links' widths */
	phase(w, PH_MAIN);
	main_plan(w);                            /* every pair, measured */
	phase(w, PH_CALIB);
	calibrate(w);                            /* pairs alone vs at once */
	sw_judge(&w->judge, c, w->in, &w->fig, &w->crowd, NULL); /* flag */
	phase(w, PH_RETEST);
	sw_retest(&w->judge, c, &w->pace, &w->meter); /* confirm */
	sw_gather_all(&w->seen, c, &w->judge, &w->fig);
	sw_latfit(&w->lat, c, &w->judge, &w->fig); /* latency fit */
	phase(w, PH_CAPACITY);
	sw_capacity(&w->cap, c, e, w->in, &w->judge,
		    sw_gathered_suspects(&w->seen),
		    (struct sw_cap_time){ INFINITY, 0 });
	cxd_rprog_end(c->m.line);
	c->m.line = NULL;
}

/* --budget's capacity pass: the stated widths loaded, the plan's named
 * set out, within what is left of the budget (rank 0 foresees it). */
static void budget_capacity(struct sw *w, struct sw_ctx *c)
{
	const struct cxd_budget_res *b = &w->bud.res;
	double spent = (double) (cxd_now_ns() - w->t0) / 1e9;

	sw_widths_stated(c, w->in);
	phase(w, PH_CAPACITY);
	sw_capacity(&w->cap, c, w->eng, w->in, &w->judge,
		    sw_budget_suspects(&w->bud),
		    (struct sw_cap_time){ b->budget_s - spent, b->pair_s });
}

/* --budget: the covering plan's pairs, not every pair; their flags
 * retested (alone per shared link with --topology) before the plan's
 * classes name anything. 0, or 2 when the plan's time foreseen exceeds
 * the budget (nothing measured but the pair that timed it). */
static int measure_budget(struct sw *w, struct sw_ctx *c)
{
	int ret;

	measure_start(w, c);
	sw_measured_init(&w->fig, &c->m, c->repeat);
	w->meter = (struct sw_meter){ c, w->eng, &w->fig, 0 };
	phase(w, PH_BUDGET);
	ret = sw_budget_plan(&w->bud, c, &w->pace, &w->meter, w->t0);
	if (ret == 0) {
		sw_budget_measure(&w->bud, c, &w->pace, &w->meter);
		sw_judge(&w->judge, c, w->in, &w->fig, NULL,
			 w->bud.partner);
		phase(w, PH_RETEST);
		sw_retest(&w->judge, c, &w->pace, &w->meter);
		sw_gather_all(&w->seen, c, &w->judge, &w->fig);
		sw_budget_name(&w->bud, c, &w->judge);
		budget_capacity(w, c);
	}
	cxd_rprog_end(c->m.line);
	c->m.line = NULL;
	return ret;
}

static void sw_free(struct sw *w)
{
	sw_budget_free(&w->bud);
	sw_outputs_free(&w->out);
	sw_capacity_free(&w->cap);
	cxd_latfit_free(&w->lat);
	sw_gathered_free(&w->seen);
	sw_judging_free(&w->judge);
	sw_calib_free(&w->crowd);
	sw_measured_free(&w->fig);
	sw_pacing_free(&w->pace);
	cxd_sched_free(&w->plan);
}

int sw_run(struct sw_ctx *c, struct sw_engine *e, struct sw_inputs *in)
{
	struct sw w = { .c = c, .eng = e, .in = in, .t0 = cxd_now_ns() };
	struct sw_report rep = { 0 };
	int ret, verdict;

	if (c->m.n < 2)
		sw_die(&c->m,
		       "a sweep needs at least 2 ranks (mpirun -np N, N >= 2)");
	ret = sw_bootstrap(c, e);                /* hosts, CPUs, engine */
	if (ret == 0)
		ret = sw_inputs_place(in, c);    /* --topology's places */
	if (ret == 0)
		ret = sw_outputs_open(&w.out, c, e); /* --matrix, counters */
	if (ret == 0 && sw_budget_on(c))
		ret = measure_budget(&w, c);     /* a covering plan's pairs */
	else if (ret == 0)
		measure(&w, c);                  /* every phase that does */
	if (ret == 0) {
		sw_outputs_evidence(&w.out, c);  /* counters that moved */
		verdict = report(&w, &rep);      /* rank 0: the text */
		ret = write_outputs(&w, &rep, verdict); /* files, --matrix */
	}
	sw_report_free(&rep);
	sw_free(&w);
	return ret;
}

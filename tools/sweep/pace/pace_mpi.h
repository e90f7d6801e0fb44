/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing: which schedule the rounds follow and their run,
 * pair after pair, over MPI (pace_mpi.c). What a pair is, the caller
 * says (a sw_measure_fn); the pacing knows only ranks and rounds. The
 * pacing holds the sweep's schedule (sw_pacing_choose, narrowed by
 * sw_pacing_narrow); each call that paces a plan is given the mode
 * it runs in (struct sw_pace_mode), so no phase sets the pacing for its
 * own pairs and restores it. Each plan paced counts its rounds on rank
 * 0's progress line (c->m.line), moved on after each of rank 0's pairs.
 */
#ifndef CXD_SWEEP_PACE_MPI_H
#define CXD_SWEEP_PACE_MPI_H

#include "sweep/sched/sched.h"
#include "sweep/sched/sched_choose.h"
#include "sweep/sched/sched_routed.h"
#include "engine/context.h"

/* What a pair measures now: both metrics, or one pass of the
 * shared-links schedule. */
enum { SW_RUN_BOTH, SW_RUN_LAT, SW_RUN_BW };

/* Pairs of one domain pair measuring bandwidth at once: one, since the
 * topology file does not say how many global links a bundle has. */
#define SW_KEY_CAP 1

/* How one call paces a plan: a phase's own value, passed const, so the
 * sweep's pacing is never borrowed and put back. */
struct sw_pace_mode {
	int what;              /* SW_RUN_*: what each pair measures */
	int pairs_at_once;     /* the slots: pairs of a round at once */
	/* When not NULL each rank's domain: pairs crossing between two
	 * domains take turns, SW_KEY_CAP at once (cxd_sched_keys). */
	const int *key_dom;
};

/* The turn a pair is measured in, handed to the measure: its round (for
 * messages and the engine) and what it runs. */
struct sw_turn {
	int round;
	int what;              /* SW_RUN_* */
};

/* The sweep's pacing: the hosts' pairs at once and the schedule chosen
 * for its plan, which only pace_schedule.c sets. */
struct sw_pacing {
	int pairs_at_once;     /* the hosts' count */
	/* The shared-links schedule's domains for the whole sweep (its
	 * retests too), NULL: plain rounds. */
	const int *shared;
	/* With groups of several switches, each rank's switch: the pairs
	 * within a group take turns by switch pair (pace_mpi.c). */
	const int *shared_sw;
	/* Which schedule runs and why (its kind drives the bandwidth pass,
	 * the report says it), and the narrowings since: across groups, a
	 * group's pairs at once (cxd_sched_cap), as its own switch links
	 * carry them to and from the bundles, where the global links land,
	 * which no topology says (cxd_sched_dealt_across's cap). */
	struct cxd_sched_choice sched;
	/* Rank 0: the bandwidth pass packed by routes, where sched.routed
	 * says it runs (pace_mpi.c hands each rank its steps and says how
	 * it ran there); NULL elsewhere. */
	struct cxd_routed *routed;
	double *round_s;       /* rank 0: each round's longest pair, s */
};

/* A pair with rank p in turn t, whatever the caller makes of it. */
typedef void sw_measure_fn(void *arg, const struct sw_turn *t, int p);

void sw_pacing_init(struct sw_pacing *p, const struct sw_ctx *c);
void sw_pacing_free(struct sw_pacing *p);
/* The schedule for plan pl (pace_schedule.c): plain rounds or the
 * shared-links one, chosen in p->sched; p->round_s made room for. */
void sw_pacing_choose(struct sw_pacing *p, const struct sw_ctx *c,
		      const struct cxd_plan *pl);
/* Pairs across groups (leaves) found crowded by crowd (calib.c's
 * sw_calib_crowd; NAN: not): with the shared-links schedule, half as
 * many of a group's at once from now on (kept in p->sched as a number,
 * cxd_sched_narrow, for the pacing and the report), and true: the
 * bandwidth pass is to run again. */
bool sw_pacing_narrow(struct sw_pacing *p, double crowd);
/* A phase's own mode: what (SW_RUN_*), n pairs at once, no turns. */
struct sw_pace_mode sw_pace_mode_at(int what, int n);
/* The mode of the sweep's own plans: what, the hosts' pairs at once, no
 * turns (sw_pace_plan takes them on shared links). */
struct sw_pace_mode sw_pace_mode_main(const struct sw_pacing *p, int what);
/* Run a plan's rounds (lib/sweep/sched/sched.h: cxd_sched_main, retest.h:
 * cxd_retest_plan) in mode m, paced pairwise, measure(arg, t, p) for
 * each pair with rank p; secs: rank 0 gets each round's longest pair, in
 * seconds (NULL: not wanted). */
void sw_pace(const struct sw_ctx *c, const struct sw_pace_mode *m,
	     const struct cxd_plan *pl, sw_measure_fn *measure, void *arg,
	     double *secs);
/* The same over this rank's steps as given (its own, cxd_sched_steps'
 * or a retest's), in a plan of nrounds rounds. */
void sw_pace_steps(const struct sw_ctx *c, const struct sw_pace_mode *m,
		   const struct cxd_step *step, int nsteps, int nrounds,
		   sw_measure_fn *measure, void *arg, double *secs);
/* The longest a pair may take (its runs, each bounded, and slack): the
 * bound of each round's waits. */
uint64_t sw_pace_pair_ns(const struct sw_ctx *c);
/* The dealt bandwidth pass's plans (p->sched chose it) at k pairs at
 * once: nested where groups hold several switches, the pairs within
 * groups dealt by switch (in) and those across by group (out); else out
 * alone (in's ops NULL). 0, or the error. */
int sw_pacing_dealt(const struct sw_ctx *c, const struct sw_pacing *p, int k,
		    struct cxd_plan *in, struct cxd_plan *out);
/* Plan pl's pairs measured for m->what, m->pairs_at_once at once: both
 * metrics together, or on shared links (p->shared) latency in full
 * rounds, then bandwidth one pair per domain pair at a time (the turns
 * are p's: m->key_dom is NULL); secs as sw_pace's, the two passes
 * added. */
void sw_pace_plan(const struct sw_ctx *c, const struct sw_pacing *p,
		  const struct sw_pace_mode *m, const struct cxd_plan *pl,
		  sw_measure_fn *measure, void *arg, double *secs);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the pacing of the rounds, with no central release. Every
 * rank walks the same plan (the circle method is deterministic) and
 * takes part only in its own rounds: before each pair the two partners
 * swap a hello naming the round, then measure, then move on. A rank that
 * finishes early waits only for its next partner; rank 0 touches only the
 * rounds it is in.
 *
 * When fewer pairs may run at once than a circle round holds (ranks
 * outnumber a host's CPUs), a plan round's pairs sit in slots 0..k-1 and
 * a slot is a token: the lower rank of the pair in slot j waits for the
 * word from the lower rank of slot j's previous pair before its hello.
 * Each slot's pairs thus run one after the other, so at most
 * pairs_at_once pairs run at any time, and every wait points to an
 * earlier round or to the partner: no cycle, no deadlock. A token's send
 * is waited for only after the rank's last step, so this holds whether
 * MPI sends the 4 bytes eagerly or only once they are received.
 *
 * That protocol is lib/sweep/sched/pace.c's machine, one rank's walk with no
 * MPI and no clock, which the unit tests run over a simulated queue
 * (tests/unit/test_pace.c); this file carries its messages over MPI and
 * bounds its waits.
 *
 * Each call is given the mode it runs in (struct sw_pace_mode: what the
 * pairs measure, how many at once, whether they take turns on shared
 * links) and hands each pair its turn (struct sw_turn): no phase
 * borrows the pacing for a mode of its own and puts it back.
 *
 * Bounds: a pair of round k cannot start later than k + 1 pair lengths
 * after the plan began (each round waits only on earlier ones), so that
 * is every wait's deadline; a partner that stalls inside a pair is named
 * within CXD_SWEEP_LATE_S by the pair's own waits (the engine's:
 * engine_fabric_peer.c for libfabric's), and a rank that dies ends the
 * job through the launcher.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/testaid.h"
#include "sweep/sched/pace.h"
#include "sweep/sched/sched_keys.h"
#include "sweep/sched/sched_mine.h"
#include "pace_mpi.h"

/* The longest a pair may take: its runs (4 x --repeat), each bounded,
 * and slack. */
uint64_t sw_pace_pair_ns(const struct sw_ctx *c)
{
	return 4 * c->repeat * c->m.wait_ns +
	       2 * CXD_SWEEP_LATE_S * 1000000000ULL;
}

static const int pace_tag[] = {
	[CXD_PACE_SLOT] = SW_TAG_SLOT,
	[CXD_PACE_KEY] = SW_TAG_KEY,
	[CXD_PACE_HELLO] = SW_TAG_HELLO,
};

static const char *chain_name(enum cxd_pace_kind kind)
{
	return kind == CXD_PACE_SLOT ? "slot" : "turn on shared links";
}

/* What the machine posts: a receive, or a send; a token's is tested
 * once (an eager one is done there) but never waited for before the end
 * (lib/sweep/sched/pace.h says why). */
static void post(const struct cxd_pace_act *a, MPI_Request *q)
{
	MPI_Status st;
	int flag = 0;

	if (a->op == CXD_PACE_RECV) {
		MPI_Irecv(a->buf, 1, MPI_INT, a->peer, pace_tag[a->kind],
			  MPI_COMM_WORLD, &q[a->req]);
		return;
	}
	MPI_Isend(a->val, 1, MPI_INT, a->peer, pace_tag[a->kind],
		  MPI_COMM_WORLD, &q[a->req]);
	if (a->test)
		MPI_Test(&q[a->req], &flag, &st);
}

/* After the last step: every token handed on is taken, by the plan's
 * deadline (each taker's round ends before it). q: the nq token sends,
 * from request first. */
static void give_end(const struct sw_ctx *c, const struct cxd_pace *pc,
		     int first, MPI_Request *q, int nq, uint64_t deadline)
{
	uint64_t now = cxd_now_ns();
	enum cxd_pace_kind kind;
	MPI_Status st;
	int flag = 0, round, to;

	if (sw_wait(q, nq, deadline > now ? deadline - now : 0, NULL,
		    NULL) == 0)
		return;
	for (int i = 0; i < nq; i++) {
		to = cxd_pace_sent(pc, first + i, &kind, &round);
		MPI_Test(&q[i], &flag, &st);
		if (!flag)
			sw_die(&c->m, "rank %d (%s) did not take the %s "
			       "after round %d", to, c->ranks[to].host,
			       chain_name(kind), round);
	}
}

/* One walk of sw_pace: its bounds, and where each pair's time goes. */
struct walk {
	const struct sw_ctx *c;
	const struct sw_pace_mode *m;
	struct cxd_pace pc;
	MPI_Request *q;
	sw_measure_fn *measure;
	void *arg;
	double *mine;          /* NULL: the rounds' times not wanted */
	int first;             /* the round t0 stands for */
	uint64_t t0, bound, end;
};

/* A wait of the machine's, bounded: a token from the previous holder of
 * a chain, the partner's hello (both by the round's deadline), the
 * partner taking ours, or after the last step every token taken. */
static void pace_wait(struct walk *k, const struct cxd_pace_act *a)
{
	const struct sw_ctx *c = k->c;
	/* A turn on shared links may wait behind pairs of its own round:
	 * then only the plan's end bounds the waits (a stall inside a pair
	 * is named by the pair's own waits). */
	uint64_t deadline = k->m->key_dom ? k->end :
			    k->t0 + (uint64_t) (a->round - k->first + 1) *
					    k->bound;
	MPI_Request *q = &k->q[a->req];
	int p = a->peer;

	if (a->wait == CXD_PACE_W_SENT) {
		give_end(c, &k->pc, a->req, q, a->nreq, k->end);
	} else if (a->wait == CXD_PACE_W_HELLO_SENT) {
		if (sw_wait(q, 1, c->m.wait_ns, NULL, NULL) != 0)
			sw_die(&c->m, "rank %d (%s) did not take the hello of "
			       "round %d", p, c->ranks[p].host, a->round);
	} else if (sw_wait_until(q, deadline) != 0) {
		if (a->wait == CXD_PACE_W_HELLO)
			sw_die(&c->m,
			       "rank %d (%s) did not come to round %d in time: "
			       "it is stalled, or stuck behind a rank that is",
			       p, c->ranks[p].host, a->round);
		sw_die(&c->m,
		       "rank %d (%s) did not hand on its %s before round "
		       "%d in time: it is stalled, or stuck behind a rank "
		       "that is", p, c->ranks[p].host,
		       chain_name(a->wait == CXD_PACE_W_SLOT ? CXD_PACE_SLOT
							     : CXD_PACE_KEY),
		       a->round);
	}
}

/* A message that named the wrong round: a token from a round too late,
 * or a partner come to another round. */
static void pace_wrong(const struct sw_ctx *c, const struct cxd_pace_act *a)
{
	int p = a->peer;

	if (a->kind == CXD_PACE_HELLO)
		sw_die(&c->m, "rank %d (%s) came to round %d, expected %d", p,
		       c->ranks[p].host, a->got, a->round);
	sw_die(&c->m, "rank %d handed on round %d's %s, expected one "
	       "before round %d", p, a->got, chain_name(a->kind), a->round);
}

/* After the last round: everyone meets before what comes next (the
 * next plan's pairs would otherwise run beside this one's last). */
static void plan_end(const struct sw_ctx *c, uint64_t deadline)
{
	if (sw_barrier_until(&c->m, deadline) != 0)
		sw_die(&c->m, "the other ranks did not finish their rounds in "
		       "time: one of them is stalled");
}

/* The rounds' lengths: each pair's lower rank times it, rank 0 keeps
 * the longest pair of each round. */
static void round_times(const struct sw_ctx *c, int nrounds, double *mine,
			double *secs)
{
	MPI_Request q;

	MPI_Ireduce(mine, secs, nrounds, MPI_DOUBLE, MPI_MAX, 0,
		    MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "collecting the rounds' times");
}

/* The pair of the step under way: measured in its turn (the step's
 * round, the mode's metrics), and timed by its lower rank. */
static void walk_pair(struct walk *k, const struct cxd_pace_act *a)
{
	const struct sw_ctx *c = k->c;
	const struct sw_turn t = { .round = a->round, .what = k->m->what };
	uint64_t start;

	start = cxd_now_ns();
	k->measure(k->arg, &t, a->peer);
	if (k->mine && c->m.rank < a->peer)
		k->mine[a->round] = (double) (cxd_now_ns() - start) / 1e9;
	if (c->m.rank < a->peer && cxd_testaid_pair_span)
		cxd_testaid_pair_span(c->m.rank, a->peer, start, cxd_now_ns());
	/* Rank 0's line, after the pair and before the next hello: no
	 * figure is being timed here, and no message is added. */
	if (c->m.line)
		cxd_rprog_round(c->m.line, (unsigned) a->round, cxd_now_ns());
}

/* This rank's steps walked by the protocol's machine (lib/sweep/sched/pace.h),
 * which decides; here MPI carries its messages within the bounds. */
static void walk(struct walk *k)
{
	for (;;) {
		const struct cxd_pace_act *a = cxd_pace_next(&k->pc);

		switch (a->op) {
		case CXD_PACE_RECV:
		case CXD_PACE_SEND:
			post(a, k->q);
			break;
		case CXD_PACE_WAIT:
			pace_wait(k, a);
			break;
		case CXD_PACE_RUN:
			walk_pair(k, a);
			break;
		case CXD_PACE_ERROR:
			pace_wrong(k->c, a);
			return;
		case CXD_PACE_DONE:
			return;
		}
	}
}

/* This rank's steps through plan pl, with the shared-links chains when
 * m->key_dom is set: their count (sw_die when out of memory). */
static int pace_steps(const struct sw_ctx *c, const struct sw_pace_mode *m,
		      const struct cxd_plan *pl, struct cxd_step *step)
{
	int nsteps = cxd_sched_steps(c->m.n, c->m.rank, m->pairs_at_once,
				     pl, step);

	if (nsteps >= 0 && m->key_dom &&
	    cxd_sched_keys(c->m.n, c->m.rank, pl, m->key_dom,
			   SW_KEY_CAP, step, nsteps) != 0)
		nsteps = -1; /* sw_run checked the domains' count */
	if (nsteps < 0)
		sw_die(&c->m, "out of memory");
	return nsteps;
}

/* The rounds a walk spans: from first, nrounds of them; mine, when
 * given, gets the times of this rank's pairs by round (else the walk
 * keeps them where secs wants them). */
struct span {
	int first, nrounds;
	double *mine;
};

/* sw_pace_steps but for rank 0's line, which the caller moves on: a
 * dealt plan's parts are one plan's rounds to it. */
static void pace_walk(const struct sw_ctx *c, const struct sw_pace_mode *m,
		      const struct cxd_step *step, int nsteps, struct span sp,
		      sw_measure_fn *measure, void *arg, double *secs)
{
	struct walk k = { .c = c, .m = m, .measure = measure, .arg = arg,
			  .first = sp.first, .t0 = cxd_now_ns(),
			  .bound = sw_pace_pair_ns(c) };
	double cpu = cxd_cpu_s();
	int nrounds = sp.nrounds, nreq;

	k.mine = sp.mine ? sp.mine :
		 secs ? sw_alloc(&c->m, (size_t) nrounds + 1, sizeof(double)) :
		 NULL;
	k.end = k.t0 + (uint64_t) (nrounds + 1) * k.bound;
	cxd_pace_init(&k.pc, step, nsteps, c->m.rank);
	nreq = cxd_pace_nreq(&k.pc);
	k.q = sw_alloc(&c->m, (size_t) nreq, sizeof(*k.q));
	for (int i = 0; i < nreq; i++)
		k.q[i] = MPI_REQUEST_NULL;
	walk(&k);
	plan_end(c, k.end);
	if (c->coord_only && secs && c->m.rank == 0) {
		cxd_rprog_end(c->m.line); /* the figures alone on stderr */
		fprintf(stderr, "cxi_sweep: coordination only: ranks %d "
			"rounds %d pairs_at_once %d wall_s %.6f rank0_cpu_s "
			"%.6f\n", c->m.n, nrounds, m->pairs_at_once,
			(double) (cxd_now_ns() - k.t0) / 1e9, cxd_cpu_s() - cpu);
	}
	if (secs)
		round_times(c, nrounds, k.mine, secs);
	free(k.q);
	if (!sp.mine)
		free(k.mine);
}

void sw_pace_steps(const struct sw_ctx *c, const struct sw_pace_mode *m,
		   const struct cxd_step *step, int nsteps, int nrounds,
		   sw_measure_fn *measure, void *arg, double *secs)
{
	cxd_rprog_plan(c->m.line, (unsigned) nrounds);
	pace_walk(c, m, step, nsteps, (struct span){ 0, nrounds, NULL },
		  measure, arg, secs);
	if (c->m.line)
		cxd_rprog_plan_end(c->m.line, cxd_now_ns());
}

void sw_pace(const struct sw_ctx *c, const struct sw_pace_mode *m,
	     const struct cxd_plan *pl, sw_measure_fn *measure, void *arg,
	     double *secs)
{
	struct cxd_step *step = sw_alloc(&c->m, (size_t) cxd_sched_room(
						 c->m.n, pl), sizeof(*step));

	sw_pace_steps(c, m, step, pace_steps(c, m, pl, step), pl->nrounds,
		      measure, arg, secs);
	free(step);
}

/* Each part of a plan paced to its end before the next, in mode m (a
 * dealt plan's, a routed one's): a rank gone on to the next part would
 * add pairs to those still running on the links. The part is this
 * loop's, handed to the plan's steps. Where each part is one round its
 * waits are bounded from the part's own start. mine, when given, gets
 * this rank's pairs' times by round. */
static void pace_parts(const struct sw_ctx *c, const struct sw_pace_mode *m,
		       const struct cxd_plan *pl, sw_measure_fn *measure,
		       void *arg, double *mine)
{
	bool single = cxd_sched_parts(pl) == pl->nrounds;
	struct cxd_step *step = sw_alloc(&c->m, (size_t) cxd_sched_room(
						 c->m.n, pl), sizeof(*step));

	/* The parts cut the plan's rounds (slots) in order: one plan. */
	cxd_rprog_plan(c->m.line, (unsigned) pl->nrounds);
	for (int k = 1; k <= cxd_sched_parts(pl); k++) {
		struct cxd_sched_at at = { c->m.n, c->m.rank, m->pairs_at_once,
					   k };
		int nsteps = cxd_sched_part_steps(&at, pl, step);

		if (nsteps < 0)
			sw_die(&c->m, "out of memory");
		pace_walk(c, m, step, nsteps,
			  single ? (struct span){ k - 1, 1, mine } :
				   (struct span){ 0, pl->nrounds, mine },
			  measure, arg, NULL);
	}
	if (c->m.line)
		cxd_rprog_plan_end(c->m.line, cxd_now_ns());
	free(step);
}

/* The bandwidth pass dealt in mode bw: by domain pair into slots, their
 * parts one after the other, after the pairs within groups if nested. */
static void pace_dealt(const struct sw_ctx *c, const struct sw_pacing *p,
		       const struct sw_pace_mode *bw, sw_measure_fn *measure,
		       void *arg)
{
	struct cxd_plan in = { .ops = NULL }, out = { .ops = NULL };
	int ret = sw_pacing_dealt(c, p, bw->pairs_at_once, &in, &out);

	if (ret != 0) /* the choice made these plans once already */
		sw_die(&c->m, "%s", ret == -ENOMEM ? "out of memory" :
		       "the dealt schedule chosen could not be made");
	if (in.ops) /* made: nested */
		sw_pace(c, bw, &in, measure, arg, NULL);
	pace_parts(c, bw, &out, measure, arg, NULL);
	cxd_sched_free(&in);
	cxd_sched_free(&out);
}

/* This rank's steps of rank 0's routed plan (p->routed), handed out. */
static void routed_mine(const struct sw_ctx *c, const struct sw_pacing *p,
			struct cxd_plan *pl)
{
	const struct cxd_routed *r = p->routed;
	size_t n = (size_t) c->m.n;
	int *count = NULL, *first = NULL, *all = NULL, *step, mine = 0;
	MPI_Request q;

	if (c->m.rank == 0) {
		count = sw_alloc(&c->m, n, 2 * sizeof(int));
		first = sw_alloc(&c->m, n, 2 * sizeof(int));
		all = sw_alloc(&c->m, 4 * r->npair + 1, sizeof(int));
		if (cxd_routed_steps(r, c->m.n, count, first, all) != 0)
			sw_die(&c->m, "out of memory");
	}
	MPI_Iscatter(count, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD,
		     &q);
	sw_coll_wait(&c->m, &q, "handing out the routed plan");
	for (size_t i = 0; c->m.rank == 0 && i < n; i++) {
		count[i] *= 2; /* ints, two a step */
		first[i] *= 2;
	}
	step = sw_alloc(&c->m, 2 * (size_t) mine + 1, sizeof(int));
	MPI_Iscatterv(all, count, first, MPI_INT, step, 2 * mine, MPI_INT, 0,
		      MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "handing out the routed plan");
	if (cxd_sched_mine(pl, p->sched.routed_rounds, step, mine) != 0)
		sw_die(&c->m, "out of memory");
	free(count);
	free(first);
	free(all);
	free(step);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Rank 0: how the routed pass ran, from its start t0 and the rounds'
 * longest pairs (sorted here). */
static void routed_ran(const struct sw_pacing *p, uint64_t t0, double *secs,
		       int nrounds)
{
	qsort(secs, (size_t) nrounds, sizeof(double), by_value);
	p->routed->pass_s = (double) (cxd_now_ns() - t0) / 1e9;
	p->routed->pair_s = nrounds > 0 ? secs[nrounds / 2] : 0;
}

/* The bandwidth pass packed by routes: each round paced alone, to its
 * end (its pairs are all the links may carry), its waits bounded from
 * its own start; rank 0 keeps how it ran (p->routed). */
static void pace_routed(const struct sw_ctx *c, const struct sw_pacing *p,
			const struct sw_pace_mode *bw, sw_measure_fn *measure,
			void *arg)
{
	uint64_t t0 = cxd_now_ns();
	struct cxd_plan pl;
	double *mine, *secs;

	routed_mine(c, p, &pl);
	mine = sw_alloc(&c->m, (size_t) pl.nrounds + 1, sizeof(double));
	secs = sw_alloc(&c->m, (size_t) pl.nrounds + 1, sizeof(double));
	pace_parts(c, bw, &pl, measure, arg, mine);
	round_times(c, pl.nrounds, mine, secs);
	if (c->m.rank == 0)
		routed_ran(p, t0, secs, pl.nrounds);
	free(mine);
	free(secs);
	cxd_sched_free(&pl);
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
	if (cxd_sched_sweep(pl) && p->sched.routed)
		bw = (unsigned) p->sched.routed_rounds;
	else if (cxd_sched_sweep(pl) &&
		 (kind == CXD_SCHED_NESTED || kind == CXD_SCHED_DEALT) &&
		 sw_pacing_dealt(c, p, m->pairs_at_once, &in, &out) == 0)
		bw = (unsigned) ((in.ops ? in.nrounds : 0) + out.nrounds);
	cxd_sched_free(&in);
	cxd_sched_free(&out);
	return lat + bw;
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

	if (cxd_sched_sweep(pl) && p->sched.routed) {
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

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
#include <sys/resource.h>

#include <mpi.h>

#include "base/testaid.h"
#include "sweep_mpi.h"

#define PACE_NAP_MAX_NS 1000000L

/* The longest a pair may take: its runs (4 x --repeat), each bounded,
 * and slack. */
static uint64_t pair_bound_ns(const struct sw *w)
{
	return 4 * w->repeat * w->m.wait_ns +
	       2 * CXD_SWEEP_LATE_S * 1000000000ULL;
}

/*
 * Wait for one request until the deadline (absolute, cxd_now_ns), asleep
 * between tests. The naps grow to 1 ms, not sw_wait's 5 ms: each hello
 * is on the path of every later round, so a long nap here delays the
 * whole sweep (measured: 6-9 ms per round at 5 ms), while a rank's next
 * partner is rarely more than a pair's length away.
 */
static int wait_until(MPI_Request *q, uint64_t deadline)
{
	long nap = 20000L;
	MPI_Status st;
	int flag = 0;

#ifdef CXD_SIM
	(void) deadline;
	return sw_block(q, 1);
#endif
	for (;;) {
		MPI_Test(q, &flag, &st);
		if (flag)
			return 0;
		if (cxd_now_ns() > deadline)
			return -ETIMEDOUT;
		sw_nap(nap);
		nap = nap < PACE_NAP_MAX_NS / 2 ? nap * 2 : PACE_NAP_MAX_NS;
	}
}

/* A token from the previous holder of a chain (none when that was us):
 * the slot's (SW_TAG_SLOT), or the shared-links chain's (SW_TAG_KEY). */
static void take_token(struct sw *w, const struct cxd_step *s, int from,
		       int tag, uint64_t deadline)
{
	const char *what = tag == SW_TAG_SLOT ? "slot" : "turn on shared links";
	MPI_Request q;
	int r = -1;

	if (from < 0 || from == w->m.rank)
		return;
	MPI_Irecv(&r, 1, MPI_INT, from, tag, MPI_COMM_WORLD, &q);
	if (wait_until(&q, deadline) != 0)
		sw_die(&w->m,
		       "rank %d (%s) did not hand on its %s before round "
		       "%d in time: it is stalled, or stuck behind a rank "
		       "that is", from, w->ranks[from].host, what, s->round);
	/* A slot passes from round to round; a turn on shared links may
	 * pass within a round (its pairs of one domain pair). */
	if (r > s->round || (r == s->round && tag == SW_TAG_SLOT))
		sw_die(&w->m, "rank %d handed on round %d's %s, expected one "
		       "before round %d", from, r, what, s->round);
}

/* Hand a chain on. The send is tested once (an eager one is done
 * there) but never waited for: that would hold this rank's next receives
 * back until the next holder takes it, and two holders handing each
 * other a slot would then wait for each other whenever the token is not
 * sent eagerly (found by tests/unit/test_sched.c's simulation, 7 ranks,
 * 2 pairs at once). give_end completes the rest. */
static void give_token(const struct cxd_step *s, int to, int tag,
		       MPI_Request *q, int self)
{
	MPI_Status st;
	int flag = 0;

	if (to < 0 || to == self)
		return;
	MPI_Isend(&s->round, 1, MPI_INT, to, tag, MPI_COMM_WORLD, q);
	MPI_Test(q, &flag, &st);
}

/* After the last step: every token handed on is taken, by the plan's
 * deadline (each taker's round ends before it). q: two per step, the
 * slot's and the shared links'. */
static void give_end(struct sw *w, const struct cxd_step *step, int nsteps,
		     MPI_Request *q, uint64_t deadline)
{
	uint64_t now = cxd_now_ns();
	MPI_Status st;
	int flag = 0;

	if (sw_wait(q, 2 * nsteps, deadline > now ? deadline - now : 0, NULL,
		    NULL) == 0)
		return;
	for (int i = 0; i < 2 * nsteps; i++) {
		const struct cxd_step *s = &step[i / 2];
		int to = i % 2 ? s->knext : s->next;

		MPI_Test(&q[i], &flag, &st);
		if (!flag)
			sw_die(&w->m, "rank %d (%s) did not take the %s "
			       "after round %d", to, w->ranks[to].host,
			       i % 2 ? "turn on shared links" : "slot",
			       s->round);
	}
}

/* Both partners name the round they are about to run. */
static void hello(struct sw *w, const struct cxd_step *s, uint64_t deadline)
{
	int mine = s->round, theirs = -1, p = s->partner;
	MPI_Request q[2];

	MPI_Irecv(&theirs, 1, MPI_INT, p, SW_TAG_HELLO, MPI_COMM_WORLD, &q[0]);
	MPI_Isend(&mine, 1, MPI_INT, p, SW_TAG_HELLO, MPI_COMM_WORLD, &q[1]);
	if (wait_until(&q[0], deadline) != 0)
		sw_die(&w->m,
		       "rank %d (%s) did not come to round %d in time: it "
		       "is stalled, or stuck behind a rank that is", p,
		       w->ranks[p].host, s->round);
	if (sw_wait(&q[1], 1, w->m.wait_ns, NULL, NULL) != 0)
		sw_die(&w->m, "rank %d (%s) did not take the hello of round %d",
		       p, w->ranks[p].host, s->round);
	if (theirs != mine)
		sw_die(&w->m, "rank %d (%s) came to round %d, expected %d", p,
		       w->ranks[p].host, theirs, mine);
}

/* Test copies (CXD_TEST_COORD_ONLY): one message each way stands in for
 * the measurement, so a run times the pacing alone. */
static void pair(struct sw *w, int p, sw_measure_fn *measure)
{
	uint64_t bound = CXD_SWEEP_LATE_S * 1000000000ULL;
	int mine = 1, theirs = 0;

	if (!w->pace.coord_only) {
		measure(w, p);
		return;
	}
	if (sw_pair_swap(p, SW_TAG_BARRIER, &mine, &theirs, sizeof(int),
			 bound, w->eng->progress, w->eng->state) != 0)
		sw_die(&w->m,
		       "with rank %d: rank %d (%s) did not answer within "
		       "%llu s during the coordination exchange of round %d", p,
		       p, w->ranks[p].host,
		       (unsigned long long) (bound / 1000000000ULL),
		       w->pace.round);
	for (uint64_t k = 0; k < w->repeat; k++)
		w->judge.rep[0][(size_t) p * w->repeat + k] =
			w->judge.rep[1][(size_t) p * w->repeat + k] = 1.0;
}

/* After the last round: everyone meets before the gathering (whose
 * collectives spin, so nobody may enter them early). */
static void plan_end(struct sw *w, uint64_t deadline)
{
	MPI_Request q;

	MPI_Ibarrier(MPI_COMM_WORLD, &q);
	if (wait_until(&q, deadline) != 0)
		sw_die(&w->m, "the other ranks did not finish their rounds in "
		       "time: one of them is stalled");
}

/* The rounds' lengths: each pair's lower rank times it, rank 0 keeps
 * the longest pair of each round. */
static void round_times(struct sw *w, const struct cxd_plan *pl,
			double *mine, double *secs)
{
	MPI_Request q;

	MPI_Ireduce(mine, secs, pl->nrounds, MPI_DOUBLE, MPI_MAX, 0,
		    MPI_COMM_WORLD, &q);
	sw_coll_wait(&w->m, &q, "collecting the rounds' times");
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void sw_pace(struct sw *w, const struct cxd_plan *pl,
	     sw_measure_fn *measure, double *secs)
{
	uint64_t t0 = cxd_now_ns(), bound = pair_bound_ns(w);
	double *mine = sw_alloc(&w->m, (size_t) pl->nrounds, sizeof(double));
	double cpu = cpu_s();
	struct cxd_step *step = sw_alloc(&w->m, (size_t) cxd_sched_room(
						 w->m.n, pl), sizeof(*step));
	int nsteps = cxd_sched_steps(w->m.n, w->m.rank, w->pace.pairs_at_once,
				     pl, step);
	uint64_t end = t0 + (uint64_t) (pl->nrounds + 1) * bound;
	MPI_Request *tok;

	if (nsteps >= 0 && w->pace.key_dom &&
	    cxd_sched_keys(w->m.n, w->m.rank, pl, w->pace.key_dom,
			   SW_KEY_CAP, step, nsteps) != 0)
		nsteps = -1; /* sw_run checked the domains' count */
	if (nsteps < 0)
		sw_die(&w->m, "out of memory");
	tok = sw_alloc(&w->m, 2 * (size_t) nsteps, sizeof(*tok));
	for (int i = 0; i < nsteps; i++) {
		const struct cxd_step *s = step + i;
		/* A turn on shared links may wait behind pairs of its own
		 * round: then only the plan's end bounds the waits (a stall
		 * inside a pair is named by the pair's own waits). */
		uint64_t deadline = w->pace.key_dom ? end :
				    t0 + (uint64_t) (s->round + 1) * bound;
		uint64_t start;

		tok[2 * i] = tok[2 * i + 1] = MPI_REQUEST_NULL;
		w->pace.round = s->round;
		take_token(w, s, s->prev, SW_TAG_SLOT, deadline);
		take_token(w, s, s->kprev, SW_TAG_KEY, deadline);
		hello(w, s, deadline);
		start = cxd_now_ns();
		pair(w, s->partner, measure);
		if (w->m.rank < s->partner)
			mine[s->round] = (double) (cxd_now_ns() - start) / 1e9;
		if (w->m.rank < s->partner && cxd_testaid_pair_span)
			cxd_testaid_pair_span(w->m.rank, s->partner, start,
					      cxd_now_ns());
		give_token(s, s->next, SW_TAG_SLOT, &tok[2 * i], w->m.rank);
		give_token(s, s->knext, SW_TAG_KEY, &tok[2 * i + 1],
			   w->m.rank);
	}
	give_end(w, step, nsteps, tok, end);
	plan_end(w, end);
	if (w->pace.coord_only && secs && w->m.rank == 0)
		fprintf(stderr, "cxi_sweep: coordination only: ranks %d "
			"rounds %d pairs_at_once %d wall_s %.6f rank0_cpu_s "
			"%.6f\n", w->m.n, pl->nrounds, w->pace.pairs_at_once,
			(double) (cxd_now_ns() - t0) / 1e9, cpu_s() - cpu);
	if (secs)
		round_times(w, pl, mine, secs);
	free(tok);
	free(step);
	free(mine);
}

/* The bandwidth pass of the shared-links schedule: the whole sweep's
 * dealt into slots where that pays (cxd_sched_dealt), else plan pl's
 * rounds chained by domain pair (a retest's always). With a dealt plan
 * the rounds' times are the latency pass's alone: its slots are not
 * pl's rounds. */
static void pace_shared_bw(struct sw *w, const struct cxd_plan *pl,
			   const int *dom, double *secs)
{
	struct cxd_plan dl;
	double *bw_s;
	int ret = pl->count ? -EDOM : cxd_sched_dealt(w->m.n, dom,
						    w->pace.pairs_at_once,
						    &dl);

	if (ret == -ENOMEM)
		sw_die(&w->m, "out of memory");
	if (ret == 0) {
		sw_pace(w, &dl, sw_measure_pair, NULL);
		cxd_sched_free(&dl);
		return;
	}
	bw_s = secs ? sw_alloc(&w->m, (size_t) pl->nrounds + 1,
			       sizeof(double)) : NULL;
	w->pace.key_dom = dom;
	sw_pace(w, pl, sw_measure_pair, bw_s);
	w->pace.key_dom = NULL;
	for (int r = 0; secs && w->m.rank == 0 && r < pl->nrounds; r++)
		secs[r] += bw_s[r];
	free(bw_s);
}

/* The pairs of plan pl measured for what (SW_RUN_*): both metrics at
 * once, or (dom not NULL) latency in full rounds and then bandwidth
 * taking turns on the shared links (pace_shared_bw); secs (rank 0, may
 * be NULL) gets each round's time. */
void sw_pace_plan(struct sw *w, const struct cxd_plan *pl, const int *dom,
		  int what, double *secs)
{
	if (dom == NULL) {
		w->pace.what = what;
		sw_pace(w, pl, sw_measure_pair, secs);
	} else {
		w->pace.what = SW_RUN_LAT;
		if (what != SW_RUN_BW)
			sw_pace(w, pl, sw_measure_pair, secs);
		w->pace.what = SW_RUN_BW;
		if (what != SW_RUN_LAT)
			pace_shared_bw(w, pl, dom, secs);
	}
	w->pace.what = SW_RUN_BOTH;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit-test aid: the sweep's pacing simulated (pace_sim.h): n copies of
 * the real machine (lib/sweep/sched/pace.c) over a simulated message queue. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pace_sim.h"
#include "sweep/sched/pace.h"
#include "sweep/sched/sched_keys.h"

#define NKIND (CXD_PACE_HELLO + 1) /* the kinds of message */

/* Where a rank is: doing its next action, in a pair, or done. */
enum { MOVE, PAIR, DONE };

/* A request: a send not yet taken (sync), or a receive not yet matched;
 * done when neither. */
struct req {
	bool done;
	int from, kind; /* a receive's sender and kind */
	int *buf;       /* where the receive's int goes */
};

struct sim {
	int n;
	struct cxd_pace *pc;          /* per rank: its machine, and in it
				       * the action to do next */
	int *state;
	struct req **req;             /* per rank: its machine's requests */
	int *ready, nready;           /* pairs both partners are in, by
				       * lower rank, in the order they began */
	int running;                  /* pairs either partner is in */
	int *todo, ntodo;             /* ranks that may move */
	char *queued;
	int *val, *link, nmsg;        /* messages, queued by link */
	int *sreq;                    /* per message: the sender's request
				       * a sync send completes, or -1 */
	int *head, *tail;             /* per (kind, receiver, sender) */
	unsigned rng;
	bool sync;                    /* a send waits for its receive */
	const int *dom;               /* rank's domain, or NULL: no keys */
	int nd;                       /* domains */
	int *key_running;             /* per key (domain pair): pairs under
				       * way */
	int max_key_running;
	int fault_rank;               /* the rank that met a fault */
};

static int queue_of(const struct sim *s, int kind, int dst, int src)
{
	return (kind * s->n + dst) * s->n + src;
}

/* Rank r may move again (a message came, a send was taken, or its pair
 * ended). */
static void wake(struct sim *s, int r)
{
	if (!s->queued[r]) {
		s->queued[r] = 1;
		s->todo[s->ntodo++] = r;
	}
}

/* Rank r sends (action a): queued for the receiver, done at once when
 * eager, else when taken. */
static void sim_send(struct sim *s, int r, const struct cxd_pace_act *a)
{
	int q = queue_of(s, (int) a->kind, a->peer, r), m = s->nmsg++;

	s->val[m] = *a->val;
	s->link[m] = -1;
	s->sreq[m] = s->sync ? a->req : -1;
	if (s->tail[q] < 0)
		s->head[q] = m;
	else
		s->link[s->tail[q]] = m;
	s->tail[q] = m;
	s->req[r][a->req] = (struct req){ .done = !s->sync };
	wake(s, a->peer);
}

/* Rank r's receive, matched with the first message from its sender of
 * its kind (MPI's order) when one is queued: done or not. */
static bool match(struct sim *s, int r, struct req *rq)
{
	int q = queue_of(s, rq->kind, r, rq->from), m = s->head[q];

	if (m < 0)
		return false;
	*rq->buf = s->val[m];
	s->head[q] = s->link[m];
	if (s->head[q] < 0)
		s->tail[q] = -1;
	if (s->sreq[m] >= 0) { /* the sender's sync send is done */
		s->req[rq->from][s->sreq[m]].done = true;
		wake(s, rq->from);
	}
	rq->done = true;
	return true;
}

/* Rank r's requests first .. first + nr - 1 all done. */
static bool waited(struct sim *s, int r, int first, int nr)
{
	for (int i = first; i < first + nr; i++) {
		struct req *rq = &s->req[r][i];

		if (!rq->done && (rq->buf == NULL || !match(s, r, rq)))
			return false;
	}
	return true;
}

/* The key (unordered domain pair) of the pair of ranks a and b, or -1
 * when it has none: no domains, one unknown, or both the same. */
static int key_of(const struct sim *s, int a, int b)
{
	int da, db;

	if (s->dom == NULL)
		return -1;
	da = s->dom[a];
	db = s->dom[b];
	if (da < 0 || db < 0 || da == db)
		return -1;
	return da < db ? da * s->nd + db : db * s->nd + da;
}

/* The pair of a and b begins (by 1) or ends (by -1). */
static void key_count(struct sim *s, int a, int b, int by)
{
	int k = key_of(s, a, b);

	if (k < 0)
		return;
	s->key_running[k] += by;
	if (s->key_running[k] > s->max_key_running)
		s->max_key_running = s->key_running[k];
}

/* Rank r comes to its pair with p: under way once either is in it,
 * ready to end once both are. */
static void enter_pair(struct sim *s, int r, int p)
{
	s->state[r] = PAIR;
	if (s->state[p] == PAIR && s->pc[p].act.peer == r) {
		s->ready[s->nready++] = r < p ? r : p;
	} else {
		s->running++;
		key_count(s, r, p, 1);
	}
}

static const enum pace_fault wrong_fault[NKIND] = {
	[CXD_PACE_SLOT] = PACE_TOKEN_LATE,
	[CXD_PACE_KEY] = PACE_KEY_LATE,
	[CXD_PACE_HELLO] = PACE_HELLO_WRONG,
};

/* One action of rank r's machine: 1 done, 0 it waits, or a fault
 * negated. */
static int advance(struct sim *s, int r)
{
	const struct cxd_pace_act *a = &s->pc[r].act;

	if (s->state[r] != MOVE)
		return 0;
	switch (a->op) {
	case CXD_PACE_RECV:
		s->req[r][a->req] = (struct req){ .from = a->peer,
						  .kind = (int) a->kind,
						  .buf = a->buf };
		break;
	case CXD_PACE_SEND:
		sim_send(s, r, a);
		break;
	case CXD_PACE_WAIT:
		if (!waited(s, r, a->req, a->nreq))
			return 0;
		break;
	case CXD_PACE_RUN:
		enter_pair(s, r, a->peer);
		return 1; /* its next action once the pair ended */
	case CXD_PACE_DONE:
		s->state[r] = DONE;
		return 1;
	case CXD_PACE_ERROR:
		return -(int) wrong_fault[a->kind];
	}
	cxd_pace_next(&s->pc[r]);
	return 1;
}

/* Every rank that may move, as far as it can go: 0, or the fault. */
static int settle(struct sim *s)
{
	while (s->ntodo > 0) {
		int r = s->todo[--s->ntodo], k;

		s->queued[r] = 0;
		while ((k = advance(s, r)) > 0)
			;
		if (k < 0) {
			s->fault_rank = r;
			return -k;
		}
	}
	return 0;
}

/* The pair to end next, by its lower rank, taken off the ready list;
 * -1: none can end. */
static int pick(struct sim *s, enum pace_policy policy)
{
	int i = 0, a;

	if (s->nready == 0)
		return -1;
	if (policy == PACE_NEWEST)
		i = s->nready - 1;
	if (policy == PACE_RANDOM) {
		s->rng = s->rng * 1103515245u + 12345u;
		i = (int) ((s->rng >> 16) % (unsigned) s->nready);
	}
	a = s->ready[i];
	memmove(s->ready + i, s->ready + i + 1,
		(size_t) (s->nready - i - 1) * sizeof(int));
	s->nready--;
	return a;
}

/* The pair of ranks a < b ends: both machines go on (hand the tokens
 * on, then the next step). */
static void finish(struct sim *s, int a, int *times)
{
	int ends[2] = { a, s->pc[a].act.peer };

	times[a * s->n + ends[1]]++;
	s->running--;
	key_count(s, a, ends[1], -1);
	for (int i = 0; i < 2; i++) {
		int x = ends[i];

		s->state[x] = MOVE;
		cxd_pace_next(&s->pc[x]);
		wake(s, x);
	}
}

static void sim_close(struct sim *s)
{
	for (int r = 0; s->req && r < s->n; r++)
		free(s->req[r]);
	free(s->req);
	free(s->pc);
	free(s->state);
	free(s->ready);
	free(s->todo);
	free(s->queued);
	free(s->val);
	free(s->link);
	free(s->sreq);
	free(s->head);
	free(s->tail);
	free(s->key_running);
}

/* Rank r's steps, with its key chains when there are domains: 0 or -1. */
static int rank_steps(struct pace_steps *ps, int r, int pairs_at_once,
		      const struct cxd_plan *pl, int cap)
{
	int n = ps->n;

	ps->step[r] = malloc((size_t) cxd_sched_room(n, pl) *
			     sizeof(struct cxd_step));
	if (ps->step[r] == NULL)
		return -1;
	ps->nsteps[r] = cxd_sched_steps(n, r, pairs_at_once, pl, ps->step[r]);
	if (ps->nsteps[r] < 0)
		return -1;
	/* A dealt plan links its own chains. */
	if (ps->dom && cxd_sched_keyable(pl) &&
	    cxd_sched_keys(n, r, pl, ps->dom, cap, ps->step[r],
			   ps->nsteps[r]) != 0)
		return -1;
	return 0;
}

int pace_steps_make(int n, int pairs_at_once, const struct cxd_plan *pl,
		    const int *dom, int cap, struct pace_steps *ps)
{
	*ps = (struct pace_steps){ n, dom, NULL, NULL };
	ps->step = calloc((size_t) n, sizeof(*ps->step));
	ps->nsteps = calloc((size_t) n, sizeof(int));
	if (!ps->step || !ps->nsteps)
		return -1;
	for (int r = 0; r < n; r++)
		if (rank_steps(ps, r, pairs_at_once, pl, cap) != 0)
			return -1;
	return 0;
}

void pace_steps_free(struct pace_steps *ps)
{
	for (int r = 0; ps->step && r < ps->n; r++)
		free(ps->step[r]);
	free(ps->step);
	free(ps->nsteps);
	ps->step = NULL;
	ps->nsteps = NULL;
}

/* Rank r's machine at its first action, its requests idle. */
static int rank_open(struct sim *s, const struct pace_steps *ps, int r)
{
	int nreq;

	cxd_pace_init(&s->pc[r], ps->step[r], ps->nsteps[r], r);
	nreq = cxd_pace_nreq(&s->pc[r]);
	s->req[r] = calloc((size_t) nreq, sizeof(struct req));
	if (s->req[r] == NULL)
		return -1;
	for (int i = 0; i < nreq; i++)
		s->req[r][i].done = true;
	cxd_pace_next(&s->pc[r]);
	wake(s, r);
	return 0;
}

/* Room for every rank's walk and every message: 0 or -1. */
static int sim_open(struct sim *s, const struct pace_steps *ps,
		    unsigned seed, bool sync)
{
	int n = ps->n;
	size_t nq = NKIND * (size_t) n * (size_t) n, total = 0;

	*s = (struct sim){ .n = n, .rng = seed, .sync = sync, .dom = ps->dom };
	s->nd = ps->dom ? cxd_sched_ndom(n, ps->dom) : 0;
	s->key_running = calloc((size_t) s->nd * (size_t) s->nd + 1,
				sizeof(int));
	s->pc = calloc((size_t) n, sizeof(*s->pc));
	s->req = calloc((size_t) n, sizeof(*s->req));
	s->state = calloc((size_t) n, sizeof(int));
	s->ready = calloc((size_t) n, sizeof(int));
	s->todo = calloc((size_t) n, sizeof(int));
	s->queued = calloc((size_t) n, 1);
	s->head = malloc(nq * sizeof(int));
	s->tail = malloc(nq * sizeof(int));
	if (!s->key_running || !s->pc || !s->req || !s->state ||
	    !s->ready || !s->todo || !s->queued || !s->head || !s->tail)
		return -1;
	for (size_t q = 0; q < nq; q++)
		s->head[q] = s->tail[q] = -1;
	for (int r = 0; r < n; r++) {
		if (rank_open(s, ps, r) != 0)
			return -1;
		total += (size_t) ps->nsteps[r];
	}
	/* Each step sends one hello, at most one slot token and at most
	 * one key token. */
	s->val = malloc((3 * total + 1) * sizeof(int));
	s->link = malloc((3 * total + 1) * sizeof(int));
	s->sreq = malloc((3 * total + 1) * sizeof(int));
	return s->val && s->link && s->sreq ? 0 : -1;
}

/* After the last pair: a rank not done waits forever; a message left
 * queued was never received. */
static void sim_check_end(const struct sim *s, struct pace_res *res)
{
	for (int r = 0; r < s->n; r++) {
		if (s->state[r] != DONE) {
			res->fault = PACE_DEADLOCK;
			res->stuck_rank = r;
			res->stuck_step = s->pc[r].at;
			return;
		}
	}
	for (int kind = 0; kind < NKIND; kind++)
		for (int q = queue_of(s, kind, 0, 0);
		     q < queue_of(s, kind + 1, 0, 0); q++)
			if (s->head[q] >= 0)
				res->fault = kind == CXD_PACE_KEY
						     ? PACE_KEY_LEFTOVER
						     : PACE_LEFTOVER;
}

void pace_run(const struct pace_steps *ps, enum pace_policy policy,
	      unsigned seed, bool sync, int *times, struct pace_res *res)
{
	struct sim s;
	int a;

	*res = (struct pace_res){ PACE_OK, 0, 0, 0, -1, -1 };
	if (sim_open(&s, ps, seed, sync) != 0) {
		res->fault = PACE_NOMEM;
		sim_close(&s);
		return;
	}
	for (;;) {
		res->fault = (enum pace_fault) settle(&s);
		if (res->fault != PACE_OK) {
			res->stuck_rank = s.fault_rank;
			res->stuck_step = s.pc[s.fault_rank].at;
			break;
		}
		if (s.running > res->max_running)
			res->max_running = s.running;
		a = pick(&s, policy);
		if (a < 0)
			break;
		finish(&s, a, times);
		res->ended++;
	}
	if (res->fault == PACE_OK)
		sim_check_end(&s, res);
	res->max_key_running = s.max_key_running;
	sim_close(&s);
}

void pace_simulate_keys(int n, int pairs_at_once, const struct cxd_plan *pl,
			const int *dom, int cap, enum pace_policy policy,
			unsigned seed, bool sync, int *times,
			struct pace_res *res)
{
	struct pace_steps ps;

	if (pace_steps_make(n, pairs_at_once, pl, dom, cap, &ps) == 0) {
		pace_run(&ps, policy, seed, sync, times, res);
	} else {
		*res = (struct pace_res){ PACE_NOMEM, 0, 0, 0, -1, -1 };
	}
	pace_steps_free(&ps);
}

void pace_simulate(int n, int pairs_at_once, const struct cxd_plan *pl,
		   enum pace_policy policy, unsigned seed, bool sync,
		   int *times, struct pace_res *res)
{
	pace_simulate_keys(n, pairs_at_once, pl, NULL, 1, policy, seed, sync,
			   times, res);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit-test aid: the sweep's pacing simulated (pace_sim.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pace_sim.h"

/* Where a rank is in its steps: TAKE the slot, then KEY its key's
 * token, HELLO, RUN, and after the last step END, DONE. */
enum { TAKE, KEY, HELLO, RUN, END, DONE };
enum { K_TOKEN, K_HELLO, K_KEY, NKIND }; /* the kinds of message */

struct sim {
	int n;
	struct cxd_step *const *step; /* the pace_steps' */
	const int *nsteps;
	int *at, *phase;
	int *ready, nready;          /* pairs both partners are in, by
				      * lower rank, in the order they began */
	int running;                 /* pairs either partner is in */
	int *todo, ntodo;            /* ranks that may move */
	char *queued;
	int *val, *link, nmsg;       /* messages, queued by link */
	int *head, *tail;            /* per (kind, receiver, sender) */
	unsigned rng;
	bool sync;                   /* a token's send waits for its receive */
	int *unsent;                 /* per rank: its tokens not yet taken */
	const int *dom;              /* rank's domain, or NULL: no keys */
	int nd;                      /* domains */
	int *key_running;            /* per key (domain pair): pairs under
				      * way */
	int max_key_running;
	int fault_rank;              /* the rank that met a fault */
};

static int queue_of(const struct sim *s, int kind, int dst, int src)
{
	return (kind * s->n + dst) * s->n + src;
}

static int post(struct sim *s, int kind, int src, int dst, int v)
{
	int q = queue_of(s, kind, dst, src), m = s->nmsg++;

	s->val[m] = v;
	s->link[m] = -1;
	if (s->tail[q] < 0)
		s->head[q] = m;
	else
		s->link[s->tail[q]] = m;
	s->tail[q] = m;
	return m;
}

static bool take(struct sim *s, int kind, int dst, int src, int *v)
{
	int q = queue_of(s, kind, dst, src), m = s->head[q];

	if (m < 0)
		return false;
	*v = s->val[m];
	s->head[q] = s->link[m];
	if (s->head[q] < 0)
		s->tail[q] = -1;
	return true;
}

/* On to rank r's next step, or to the end of its steps. */
static void next_step(struct sim *s, int r)
{
	s->at[r]++;
	s->phase[r] = s->at[r] < s->nsteps[r] ? TAKE : END;
}

/* Rank r may move again (a message came, or its pair ended). */
static void wake(struct sim *s, int r)
{
	if (!s->queued[r]) {
		s->queued[r] = 1;
		s->todo[s->ntodo++] = r;
	}
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

/* One move of rank r (take_slot, then hello; after its last step
 * give_end): 1 moved, 0 it waits, or a fault negated. */
static int advance(struct sim *s, int r)
{
	const struct cxd_step *st;
	int v;

	if (s->phase[r] == DONE || s->phase[r] == RUN)
		return 0;
	if (s->phase[r] == END) {
		if (s->sync && s->unsent[r] > 0)
			return 0;
		s->phase[r] = DONE;
		return 1;
	}
	st = s->step[r] + s->at[r];
	if (s->phase[r] == TAKE) {
		if (st->prev >= 0 && st->prev != r) {
			if (!take(s, K_TOKEN, r, st->prev, &v))
				return 0;
			if (v >= st->round)
				return -PACE_TOKEN_LATE;
			s->unsent[st->prev]--; /* its send is done */
			wake(s, st->prev);
		}
		s->phase[r] = KEY;
		return 1;
	}
	if (s->phase[r] == KEY) {
		if (st->kprev >= 0 && st->kprev != r) {
			if (!take(s, K_KEY, r, st->kprev, &v))
				return 0;
			/* Pairs of one round may take turns. */
			if (v > st->round)
				return -PACE_KEY_LATE;
			s->unsent[st->kprev]--;
			wake(s, st->kprev);
		}
		post(s, K_HELLO, r, st->partner, st->round);
		wake(s, st->partner);
		s->phase[r] = HELLO;
		return 1;
	}
	if (!take(s, K_HELLO, r, st->partner, &v))
		return 0;
	if (v != st->round)
		return -PACE_HELLO_WRONG;
	s->phase[r] = RUN;
	if (s->phase[st->partner] == RUN) {
		s->ready[s->nready++] = r < st->partner ? r : st->partner;
	} else {
		s->running++;
		key_count(s, r, st->partner, 1);
	}
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

/* The pair of ranks a < b ends: the holder hands the slot on (give_slot:
 * the send started, not waited for) and both go to their next step. */
static void finish(struct sim *s, int a, int *times)
{
	int ends[2] = { a, s->step[a][s->at[a]].partner };

	times[a * s->n + ends[1]]++;
	s->running--;
	key_count(s, a, ends[1], -1);
	for (int i = 0; i < 2; i++) {
		int x = ends[i];
		const struct cxd_step *st = s->step[x] + s->at[x];

		if (st->next >= 0 && st->next != x) {
			post(s, K_TOKEN, x, st->next, st->round);
			s->unsent[x]++;
			wake(s, st->next);
		}
		if (st->knext >= 0 && st->knext != x) {
			post(s, K_KEY, x, st->knext, st->round);
			s->unsent[x]++;
			wake(s, st->knext);
		}
		next_step(s, x);
		wake(s, x);
	}
}

static void sim_close(struct sim *s)
{
	free(s->at);
	free(s->phase);
	free(s->ready);
	free(s->todo);
	free(s->queued);
	free(s->val);
	free(s->unsent);
	free(s->link);
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
	if (ps->dom && pl->prime == 0 &&
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

/* Room for every rank's walk and every message: 0 or -1. */
static int sim_open(struct sim *s, const struct pace_steps *ps,
		    unsigned seed, bool sync)
{
	int n = ps->n;
	size_t nq = NKIND * (size_t) n * (size_t) n, total = 0;

	*s = (struct sim){ .n = n, .step = ps->step, .nsteps = ps->nsteps,
			   .rng = seed, .sync = sync, .dom = ps->dom };
	s->nd = ps->dom ? cxd_sched_ndom(n, ps->dom) : 0;
	s->key_running = calloc((size_t) s->nd * (size_t) s->nd + 1,
				sizeof(int));
	s->at = calloc((size_t) n, sizeof(int));
	s->phase = calloc((size_t) n, sizeof(int));
	s->ready = calloc((size_t) n, sizeof(int));
	s->todo = calloc((size_t) n, sizeof(int));
	s->queued = calloc((size_t) n, 1);
	s->head = malloc(nq * sizeof(int));
	s->tail = malloc(nq * sizeof(int));
	if (!s->key_running || !s->at || !s->phase || !s->ready ||
	    !s->todo || !s->queued || !s->head || !s->tail)
		return -1;
	for (size_t q = 0; q < nq; q++)
		s->head[q] = s->tail[q] = -1;
	for (int r = 0; r < n; r++) {
		s->phase[r] = s->nsteps[r] > 0 ? TAKE : END;
		wake(s, r);
		total += (size_t) s->nsteps[r];
	}
	/* Each step sends one hello, at most one slot token and at most
	 * one key token. */
	s->val = malloc((3 * total + 1) * sizeof(int));
	s->unsent = calloc((size_t) n, sizeof(int));
	s->link = malloc((3 * total + 1) * sizeof(int));
	return s->val && s->link && s->unsent ? 0 : -1;
}

/* After the last pair: a rank not done waits forever; a message left
 * queued was never received. */
static void sim_check_end(const struct sim *s, struct pace_res *res)
{
	for (int r = 0; r < s->n; r++) {
		if (s->phase[r] != DONE) {
			res->fault = PACE_DEADLOCK;
			res->stuck_rank = r;
			res->stuck_step = s->at[r];
			return;
		}
	}
	for (int kind = 0; kind < NKIND; kind++)
		for (int q = queue_of(s, kind, 0, 0);
		     q < queue_of(s, kind + 1, 0, 0); q++)
			if (s->head[q] >= 0)
				res->fault = kind == K_KEY ? PACE_KEY_LEFTOVER
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
			res->stuck_step = s.at[s.fault_rank];
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

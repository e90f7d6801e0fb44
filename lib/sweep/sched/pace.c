/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's pacing protocol, one rank's walk (pace.h). */
#include <stddef.h>

#include "pace.h"

/* Where the walk is within a step, in order, in three parts that
 * cxd_pace_next tells apart by range (take, hello, pair_on); then after
 * the last step. */
enum {
	TAKE_SLOT, WAIT_SLOT, CHECK_SLOT,
	TAKE_KEY, WAIT_KEY, CHECK_KEY,
	HELLO_IN, HELLO_OUT, HELLO_WAIT, HELLO_SENT, HELLO_CHECK,
	RUN, GIVE_SLOT, GIVE_KEY,
	END, DONE,
};

void cxd_pace_init(struct cxd_pace *p, const struct cxd_step *step,
		   int nsteps, int self)
{
	*p = (struct cxd_pace){ .step = step, .nsteps = nsteps, .self = self,
				.phase = nsteps > 0 ? TAKE_SLOT : END,
				.in = -1 };
}

int cxd_pace_nreq(const struct cxd_pace *p)
{
	return CXD_PACE_REQ_SENT + 2 * p->nsteps;
}

int cxd_pace_sent(const struct cxd_pace *p, int req,
		  enum cxd_pace_kind *kind, int *round)
{
	int i = req - CXD_PACE_REQ_SENT;
	const struct cxd_step *s = p->step + i / 2;

	*kind = i % 2 ? CXD_PACE_KEY : CXD_PACE_SLOT;
	*round = s->round;
	return i % 2 ? s->knext : s->next;
}

/* The round of the step under way (after the last: the last step's). */
static int round_of(const struct cxd_pace *p)
{
	int at = p->at < p->nsteps ? p->at : p->nsteps - 1;

	return at >= 0 ? p->step[at].round : -1;
}

/* The next action, held in p: built whole in one literal and never
 * copied (built field by field and returned by value, it cost the
 * simulation, tests/unit/test_pace.c, half its time). */
static const struct cxd_pace_act *act(struct cxd_pace *p,
				      enum cxd_pace_op op, int peer)
{
	p->act = (struct cxd_pace_act){ .op = op, .peer = peer, .req = -1,
					.round = round_of(p) };
	return &p->act;
}

/* A chain's neighbour, when there is one and it is not this rank. */
static bool other(const struct cxd_pace *p, int rank)
{
	return rank >= 0 && rank != p->self;
}

static const struct cxd_pace_act *do_recv(struct cxd_pace *p, int from,
					  enum cxd_pace_kind kind)
{
	p->in = -1;
	p->act = (struct cxd_pace_act){ .op = CXD_PACE_RECV, .kind = kind,
					.req = CXD_PACE_REQ_IN, .peer = from,
					.round = round_of(p), .buf = &p->in };
	return &p->act;
}

/* A token's send is tested once (an eager one is done there), never
 * waited for before the end (pace.h says why). */
static const struct cxd_pace_act *do_send(struct cxd_pace *p, int to,
					  enum cxd_pace_kind kind, int req,
					  const int *val)
{
	p->act = (struct cxd_pace_act){ .op = CXD_PACE_SEND, .kind = kind,
					.req = req, .peer = to,
					.round = round_of(p), .val = val,
					.test = kind != CXD_PACE_HELLO };
	return &p->act;
}

static const struct cxd_pace_act *do_wait(struct cxd_pace *p,
					  enum cxd_pace_wait w, int peer,
					  int req, int nreq)
{
	p->act = (struct cxd_pace_act){ .op = CXD_PACE_WAIT, .wait = w,
					.req = req, .nreq = nreq, .peer = peer,
					.round = round_of(p) };
	return &p->act;
}

/* The message just taken named the wrong round: the machine stays at
 * this check, so every later call says the same. */
static const struct cxd_pace_act *wrong(struct cxd_pace *p, int from,
					enum cxd_pace_kind kind)
{
	p->phase--;
	p->act = (struct cxd_pace_act){ .op = CXD_PACE_ERROR, .kind = kind,
					.req = -1, .peer = from,
					.round = round_of(p), .got = p->in };
	return &p->act;
}

/* After the pair: hand the key's chain on (the send's round is the
 * step's), and go to the next step. */
static const struct cxd_pace_act *give_key(struct cxd_pace *p)
{
	const struct cxd_step *s = p->step + p->at;
	bool give = other(p, s->knext);

	if (give)
		do_send(p, s->knext, CXD_PACE_KEY,
			CXD_PACE_REQ_SENT + 2 * p->at + 1, &s->round);
	p->at++;
	p->phase = p->at < p->nsteps ? TAKE_SLOT : END;
	return give ? &p->act : cxd_pace_next(p);
}

/* The tokens taken before the hello (the slot's, then the key's), in
 * phase ph: the action, or NULL to go on. */
static const struct cxd_pace_act *take(struct cxd_pace *p,
				       const struct cxd_step *s, int ph)
{
	switch (ph) {
	case TAKE_SLOT:
		if (other(p, s->prev))
			return do_recv(p, s->prev, CXD_PACE_SLOT);
		p->phase = TAKE_KEY;
		return NULL;
	case WAIT_SLOT:
		return do_wait(p, CXD_PACE_W_SLOT, s->prev, CXD_PACE_REQ_IN,
			       1);
	case CHECK_SLOT: /* a slot passes from round to round */
		return p->in >= s->round ? wrong(p, s->prev, CXD_PACE_SLOT)
					 : NULL;
	case TAKE_KEY:
		if (other(p, s->kprev))
			return do_recv(p, s->kprev, CXD_PACE_KEY);
		p->phase = HELLO_IN;
		return NULL;
	case WAIT_KEY:
		return do_wait(p, CXD_PACE_W_KEY, s->kprev, CXD_PACE_REQ_IN,
			       1);
	default: /* CHECK_KEY: may pass within a round (one domain pair's
		  * pairs of it) */
		return p->in > s->round ? wrong(p, s->kprev, CXD_PACE_KEY)
					: NULL;
	}
}

/* The hello swapped with the partner, naming the round, in phase ph:
 * the action, or NULL to go on. */
static const struct cxd_pace_act *hello(struct cxd_pace *p,
					const struct cxd_step *s, int ph)
{
	switch (ph) {
	case HELLO_IN:
		p->mine = s->round;
		return do_recv(p, s->partner, CXD_PACE_HELLO);
	case HELLO_OUT:
		return do_send(p, s->partner, CXD_PACE_HELLO,
			       CXD_PACE_REQ_HELLO, &p->mine);
	case HELLO_WAIT:
		return do_wait(p, CXD_PACE_W_HELLO, s->partner,
			       CXD_PACE_REQ_IN, 1);
	case HELLO_SENT:
		return do_wait(p, CXD_PACE_W_HELLO_SENT, s->partner,
			       CXD_PACE_REQ_HELLO, 1);
	default: /* HELLO_CHECK */
		return p->in != p->mine ? wrong(p, s->partner, CXD_PACE_HELLO)
					: NULL;
	}
}

/* The pair, the tokens handed on, then the end, in phase ph: the
 * action, or NULL to go on. */
static const struct cxd_pace_act *pair_on(struct cxd_pace *p,
					  const struct cxd_step *s, int ph)
{
	switch (ph) {
	case RUN:
		return act(p, CXD_PACE_RUN, s->partner);
	case GIVE_SLOT:
		if (other(p, s->next))
			return do_send(p, s->next, CXD_PACE_SLOT,
				       CXD_PACE_REQ_SENT + 2 * p->at,
				       &s->round);
		return NULL;
	case GIVE_KEY:
		return give_key(p);
	case END:
		return do_wait(p, CXD_PACE_W_SENT, -1, CXD_PACE_REQ_SENT,
			       2 * p->nsteps);
	default:
		p->phase = DONE;
		return act(p, CXD_PACE_DONE, -1);
	}
}

const struct cxd_pace_act *cxd_pace_next(struct cxd_pace *p)
{
	for (;;) {
		const struct cxd_step *s = p->at < p->nsteps ?
					   p->step + p->at : NULL;
		/* The phase moves on first: a step's check that fails
		 * steps back (wrong), a skip jumps ahead. */
		int ph = p->phase++;
		const struct cxd_pace_act *a =
			ph < HELLO_IN ? take(p, s, ph) :
			ph < RUN ? hello(p, s, ph) : pair_on(p, s, ph);

		if (a)
			return a;
	}
}

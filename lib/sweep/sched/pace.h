/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing protocol, one rank's walk through its steps
 * (cxd_sched_steps, sched.h), as a state machine with no MPI and no
 * clock: it says what to do next, a driver does it. Two drivers run it:
 * tools/sweep/pace/pace_mpi.c over MPI, and the unit tests' simulated
 * message queue (tests/unit/support/pace_sim.c), so the property tests
 * prove the code that runs.
 *
 * Per step: take the slot's token from prev (a round before this one),
 * then the shared links' token from kprev (this round or before), swap a
 * hello naming the round with the partner, run the pair, and hand both
 * tokens on. A token's send is tested once but never waited for until
 * after the last step: waiting would hold this rank's next receives back
 * until the next holder takes it, and two holders handing each other a
 * slot would then wait for each other whenever MPI does not send the 4
 * bytes eagerly (found by the simulation, 7 ranks, 2 pairs at once).
 * After the last step every token sent must be taken.
 *
 * The driver loop: a = cxd_pace_next(p); do *a; repeat until DONE or
 * ERROR. RECV and SEND post at once; WAIT and RUN: call cxd_pace_next
 * again only once the wait is over (every request done) or the pair
 * ran. Deadlines are the driver's: a.wait says which wait it is in.
 */
#ifndef CXD_SWEEP_PACE_H
#define CXD_SWEEP_PACE_H

#include <stdbool.h>

#include "sched.h"

/* The kinds of message, each its own MPI tag. */
enum cxd_pace_kind {
	CXD_PACE_SLOT,  /* a slot's token */
	CXD_PACE_KEY,   /* a shared-links chain's token */
	CXD_PACE_HELLO, /* partners name the round */
};

enum cxd_pace_op {
	CXD_PACE_RECV,  /* post a receive of one int into *buf: req, peer,
			 * kind */
	CXD_PACE_SEND,  /* post a send of *val: req, peer, kind; test it
			 * once when test is set */
	CXD_PACE_WAIT,  /* until requests req .. req + nreq - 1 are done */
	CXD_PACE_RUN,   /* measure the pair with peer */
	CXD_PACE_DONE,  /* every step walked, every token taken */
	CXD_PACE_ERROR, /* peer's message of kind named round got */
};

/* Which wait (op WAIT), for the driver's deadline and its words. */
enum cxd_pace_wait {
	CXD_PACE_W_SLOT,       /* slot's token from peer (step.prev) */
	CXD_PACE_W_KEY,        /* shared links' token from peer (kprev) */
	CXD_PACE_W_HELLO,      /* the partner's hello */
	CXD_PACE_W_HELLO_SENT, /* the partner took ours */
	CXD_PACE_W_SENT,       /* after the last step: every token taken
				* (cxd_pace_sent names each request's) */
};

/* Requests, numbered by the machine: a driver keeps cxd_pace_nreq of
 * them, all idle at first. */
enum {
	CXD_PACE_REQ_IN,    /* a token's or the hello's receive */
	CXD_PACE_REQ_HELLO, /* the hello's send */
	CXD_PACE_REQ_SENT,  /* then two per step: slot's, key's token sent */
};

struct cxd_pace_act {
	enum cxd_pace_op op;
	enum cxd_pace_kind kind;
	enum cxd_pace_wait wait;
	int req, nreq;
	int peer;
	int round;        /* the step's (after the last: the last step's) */
	int *buf;         /* RECV */
	const int *val;   /* SEND */
	bool test;        /* SEND */
	int got;          /* ERROR: the round peer's message named */
};

/* One rank's walk. The fields are the machine's; a driver may read at
 * (the step under way, nsteps when past the last) and act (the action
 * cxd_pace_next returned last). */
struct cxd_pace {
	const struct cxd_step *step;
	int nsteps, self;
	int at, phase;
	int in, mine;     /* the int received, the hello sent */
	struct cxd_pace_act act;
};

/* Rank self's walk through its nsteps steps (step outlives p). */
void cxd_pace_init(struct cxd_pace *p, const struct cxd_step *step,
		   int nsteps, int self);
int cxd_pace_nreq(const struct cxd_pace *p);
/* The next action; it stays in p->act until the next call. */
const struct cxd_pace_act *cxd_pace_next(struct cxd_pace *p);
/* A token-send request (>= CXD_PACE_REQ_SENT): its receiver, and its
 * kind and round. */
int cxd_pace_sent(const struct cxd_pace *p, int req,
		  enum cxd_pace_kind *kind, int *round);

#endif

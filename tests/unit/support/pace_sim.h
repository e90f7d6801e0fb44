/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid: the sweep's pacing simulated, no MPI. Each of n ranks
 * runs the real protocol (lib/sweep/sched/pace.c, as tools/sweep/pace/pace_mpi.c
 * does over MPI) over its own steps (cxd_sched_steps); this file is
 * only the message queue under them. Receives match by sender and kind
 * in order, as MPI's do. Without sync a send completes at once (four-
 * byte messages go eagerly); with sync only once it is received (the
 * rendezvous protocol). Every rank moves as far as it can; then one
 * running pair ends, picked by the policy, so pairs overlap as much as
 * waits allow. A machine that reports a message naming the wrong round
 * is a fault, and so is a rank left waiting or a message never received.
 *
 * With domains (pace_simulate_keys) each rank's steps also get their key
 * chains (cxd_sched_keys), whose tokens are a kind of message of their
 * own. A dealt plan (cxd_sched_dealt) brings its own chains; dom then
 * only counts the pairs of each key under way. A pair's key is the
 * unordered pair of its ranks' domains, when they differ and both are
 * known.
 */
#ifndef CXD_TEST_PACE_SIM_H
#define CXD_TEST_PACE_SIM_H

#include <stdbool.h>

#include "sweep/sched/sched.h"

enum pace_policy { PACE_OLDEST, PACE_NEWEST, PACE_RANDOM };

enum pace_fault {
	PACE_OK,
	PACE_DEADLOCK,    /* nothing runs and a rank still waits */
	PACE_TOKEN_LATE,  /* a slot's token named a round not earlier */
	PACE_HELLO_WRONG, /* partners came to different rounds */
	PACE_LEFTOVER,    /* a message nobody received */
	PACE_NOMEM,       /* or cxd_sched_keys failed */
	PACE_KEY_LATE,    /* a key's token named a later round */
	PACE_KEY_LEFTOVER, /* a key's token nobody received */
};

struct pace_res {
	enum pace_fault fault;
	int max_running; /* pairs under way at once, at most */
	int max_key_running; /* pairs of one key under way at once, most */
	int ended;       /* pairs measured */
	int stuck_rank;  /* PACE_DEADLOCK: a rank that waits, and its step;
			  * a fault met on a move: that rank and step */
	int stuck_step;
};

/* times[a * n + b] (a < b): how often pair (a, b) was measured. */
void pace_simulate(int n, int pairs_at_once, const struct cxd_plan *pl,
		   enum pace_policy policy, unsigned seed, bool sync,
		   int *times, struct pace_res *res);
/* The same with domains: dom[r] rank r's (-1 unknown), at most cap pairs
 * of one key at once; dom NULL: no keys, as pace_simulate. */
void pace_simulate_keys(int n, int pairs_at_once, const struct cxd_plan *pl,
			const int *dom, int cap, enum pace_policy policy,
			unsigned seed, bool sync, int *times,
			struct pace_res *res);

/* The two halves of pace_simulate_keys, for several runs of one plan:
 * every rank's steps (made once: 0, or -1 out of memory or keys
 * refused), and a run over them. dom must outlive ps. */
struct pace_steps {
	int n;
	const int *dom;
	struct cxd_step **step; /* per rank: its steps */
	int *nsteps;
};
int pace_steps_make(int n, int pairs_at_once, const struct cxd_plan *pl,
		    const int *dom, int cap, struct pace_steps *ps);
void pace_steps_free(struct pace_steps *ps);
void pace_run(const struct pace_steps *ps, enum pace_policy policy,
	      unsigned seed, bool sync, int *times, struct pace_res *res);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency over the routes (judge_lat.c): a pair's latency is what its
 * two ends add plus what its way across the fabric takes. Pairs between
 * the same two switches take the same ways, so the model is
 *
 *     lat(i, j) = T(switch of i, switch of j) + e_i + e_j
 *
 * fitted from every pair by alternating medians (a median polish: robust
 * to the few pairs a bad component touches). e_i is what rank i's NIC,
 * cable and port add beyond the others on its switch pairs. A rank is
 * named when its excess lies beyond a bound from the run itself: K times
 * the spread of the fitted excesses (a kind judged against its own), K
 * times a link's repeat noise, never under a floor of the smallest class
 * typical (real hosts' loopback jitters far more than the simulator).
 */
#ifndef CXD_SWEEP_JUDGE_LAT_H
#define CXD_SWEEP_JUDGE_LAT_H

#include <stdbool.h>
#include <stddef.h>

#include "suspect_types.h"

/* Sigmas of the bound (the links' own rule's K). */
#define CXD_LATFIT_K 4.0
/* The bound's floor, a share of the smallest class typical: on the
 * simulated dragonfly of 0.21 us on one switch, 42 ns. */
#define CXD_LATFIT_FLOOR 0.20
/* Rounds of the median polish: an even median halves what a bad NIC
 * leaks into its switch pairs each round (two ranks a switch). */
#define CXD_LATFIT_ROUNDS 10
/* Rank 0 holds the latency and CPU wait matrices for the fit: 2 x 32 MB
 * at this size; beyond it the fit is not made (the report says so). */
#define CXD_LATFIT_MAX_RANKS 2048

/* What the fit reads (rank 0's). */
struct cxd_latfit_in {
	int n;
	const double *lat;  /* n x n: lat[i * n + j] measured from i to j */
	const double *busy; /* n x n CPU wait share, NAN unknown; NULL: none */
	const struct cxd_topo_map *topo; /* the placement */
	double noise;       /* latency's relative sigma between repeats */
	double typical;     /* the smallest class typical, us */
};

/* Why no fit was made (CXD_LF_RAN: it was). */
enum cxd_latfit_state {
	CXD_LF_NONE,     /* no --topology: no switch pairs to fit against */
	CXD_LF_RAN,
	CXD_LF_POOR,     /* latency's resolution is poor: nothing judged */
	CXD_LF_CROWDED,  /* pairs at once raised each other's latency */
	CXD_LF_TOO_MANY, /* over CXD_LATFIT_MAX_RANKS */
	CXD_LF_NOMEM,
};

/* The fit's result (rank 0), the report's section (out_types.h). */
struct cxd_latfit {
	enum cxd_latfit_state state;
	int n;
	double *excess;    /* per rank, us; NAN: not fitted */
	int *pairs;        /* per rank: the pairs its fit used */
	double bound;      /* us: a rank beyond it is named */
	double spread, noise_us, floor; /* the bound's three parts, us */
	int fitted;        /* ranks with an excess */
	int busy;          /* ranks not fitted: most pairs waited for CPU */
	struct cxd_suspect *named; /* rank suspects, lat_excess set */
	size_t nnamed;
};

/* The fit of in into f (f->state says whether it ran); 0, or -ENOMEM
 * (f->state CXD_LF_NOMEM). cxd_latfit_free frees either way. */
int cxd_latfit_run(const struct cxd_latfit_in *in, struct cxd_latfit *f);
/* A state without a fit (no topology, poor, too many ranks). */
void cxd_latfit_skip(struct cxd_latfit *f, enum cxd_latfit_state why);
void cxd_latfit_free(struct cxd_latfit *f);
/* Why not, in the report's words (NULL: it ran). */
const char *cxd_latfit_why_not(enum cxd_latfit_state s);

#endif

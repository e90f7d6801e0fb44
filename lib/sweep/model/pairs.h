/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's pairs (pairs.c): the circle schedule, the pairs to measure
 * at once, the pair lists; and the records every part shares: a rank, a
 * metric, an outlier, a link's figure. */
#ifndef CXD_SWEEP_PAIRS_H
#define CXD_SWEEP_PAIRS_H

#include <stdbool.h>
#include <stddef.h>

#include "cxd/config.h"

struct cxd_pair {
	int a, b; /* a < b */
};

/* Rounds needed for n ranks: n - 1 when n is even, n when odd (one rank
 * sits out each round), 0 when n < 2. */
int cxd_pairs_nrounds(int n);
/*
 * The pairs of round r (0 <= r < cxd_pairs_nrounds(n)) by the circle
 * method: one rank stays put, the others rotate one place per round.
 * Writes n / 2 pairs, no rank twice; returns the count or -1 on bad args.
 */
int cxd_pairs_round(int n, int r, struct cxd_pair *pairs);
/* The same round one pair at a time, so that a rank can find its own
 * steps without holding the schedule: pair t (as cxd_pairs_round writes
 * it at index t) of round r; where rank x is in round r (its index t, or
 * -1 when it sits out). Both O(1); -1 on bad args. */
int cxd_pairs_at(int n, int r, int t, struct cxd_pair *p);
int cxd_pairs_index_of(int n, int r, int x);

/*
 * Pairs to measure at once when ranks share hosts: all n / 2 while no
 * host has more ranks than CPUs; otherwise few enough that the measuring
 * ranks fit the smallest oversubscribed host's CPUs (at least 1). host[i]
 * is rank i's host index, cpus[h] host h's online CPUs.
 */
int cxd_pairs_at_once(int n, const int *host, const int *cpus);

enum cxd_metric { CXD_M_BW, CXD_M_LAT };

struct cxd_outlier {
	int src, dst;
	enum cxd_metric metric;
	double value;     /* first measurement (median of the repeats) */
	double reference; /* what it was judged against (first rule) */
	double limit;     /* the bound it broke (first rule) */
	double retest;    /* the second measurement; NAN before it */
	double busy;      /* share of the retest a rank waited for a CPU */
	unsigned why;     /* the rules it broke (enum cxd_reason bits) */
};

/* The pairs (a < b) that the outliers involve, each once, in order;
 * returns the count (room for n needed). */
size_t cxd_pairs_of_outliers(const struct cxd_outlier *o, size_t n,
			     struct cxd_pair *pairs);
/* Sort p[0..n) and keep each pair once; returns the count. */
size_t cxd_pairs_unique(struct cxd_pair *p, size_t n);

/* A link's figure, named by its ends. */
struct cxd_link_val {
	double v;
	int src, dst;
};

struct cxd_sweep_rank {
	char host[256];
	char addr[160];
	char nic[CXD_NAME_LEN]; /* the domain opened: cxi0, an interface */
};

#endif

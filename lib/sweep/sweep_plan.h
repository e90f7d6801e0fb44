/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's pure parts (sweep_plan.c, sweep_stat.c, sweep_mem.c): the
 * schedule, the outlier record, medians and selection, the memory model. */
#ifndef CXD_SWEEP_PLAN_H
#define CXD_SWEEP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cxd/config.h"

struct cxd_pair {
	int a, b; /* a < b */
};

/* Rounds needed for n ranks: n - 1 when n is even, n when odd (one rank
 * sits out each round), 0 when n < 2. */
int cxd_sweep_nrounds(int n);
/*
 * The pairs of round r (0 <= r < cxd_sweep_nrounds(n)) by the circle
 * method: one rank stays put, the others rotate one place per round.
 * Writes n / 2 pairs, no rank twice; returns the count or -1 on bad args.
 */
int cxd_sweep_round(int n, int r, struct cxd_pair *pairs);
/* The same round one pair at a time, so that a rank can find its own
 * steps without holding the schedule: pair t (as cxd_sweep_round writes
 * it at index t) of round r; where rank x is in round r (its index t, or
 * -1 when it sits out). Both O(1); -1 on bad args. */
int cxd_sweep_pair_at(int n, int r, int t, struct cxd_pair *p);
int cxd_sweep_place(int n, int r, int x);

/*
 * Pairs to measure at once when ranks share hosts: all n / 2 while no
 * host has more ranks than CPUs; otherwise few enough that the measuring
 * ranks fit the smallest oversubscribed host's CPUs (at least 1). host[i]
 * is rank i's host index, cpus[h] host h's online CPUs.
 */
int cxd_sweep_pairs_at_once(int n, const int *host, const int *cpus);

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

/* Median of the finite values of v (NAN entries, e.g. the diagonal, are
 * skipped); NAN when there is none. */
double cxd_sweep_median(const double *v, size_t n);
/* The pairs (a < b) that the outliers involve, each once, in order;
 * returns the count (room for n needed). */
size_t cxd_sweep_retest_pairs(const struct cxd_outlier *o, size_t n,
			      struct cxd_pair *pairs);
/* Sort p[0..n) and keep each pair once; returns the count. */
size_t cxd_sweep_unique_pairs(struct cxd_pair *p, size_t n);

/*
 * The k-th smallest (0-based) of values spread over many ranks, found
 * without gathering them: bisection over the bit patterns of non-negative
 * doubles (ordered as the numbers are), each step counting the values at
 * or below the pivot on every rank and summing the counts. Exact after at
 * most 64 steps.
 */
struct cxd_select {
	uint64_t lo, hi, k;
};

void cxd_select_init(struct cxd_select *s, uint64_t k);
bool cxd_select_done(const struct cxd_select *s);
double cxd_select_pivot(const struct cxd_select *s);
/* le: how many values (over all ranks) are <= the pivot. */
void cxd_select_step(struct cxd_select *s, uint64_t le);
double cxd_select_value(const struct cxd_select *s); /* once done */
/* Finite values of v[0..n) at or below x. */
uint64_t cxd_sweep_count_le(const double *v, size_t n, double x);
uint64_t cxd_sweep_count_finite(const double *v, size_t n);

/* A link's figure, named by its ends. */
struct cxd_link_val {
	double v;
	int src, dst;
};

/* The k worst of v[0..n) (lowest bandwidth, highest latency), finite
 * ones only, ties to the earlier entry: their indices in pick, their
 * count returned. */
int cxd_sweep_worst(const double *v, size_t n, bool low, size_t *pick,
		    int k);

struct cxd_sweep_rank {
	char host[256];
	char addr[160];
	char nic[CXD_NAME_LEN]; /* the domain opened: cxi0, an interface */
};

/*
 * Memory at n ranks (sweep_mem.c), in bytes. Every rank: per peer its
 * host, address and fabric address (CXD_SWEEP_PER_PEER_BYTES), plus its
 * own steps and the rounds' times (computed, never the whole schedule:
 * 32 bytes per circle round with whole rounds). Rank 0 besides:
 * a summary per rank (CXD_SWEEP_RANK0_PER_RANK: medians, noise, the worst
 * links, the outliers listed), and only for what lists every link:
 * --json, --csv and --metrics (up to 64 ranks) gather four n x n matrices (--json's
 * document, CXD_SWEEP_JSON_VALUE_BYTES per value, four matrices: json-c's
 * tree and text; measured at 256 ranks, 31 MB more peak than without;
 * and its list of every round's pairs, about 4 n^2 bytes);
 * a --baseline is read whole (its matrices and their match to this run,
 * and a JSON one's document).
 */
#define CXD_SWEEP_PER_PEER_BYTES 1024
#define CXD_SWEEP_RANK0_PER_RANK 9216
#define CXD_SWEEP_JSON_VALUE_BYTES 240
enum {
	CXD_MEM_LINKS = 1,     /* --json, --csv, or --metrics up to 64 ranks */
	CXD_MEM_JSON = 2,      /* --json */
	CXD_MEM_BASE_JSON = 4, /* --baseline of a --json file */
	CXD_MEM_BASE_BIN = 8,  /* --baseline of a --matrix file */
};
uint64_t cxd_sweep_rank_bytes(int n, int pairs_at_once);
uint64_t cxd_sweep_rank0_bytes(int n, int pairs_at_once, unsigned what);
/* 0 when rank 0's share fits avail bytes; else -1 with err giving the
 * figures and the way out. */
int cxd_sweep_mem_check(int n, int pairs_at_once, unsigned what,
			uint64_t avail, char *err, size_t errlen);

#endif

/* cxi_sweep's pure parts: the schedule, the outlier rule, the outputs. */
#ifndef CXD_SWEEP_H
#define CXD_SWEEP_H

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
/* The pairs (a < b) that the outliers involve, each once; returns the
 * count (room for n needed). */
size_t cxd_sweep_retest_pairs(const struct cxd_outlier *o, size_t n,
			      struct cxd_pair *pairs);

struct cxd_sweep_rank {
	char host[256];
	char addr[160];
	char nic[CXD_NAME_LEN]; /* the domain opened: cxi0, an interface */
};

/*
 * Memory at n ranks (sweep_mem.c), in bytes. Every rank: per peer its
 * host, address and fabric address (CXD_SWEEP_PER_PEER_BYTES), plus the
 * schedule (about 4 n^2 bytes with whole circle rounds). Rank 0 besides:
 * the gathered matrices (10 of 8 n^2 bytes with the retest's) and, with
 * --json, the document (CXD_SWEEP_JSON_VALUE_BYTES per value, 4 n^2
 * values: json-c's tree and text; measured at 256 ranks, 31 MB more
 * peak than without).
 */
#define CXD_SWEEP_PER_PEER_BYTES 1024
#define CXD_SWEEP_JSON_VALUE_BYTES 240
uint64_t cxd_sweep_rank_bytes(int n, int pairs_at_once);
uint64_t cxd_sweep_rank0_bytes(int n, int pairs_at_once, bool json);
/* 0 when rank 0's share (the matrices it judges, and --json's document
 * when json) fits avail bytes; else -1 with err giving the figures and
 * the way out. */
int cxd_sweep_mem_check(int n, int pairs_at_once, bool json, uint64_t avail,
			char *err, size_t errlen);

#endif

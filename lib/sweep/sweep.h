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
	double value;     /* first measurement */
	double reference; /* the median it was judged against */
	double retest;    /* the second measurement; NAN before it */
};

/* Median of the finite values of v (NAN entries, e.g. the diagonal, are
 * skipped); NAN when there is none. */
double cxd_sweep_median(const double *v, size_t n);
/* The rule: bandwidth below pct % of the reference, latency above it. */
bool cxd_sweep_is_outlier(enum cxd_metric m, double value, double reference,
			  uint64_t pct);
/*
 * Flag the links of an n x n matrix (row-major, [src * n + dst]) by the
 * rule against the matrix's median. Appends to out (room for cap),
 * returns how many were flagged in total (may exceed cap).
 */
size_t cxd_sweep_flag(const double *m, int n, enum cxd_metric metric,
		      uint64_t pct, struct cxd_outlier *out, size_t cap);
/* After the retest (o->retest filled): keep the outliers whose retest
 * also breaks the rule against the same reference; returns the count. */
size_t cxd_sweep_confirm(struct cxd_outlier *o, size_t n, uint64_t pct_bw,
			 uint64_t pct_lat);
/* The pairs (a < b) that the outliers involve, each once; returns the
 * count (room for n needed). */
size_t cxd_sweep_retest_pairs(const struct cxd_outlier *o, size_t n,
			      struct cxd_pair *pairs);

struct cxd_sweep_rank {
	char host[256];
	char addr[160];
	char nic[CXD_NAME_LEN];
};

/* Everything rank 0 writes out. */
struct cxd_sweep_res {
	int n;
	const struct cxd_sweep_rank *ranks;
	const double *bw, *lat; /* n x n, NAN on the diagonal */
	const struct cxd_outlier *out;
	size_t nout;
	/* The rounds as run: round r's count[r] pairs at pairs + r * stride,
	 * which took round_s[r] seconds. */
	int nrounds, stride, pairs_at_once;
	const int *round_count;
	const struct cxd_pair *round_pairs;
	const double *round_s;
	double total_s;
	char provider[CXD_NAME_LEN];
	char libfabric[32];
	const struct cxd_cfg *cfg;
	uint64_t bw_pct, lat_pct, lat_iters; /* resolved */
};

/*
 * Memory at n ranks (sweep_mem.c), in bytes. Every rank: per peer its
 * host, address and fabric address (CXD_SWEEP_PER_PEER_BYTES), plus the
 * schedule (about 4 n^2 bytes with whole circle rounds). Rank 0 besides:
 * the gathered matrices (4 of 8 n^2 bytes with the retest's) and, with
 * --json, the document (CXD_SWEEP_JSON_VALUE_BYTES per value: json-c's
 * tree and text; measured at 256 ranks, 31 MB more peak than without).
 */
#define CXD_SWEEP_PER_PEER_BYTES 1024
#define CXD_SWEEP_JSON_VALUE_BYTES 240
uint64_t cxd_sweep_rank_bytes(int n, int pairs_at_once);
uint64_t cxd_sweep_rank0_bytes(int n, int pairs_at_once, bool json);
/* 0 when the run's full-matrix output (--json/--csv) fits avail bytes;
 * else -1 with err giving the figures and the way out. */
int cxd_sweep_mem_check(int n, int pairs_at_once, bool json, bool csv,
			uint64_t avail, char *err, size_t errlen);

int cxd_sweep_write_json(const struct cxd_sweep_res *r, const char *path,
			 char *err, size_t errlen);
int cxd_sweep_write_csv(const struct cxd_sweep_res *r, const char *path,
			char *err, size_t errlen);
/* min/median/max per metric, worst links by host, one-line verdict. */
void cxd_sweep_write_text(const struct cxd_sweep_res *r, FILE *out);

#endif

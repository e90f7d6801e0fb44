/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion's pure parts: the victim/aggressor split, the
 * impact arithmetic, and what the outputs (congest_out.h) are given. */
#ifndef CXD_CONGEST_H
#define CXD_CONGEST_H

#include <stddef.h>
#include <stdint.h>

#include "sweep/model/pairs.h"

#define CXD_CG_MIN_RANKS 4   /* two victims and two aggressors */
#define CXD_CG_MEANINGFUL 10 /* GPCNeT's floor: fewer nodes, a hint only */
#define CXD_CG_VICTIMS_DEFAULT 0.2 /* GPCNeT's share; --victims's row */

enum cxd_cg_place { CXD_CG_RANDOM, CXD_CG_FIRST, CXD_CG_LAST, CXD_CG_SPREAD };

/* Phase 0 is the victims alone; then one phase per aggressor pattern. */
enum cxd_cg_phase {
	CXD_CG_ALONE, CXD_CG_INCAST, CXD_CG_ALLTOALL, CXD_CG_READBCAST,
	CXD_CG_NPHASES
};

enum cxd_cg_metric {
	CXD_CGM_MEAN, CXD_CGM_P99, CXD_CGM_P999, CXD_CGM_BW, CXD_CGM_COUNT
};

const char *cxd_cg_phase_name(int phase);   /* "incast", ... */
const char *cxd_cg_metric_name(int metric); /* "lat_mean_us", ... */
const char *cxd_cg_place_name(int place);

/* --victims ("" for the default): 0 and *frac in (0,1), or -EINVAL with
 * a sentence naming the value in err. */
int cxd_cg_parse_frac(const char *s, double *frac, char *err, size_t len);
/* --placement ("" for random): the enum, or -EINVAL naming the value. */
int cxd_cg_parse_place(const char *s, int *place, char *err, size_t len);

struct cxd_cg_split {
	int n, nv, na;
	int *victims;    /* nv ranks, paired in this order: (0,1), (2,3)... */
	int *aggressors; /* na ranks, ascending; aggressors[0] is the root of
			  * incast and read-broadcast */
};

/*
 * Split n ranks: round(frac * n) victims, made even and at least 2, and
 * at least 2 aggressors. random: a shuffle by seed (the same seed gives
 * the same split everywhere); first/last: the lowest/highest ranks;
 * spread: every (n / nv)-th rank. Arrays are allocated (cxd_cg_free).
 * 0, or -EINVAL (n < CXD_CG_MIN_RANKS) / -ENOMEM with a sentence in err.
 */
int cxd_cg_split(int n, double frac, int place, uint64_t seed,
		 struct cxd_cg_split *sp, char *err, size_t len);
void cxd_cg_free(struct cxd_cg_split *sp);
/* This rank's role: 1 victim, 0 aggressor; *partner its victim partner,
 * or *idx its place among the aggressors. */
int cxd_cg_role(const struct cxd_cg_split *sp, int rank, int *partner,
		int *idx);

/* Impact > 1 is worse: latency loaded / alone, bandwidth alone / loaded;
 * NAN when either is missing or not positive. */
double cxd_cg_impact(int metric, double alone, double loaded);

/* One directed victim link: its figures in every phase (NAN: missing). */
struct cxd_cg_link {
	int src, dst;
	double v[CXD_CG_NPHASES][CXD_CGM_COUNT];
};

/* The victim set's figure: the mean over the links that have it. */
double cxd_cg_set_value(const struct cxd_cg_link *l, size_t n, int phase,
			int metric);

struct cxd_cg_res {
	const struct cxd_cg_split *sp;
	const struct cxd_sweep_rank *ranks;
	int nhosts;
	const struct cxd_cg_link *links;
	size_t nlinks;
	int place;
	uint64_t seed;
	double frac;
	unsigned victim_tc, aggr_tc; /* enum cxd_tclass */
	char victim_tc_s[160], aggr_tc_s[160]; /* what the provider does */
	char provider[CXD_NAME_LEN];
	const struct cxd_cfg *cfg;
	double total_s;
};

#endif

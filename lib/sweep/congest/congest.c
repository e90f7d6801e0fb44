/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion: the split and the impact arithmetic (pure). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "congest.h"

static const char *const phase_names[CXD_CG_NPHASES] = {
	"isolated", "incast", "all_to_all", "read_broadcast",
};
static const char *const metric_names[CXD_CGM_COUNT] = {
	"lat_mean_us", "lat_p99_us", "lat_p99.9_us", "bw_mb_s",
};
static const char *const place_names[] = { "random", "first", "last",
					   "spread" };
#define NPLACES (sizeof(place_names) / sizeof(place_names[0]))

const char *cxd_cg_phase_name(int p)
{
	return p >= 0 && p < CXD_CG_NPHASES ? phase_names[p] : "?";
}

const char *cxd_cg_metric_name(int m)
{
	return m >= 0 && m < CXD_CGM_COUNT ? metric_names[m] : "?";
}

const char *cxd_cg_place_name(int p)
{
	return p >= 0 && (size_t) p < NPLACES ? place_names[p] : "?";
}

static int fail(char *err, size_t len, int ret, const char *what,
		const char *v, const char *why)
{
	snprintf(err, len, "%s: '%s' (%s)", what, v, why);
	return ret;
}

int cxd_cg_parse_frac(const char *s, double *frac, char *err, size_t len)
{
	char *end = NULL;
	double f;

	if (*s == '\0') {
		*frac = CXD_CG_VICTIMS_DEFAULT;
		return 0;
	}
	errno = 0;
	f = strtod(s, &end);
	/* strtod takes "nan", "inf" and hex: none is a share of ranks */
	if (errno || end == s || *end != '\0' || !(f > 0.0 && f < 1.0) ||
	    strpbrk(s, "xXnNiI") != NULL)
		return fail(err, len, -EINVAL, "Invalid victim fraction", s,
			    "--victims takes a number above 0 and below 1, "
			    "e.g. 0.2");
	*frac = f;
	return 0;
}

int cxd_cg_parse_place(const char *s, int *place, char *err, size_t len)
{
	for (size_t i = 0; i < NPLACES; i++)
		if (strcmp(s, place_names[i]) == 0 || (*s == '\0' && i == 0)) {
			*place = (int) i;
			return 0;
		}
	return fail(err, len, -EINVAL, "Invalid placement", s,
		    "--placement takes random, first, last or spread");
}

/* splitmix64: small, well known, the same sequence on every rank. */
static uint64_t next_rand(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Victims wanted: round(frac * n), even (they pair up), at least one
 * pair, and leave at least two aggressors. */
static int victim_count(int n, double frac)
{
	int nv = (int) lround(frac * n);

	nv -= nv % 2;
	if (nv < 2)
		nv = 2;
	while (n - nv < 2)
		nv -= 2;
	return nv;
}

static void order_ranks(int n, int nv, int place, uint64_t seed, int *ord)
{
	uint64_t st = seed;

	for (int i = 0; i < n; i++)
		ord[i] = place == CXD_CG_LAST ? n - 1 - i : i;
	if (place == CXD_CG_RANDOM) {
		for (int i = n - 1; i > 0; i--) {
			int j = (int) (next_rand(&st) % (uint64_t) (i + 1));
			int t = ord[i];

			ord[i] = ord[j];
			ord[j] = t;
		}
	} else if (place == CXD_CG_SPREAD) {
		/* victim k at floor(k * n / nv); the rest after them */
		bool *taken = calloc((size_t) n, sizeof(bool));
		int k = nv;

		if (taken == NULL)
			return; /* keeps the plain order: still a valid split */
		for (int v = 0; v < nv; v++)
			taken[ord[v] = (int) ((long) v * n / nv)] = true;
		for (int i = 0; i < n; i++)
			if (!taken[i])
				ord[k++] = i;
		free(taken);
	}
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *) a - *(const int *) b;
}

int cxd_cg_split(int n, double frac, int place, uint64_t seed,
		 struct cxd_cg_split *sp, char *err, size_t len)
{
	int *ord;

	memset(sp, 0, sizeof(*sp));
	if (n < CXD_CG_MIN_RANKS) {
		snprintf(err, len, "--congestion needs at least %d ranks (two "
			 "victims, two aggressors); this job has %d",
			 CXD_CG_MIN_RANKS, n);
		return -EINVAL;
	}
	sp->n = n;
	sp->nv = victim_count(n, frac);
	sp->na = n - sp->nv;
	ord = malloc((size_t) n * sizeof(int));
	sp->victims = malloc((size_t) sp->nv * sizeof(int));
	sp->aggressors = malloc((size_t) sp->na * sizeof(int));
	if (!ord || !sp->victims || !sp->aggressors) {
		free(ord);
		cxd_cg_free(sp);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	order_ranks(n, sp->nv, place, seed, ord);
	memcpy(sp->victims, ord, (size_t) sp->nv * sizeof(int));
	memcpy(sp->aggressors, ord + sp->nv, (size_t) sp->na * sizeof(int));
	qsort(sp->aggressors, (size_t) sp->na, sizeof(int), cmp_int);
	if (place != CXD_CG_RANDOM) /* pairs of neighbours, lowest first */
		qsort(sp->victims, (size_t) sp->nv, sizeof(int), cmp_int);
	free(ord);
	return 0;
}

void cxd_cg_free(struct cxd_cg_split *sp)
{
	free(sp->victims);
	free(sp->aggressors);
	sp->victims = sp->aggressors = NULL;
}

int cxd_cg_role(const struct cxd_cg_split *sp, int rank, int *partner,
		int *idx)
{
	for (int i = 0; i < sp->nv; i++)
		if (sp->victims[i] == rank) {
			*partner = sp->victims[i ^ 1];
			return 1;
		}
	for (int i = 0; i < sp->na; i++)
		if (sp->aggressors[i] == rank)
			*idx = i;
	return 0;
}

double cxd_cg_impact(int metric, double alone, double loaded)
{
	if (!(alone > 0.0) || !(loaded > 0.0) || !isfinite(alone) ||
	    !isfinite(loaded))
		return NAN;
	return metric == CXD_CGM_BW ? alone / loaded : loaded / alone;
}

double cxd_cg_set_value(const struct cxd_cg_link *l, size_t n, int phase,
			int metric)
{
	double sum = 0.0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(l[i].v[phase][metric])) {
			sum += l[i].v[phase][metric];
			k++;
		}
	return k ? sum / (double) k : NAN;
}

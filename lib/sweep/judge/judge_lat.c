/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency over the routes (judge_lat.h): each rank's excess fitted from
 * every pair by a median polish over switch pairs, and the ranks beyond
 * the run's own bound named. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_lat.h"

/* The fit's working state. */
struct fit {
	const struct cxd_latfit_in *in;
	int n, ns;
	int *ord, *first; /* ranks by switch: ord[first[a] .. first[a + 1]) */
	double *t;        /* ns x ns: the switch pair's typical latency */
	double *e;        /* per rank: its excess */
	double *enew;
	double *buf;      /* scratch for one median */
	size_t bufn;
};

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *) x, b = *(const double *) y;

	return (a > b) - (a < b);
}

/* The median of v[0 .. k), sorted in place; NAN when empty. */
static double median_in(double *v, size_t k)
{
	if (k == 0)
		return NAN;
	qsort(v, k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* Pair (i, j) measured from i, on a host that was not busy: a rank that
 * waited for a CPU measured its host, not its NIC. NAN: unusable. */
static double obs(const struct fit *s, int i, int j)
{
	const struct cxd_latfit_in *in = s->in;
	double v = in->lat[(size_t) i * s->n + j];

	if (i == j || !isfinite(v))
		return NAN;
	if (cxd_judge_busy(in->busy, s->n, i, j) > CXD_JUDGE_BUSY_MAX)
		return NAN;
	return v;
}

/* Ranks ordered by switch (counting sort), and the scratch a switch
 * pair's or a rank's median needs. */
static int fit_init(struct fit *s, const struct cxd_latfit_in *in)
{
	const int *sw = in->topo->switch_of;
	size_t hmax = 0;

	*s = (struct fit){ .in = in, .n = in->n, .ns = in->topo->nswitch };
	s->ord = malloc((size_t) s->n * sizeof(int));
	s->first = calloc((size_t) s->ns + 2, sizeof(int));
	s->t = malloc((size_t) s->ns * s->ns * sizeof(double));
	s->e = calloc((size_t) s->n, sizeof(double));
	s->enew = calloc((size_t) s->n, sizeof(double));
	if (!s->ord || !s->first || !s->t || !s->e || !s->enew)
		return -ENOMEM;
	for (int i = 0; i < s->n; i++)
		s->first[sw[i] + 2]++;
	for (int a = 0; a < s->ns; a++) {
		if ((size_t) s->first[a + 2] > hmax)
			hmax = (size_t) s->first[a + 2];
		s->first[a + 2] += s->first[a + 1];
	}
	for (int i = 0; i < s->n; i++)
		s->ord[s->first[sw[i] + 1]++] = i;
	s->bufn = 2 * hmax * hmax + 2 * (size_t) s->n;
	s->buf = malloc(s->bufn * sizeof(double));
	return s->buf ? 0 : -ENOMEM;
}

static void fit_free(struct fit *s)
{
	free(s->ord);
	free(s->first);
	free(s->t);
	free(s->e);
	free(s->enew);
	free(s->buf);
}

/* Switch pair (a, b)'s typical: the median of its pairs, both ways,
 * with their ends' excesses taken out. */
static double pair_typical(struct fit *s, int a, int b)
{
	size_t k = 0;

	for (int x = s->first[a]; x < s->first[a + 1]; x++)
		for (int y = s->first[b]; y < s->first[b + 1]; y++) {
			int i = s->ord[x], j = s->ord[y];
			double v[2] = { obs(s, i, j), obs(s, j, i) };

			for (int d = 0; d < 2; d++)
				if (isfinite(v[d]))
					s->buf[k++] = v[d] - s->e[i] - s->e[j];
		}
	return median_in(s->buf, k);
}

/* Rank i's excess: the median of its pairs' residuals; *m the pairs
 * (a pair counts once, either way measured). */
static double rank_excess(struct fit *s, int i, int *m)
{
	const int *sw = s->in->topo->switch_of;
	size_t k = 0;

	*m = 0;
	for (int j = 0; j < s->n; j++) {
		double v[2] = { obs(s, i, j), obs(s, j, i) };
		double t = s->t[(size_t) sw[i] * s->ns + sw[j]];
		bool any = false;

		for (int d = 0; d < 2 && isfinite(t); d++)
			if (isfinite(v[d])) {
				s->buf[k++] = v[d] - t - s->e[j];
				any = true;
			}
		*m += any;
	}
	return median_in(s->buf, k);
}

/* One round: the switch pairs' typicals, then every rank's excess. */
static void polish(struct fit *s, int *pairs)
{
	for (int a = 0; a < s->ns; a++)
		for (int b = a; b < s->ns; b++) {
			double t = pair_typical(s, a, b);

			s->t[(size_t) a * s->ns + b] = t;
			s->t[(size_t) b * s->ns + a] = t;
		}
	for (int i = 0; i < s->n; i++) {
		double x = rank_excess(s, i, &pairs[i]);

		s->enew[i] = isfinite(x) ? x : 0;
	}
	memcpy(s->e, s->enew, (size_t) s->n * sizeof(double));
}

/* Pairs of rank i a busy host kept out of the fit. */
static int busy_pairs(const struct fit *s, int i)
{
	int k = 0;

	for (int j = 0; j < s->n && s->in->busy; j++)
		k += j != i && cxd_judge_busy(s->in->busy, s->n, i, j) >
			       CXD_JUDGE_BUSY_MAX;
	return k;
}

/* The excesses against the typical rank's (their median), NAN where a
 * rank was not fitted: no pair, or most of its pairs busy. */
static void excesses(struct fit *s, struct cxd_latfit *f)
{
	double med;
	size_t k = 0;

	for (int i = 0; i < s->n; i++) {
		bool busy = 2 * busy_pairs(s, i) > s->n - 1;

		f->excess[i] = f->pairs[i] > 0 && !busy ? s->e[i] : NAN;
		f->busy += busy;
		if (isfinite(f->excess[i]))
			s->buf[k++] = f->excess[i];
	}
	f->fitted = (int) k;
	med = median_in(s->buf, k);
	for (int i = 0; i < s->n && isfinite(med); i++)
		f->excess[i] -= med;
}

/* The bound: K times the spread of the excesses (1.4826 MAD: sigma for
 * normal ones) or a link's repeat noise, never under the floor. */
static void bound(struct fit *s, struct cxd_latfit *f)
{
	const struct cxd_latfit_in *in = s->in;
	size_t k = 0;

	for (int i = 0; i < s->n; i++)
		if (isfinite(f->excess[i]))
			s->buf[k++] = fabs(f->excess[i]);
	f->spread = k ? 1.4826 * median_in(s->buf, k) : 0;
	f->noise_us = isfinite(in->noise) ? in->noise * in->typical : 0;
	f->floor = CXD_LATFIT_FLOOR * in->typical;
	f->bound = f->floor;
	if (CXD_LATFIT_K * f->spread > f->bound)
		f->bound = CXD_LATFIT_K * f->spread;
	if (CXD_LATFIT_K * f->noise_us > f->bound)
		f->bound = CXD_LATFIT_K * f->noise_us;
}

/* Rank i's own bound: the run's, or K times the repeat noise as a
 * share of its typical pair (the median of its switch pairs' typical),
 * where larger. The noise is relative: on a tapered fabric whose pairs
 * across groups take 3,500 us (a shaped link's queue) against 9 on one
 * switch, 26 % of it is 900 us, and one retransmit on a rank with pairs
 * only across groups was named at +434 us against 9. */
static double rank_bound(struct fit *s, const struct cxd_latfit *f, int i)
{
	const int *sw = s->in->topo->switch_of;
	double noise = s->in->noise, med;
	size_t k = 0;

	if (!isfinite(noise) || noise <= 0)
		return f->bound;
	for (int j = 0; j < s->n; j++) {
		double t = s->t[(size_t) sw[i] * s->ns + sw[j]];

		if (j != i && isfinite(t))
			s->buf[k++] = t;
	}
	med = median_in(s->buf, k);
	return isfinite(med) && CXD_LATFIT_K * noise * med > f->bound ?
	       CXD_LATFIT_K * noise * med : f->bound;
}

/* Rank i's pairs beyond its switch pairs' typical by bound b (either
 * way measured): the links it is named for. */
static int beyond(const struct fit *s, int i, double b)
{
	const int *sw = s->in->topo->switch_of;
	int k = 0;

	for (int j = 0; j < s->n; j++) {
		double t = s->t[(size_t) sw[i] * s->ns + sw[j]];
		double v = fmax(obs(s, i, j), obs(s, j, i));

		k += isfinite(v) && isfinite(t) && v - t - s->e[j] > b;
	}
	return k;
}

/* The ranks beyond their bound; none when half of those fitted would
 * be (then the fabric's typical itself moved: not one NIC's doing). */
static int name(struct fit *s, struct cxd_latfit *f)
{
	double *b = calloc((size_t) s->n + 1, sizeof(double));
	size_t k = 0;

	if (b == NULL)
		return -ENOMEM;
	for (int i = 0; i < s->n; i++) {
		b[i] = rank_bound(s, f, i);
		k += f->excess[i] > b[i];
	}
	if (k > 0 && 2 * (int) k < f->fitted)
		f->named = calloc(k, sizeof(*f->named));
	for (int i = 0; f->named && i < s->n; i++) {
		if (!(f->excess[i] > b[i]))
			continue;
		f->named[f->nnamed++] = (struct cxd_suspect){
			.kind = CXD_S_RANK, .metric = CXD_M_LAT, .id = i,
			.id2 = -1, .bad = beyond(s, i, b[i]),
			.links = f->pairs[i], .lat_excess = f->excess[i],
			.lat_bound = b[i] };
	}
	free(b);
	return k > 0 && 2 * (int) k < f->fitted && f->named == NULL ?
	       -ENOMEM : 0;
}

void cxd_latfit_skip(struct cxd_latfit *f, enum cxd_latfit_state why)
{
	*f = (struct cxd_latfit){ .state = why };
}

int cxd_latfit_run(const struct cxd_latfit_in *in, struct cxd_latfit *f)
{
	struct fit s;
	int ret;

	cxd_latfit_skip(f, CXD_LF_NOMEM);
	f->n = in->n;
	f->excess = calloc((size_t) in->n, sizeof(double));
	f->pairs = calloc((size_t) in->n, sizeof(int));
	ret = fit_init(&s, in);
	if (ret == 0 && f->excess && f->pairs) {
		for (int r = 0; r < CXD_LATFIT_ROUNDS; r++)
			polish(&s, f->pairs);
		excesses(&s, f);
		bound(&s, f);
		ret = name(&s, f);
		if (ret == 0)
			f->state = CXD_LF_RAN;
	} else {
		ret = -ENOMEM;
	}
	fit_free(&s);
	return ret;
}

void cxd_latfit_free(struct cxd_latfit *f)
{
	free(f->excess);
	free(f->pairs);
	free(f->named);
	cxd_latfit_skip(f, CXD_LF_NONE);
}

const char *cxd_latfit_why_not(enum cxd_latfit_state s)
{
	switch (s) {
	case CXD_LF_RAN:
		return NULL;
	case CXD_LF_POOR:
		return "the latency resolution is poor";
	case CXD_LF_CROWDED:
		return "the pairs measured at once raised each other's "
		       "latency (against the same pairs alone)";
	case CXD_LF_TOO_MANY:
		return "more ranks than the fit holds (2048)";
	case CXD_LF_NOMEM:
		return "out of memory";
	default:
		return "no --topology: no switch pairs to fit against";
	}
}

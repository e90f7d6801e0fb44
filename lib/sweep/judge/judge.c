/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's verdict: noise, tolerance, the rules, the outliers. */
#include <math.h>
#include <stdlib.h>

#include "judge.h"
#include "stat.h"

size_t cxd_judge_rel_diffs(const double *x, size_t k, double *out)
{
	double med = cxd_stat_median(x, k);
	size_t n = 0;

	if (!isfinite(med) || med <= 0)
		return 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++)
			if (isfinite(x[i]) && isfinite(x[j]))
				out[n++] = fabs(x[i] - x[j]) / med;
	return n;
}

double cxd_judge_sigma(double median_rel_diff)
{
	/* median |X - Y| = 0.6745 * sqrt(2) * sigma for normal X, Y */
	return median_rel_diff / 0.9539;
}

double cxd_judge_typical(const double *m, int n)
{
	double *rows = malloc((size_t) (n > 0 ? n : 1) * sizeof(*rows));
	double typ;

	if (rows == NULL)
		return NAN;
	for (int i = 0; i < n; i++)
		rows[i] = cxd_stat_median(m + (size_t) i * n, (size_t) n);
	typ = cxd_stat_median(rows, (size_t) n);
	free(rows);
	return typ;
}

bool cxd_judge_poor(enum cxd_metric m, double tol)
{
	return !isfinite(tol) || tol > (m == CXD_M_BW ? CXD_JUDGE_BW_POOR :
					CXD_JUDGE_LAT_POOR);
}

struct cxd_tol cxd_judge_tol(enum cxd_metric m, double noise, uint64_t pct)
{
	bool bw = m == CXD_M_BW;
	double floor = bw ? CXD_JUDGE_BW_FLOOR : CXD_JUDGE_LAT_FLOOR;
	struct cxd_tol t = { .noise = noise, .crowd = NAN };

	for (int c = 0; c < CXD_LC_N; c++)
		t.crowd_of[c] = NAN;

	if (pct) {
		t.explicit_ = true;
		t.tol = bw ? 1.0 - (double) pct / 100.0 :
			     (double) pct / 100.0 - 1.0;
		return t;
	}
	t.tol = floor;
	if (isfinite(noise) && CXD_JUDGE_NOISE_K * noise > floor)
		t.tol = CXD_JUDGE_NOISE_K * noise;
	/* Unknown noise (nothing repeated) is no licence to judge finely. */
	t.poor = !isfinite(noise) || cxd_judge_poor(m, t.tol);
	return t;
}

/* The median of ratio[i] - 1 over the ranks of class c (-1: all);
 * *k: how many. */
static double crowd_median(const double *ratio, const int *cls, size_t n,
			   int c, double *x, int *k)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(ratio[i]) && ratio[i] > 0 &&
		    (c < 0 || (cls && cls[i] == c)))
			x[m++] = ratio[i];
	*k = (int) m;
	return m ? cxd_stat_median(x, m) - 1.0 : NAN;
}

void cxd_judge_crowd(struct cxd_tol *t, enum cxd_metric m,
		     const double *ratio, const int *cls, size_t n)
{
	double *x = malloc((n + 1) * sizeof(double));
	/* Within a tolerance the noise widened, crowding changes no
	 * verdict; but where the noise made it too wide to judge by,
	 * crowding that raised the noise is named as the cause, judged by
	 * the tolerance before the noise widened it. */
	double bound = !t->poor || t->explicit_ ? t->tol :
		       m == CXD_M_BW ? CXD_JUDGE_BW_FLOOR : CXD_JUDGE_LAT_FLOOR;

	t->crowd = NAN;
	t->crowd_pairs = 0;
	for (int c = 0; c < CXD_LC_N; c++) {
		t->crowd_of[c] = NAN;
		t->crowd_pairs_of[c] = 0;
	}
	if (x == NULL)
		return;
	t->crowd = crowd_median(ratio, cls, n, -1, x, &t->crowd_pairs);
	for (int c = 0; cls && c < CXD_LC_N; c++) {
		t->crowd_of[c] = crowd_median(ratio, cls, n, c, x,
					      &t->crowd_pairs_of[c]);
		t->crowded |= t->crowd_of[c] > bound;
	}
	if (cls == NULL)
		t->crowded = t->crowd > bound;
	t->poor |= t->crowded;
	free(x);
}

/* v against ref with relative tolerance tol: below (bw) or above (lat). */
static bool breaks(enum cxd_metric m, double v, double ref, double tol)
{
	if (!isfinite(ref))
		return false;
	return m == CXD_M_BW ? v < ref * (1.0 - tol) : v > ref * (1.0 + tol);
}

static double base_of(const struct cxd_rules *r, enum cxd_metric m, int src,
		      int dst)
{
	if (r->base[m] == NULL)
		return NAN;
	return r->base[m][(r->base_row ? 0 : (size_t) src * r->n) + dst];
}

double cxd_judge_baseline_tol(const struct cxd_rules *r, enum cxd_metric m)
{
	return r->base_tol[m] > r->tol[m].tol ? r->base_tol[m] :
						r->tol[m].tol;
}

double cxd_judge_typical_for(const struct cxd_rules *r, enum cxd_metric m,
			     int src, int dst)
{
	const double *of = m == CXD_M_LAT ? r->lat_typical_of :
			   r->bw_by_class ? r->bw_typical_of : NULL;
	enum cxd_lclass c;
	double ref = r->typical[m], one;

	if (r->sw == NULL)
		return ref;
	c = cxd_lclass_of(r->sw, r->grp, src, dst);
	if (of && isfinite(of[c]))
		ref = of[c];
	one = r->bw_typical_of[CXD_LC_SWITCH];
	if (m == CXD_M_BW && r->bw_full[c] && isfinite(one) && one > ref)
		ref = one; /* a lone pair there runs as on one switch */
	return ref;
}

unsigned cxd_judge_link(const struct cxd_rules *r, enum cxd_metric m,
			int src, int dst, double v)
{
	unsigned bits = 0;
	double e = r->expect[m];

	if (!isfinite(v))
		return CXD_R_PEERS;
	if (!r->tol[m].poor &&
	    breaks(m, v, cxd_judge_typical_for(r, m, src, dst),
		   r->tol[m].tol))
		bits |= CXD_R_PEERS;
	if (!r->base_poor[m] &&
	    breaks(m, v, base_of(r, m, src, dst), cxd_judge_baseline_tol(r, m)))
		bits |= CXD_R_BASELINE;
	if (e > 0 && (m == CXD_M_BW ? v < e : v > e))
		bits |= CXD_R_EXPECT;
	return bits;
}

void cxd_judge_limit(const struct cxd_rules *r, enum cxd_metric m, int src,
		     int dst, unsigned bits, double *ref, double *limit)
{
	double sign = m == CXD_M_BW ? -1.0 : 1.0;

	if (bits & CXD_R_EXPECT) {
		*ref = *limit = r->expect[m];
	} else if (bits & CXD_R_BASELINE) {
		*ref = base_of(r, m, src, dst);
		*limit = *ref * (1.0 + sign * cxd_judge_baseline_tol(r, m));
	} else {
		*ref = cxd_judge_typical_for(r, m, src, dst);
		*limit = *ref * (1.0 + sign * r->tol[m].tol);
	}
}

const char *cxd_judge_reason_name(unsigned bits)
{
	return bits & CXD_R_EXPECT ? "expected" :
	       bits & CXD_R_BASELINE ? "baseline" : "peers";
}

size_t cxd_judge_flag_row(const struct cxd_rules *r, const double *row,
			  enum cxd_metric metric, int src,
			  struct cxd_outlier *out, size_t cap)
{
	size_t k = 0;

	for (int j = 0; j < r->n; j++) {
		struct cxd_outlier o = { src, j, metric, row[j], NAN, NAN,
					 NAN, NAN, 0 };

		if (j == src)
			continue;
		o.why = cxd_judge_link(r, metric, src, j, row[j]);
		if (o.why == 0)
			continue;
		cxd_judge_limit(r, metric, src, j, o.why, &o.reference,
				&o.limit);
		if (k < cap)
			out[k] = o;
		k++;
	}
	return k;
}

size_t cxd_judge_flag(const struct cxd_rules *r, const double *m,
		      enum cxd_metric metric, struct cxd_outlier *out,
		      size_t cap)
{
	size_t k = 0;

	for (int i = 0; i < r->n; i++)
		k += cxd_judge_flag_row(r, m + (size_t) i * r->n, metric, i,
					k < cap ? out + k : NULL,
					k < cap ? cap - k : 0);
	return k;
}

bool cxd_judge_too_busy(const struct cxd_sweep_judged *j)
{
	return j->sides > 0 && 2 * j->busy_sides > j->sides;
}

double cxd_judge_busier(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

double cxd_judge_busy(const double *busy, int n, int src, int dst)
{
	if (busy == NULL)
		return NAN;
	return cxd_judge_busier(busy[(size_t) src * n + dst],
				busy[(size_t) dst * n + src]);
}

bool cxd_judge_held(const struct cxd_outlier *o)
{
	if (o->busy > CXD_JUDGE_BUSY_MAX)
		return true;
	/* A rank that waited a share w of its retest for a CPU moved data
	 * at most 1 - w of it: a figure still within the bound so scaled
	 * is the wait's (rank 0 -> 1 at 76 % with 15 % waited, four ranks
	 * on two cores), one below it the link's. */
	return o->metric == CXD_M_BW && o->busy > 0 && o->limit > 0 &&
	       isfinite(o->retest) && o->retest >= o->limit * (1.0 - o->busy);
}

size_t cxd_judge_confirm(const struct cxd_rules *r, struct cxd_outlier *o,
			 size_t n, const double *busy, size_t *nbusy)
{
	size_t k = 0, nb = 0;
	struct cxd_outlier *held = malloc((n ? n : 1) * sizeof(*held));

	for (size_t i = 0; i < n; i++) {
		unsigned bits = cxd_judge_link(r, o[i].metric, o[i].src,
					       o[i].dst, o[i].retest);

		if (busy)
			o[i].busy = cxd_judge_busy(busy, r->n, o[i].src,
						   o[i].dst);
		/* Keep the rules both measurements broke. */
		if ((bits & o[i].why) == 0)
			continue;
		o[i].why &= bits;
		cxd_judge_limit(r, o[i].metric, o[i].src, o[i].dst, o[i].why,
				&o[i].reference, &o[i].limit);
		if (cxd_judge_held(&o[i]) && held)
			held[nb++] = o[i];
		else
			o[k++] = o[i];
	}
	for (size_t i = 0; i < nb; i++)
		o[k + i] = held[i];
	free(held);
	*nbusy = nb;
	return k;
}

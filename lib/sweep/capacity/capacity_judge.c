/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's capacity pass: the judging (capacity.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "capacity_model.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/stat.h"

/* A figure that counts: finite and above 0. */
static bool got(double v)
{
	return isfinite(v) && v > 0;
}

/* The unit's aggregate: each repeat the sum over its pairs of the
 * slower direction (a pair that gave nothing adds nothing), the larger
 * repeat kept. */
static double carried(const double *fig, int u, int np)
{
	double best = 0.0;

	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		double sum = 0.0;

		for (int i = 0; i < np; i++) {
			double x = fig[CXD_CAP_FIG(u, i, rep, 0)];
			double y = fig[CXD_CAP_FIG(u, i, rep, 1)];

			sum += got(x) && got(y) ? fmin(x, y) :
			       got(x) ? x : got(y) ? y : 0.0;
		}
		if (sum > best)
			best = sum;
	}
	return best;
}

/* The unit's better direction: the most its pairs carried one way at
 * once (of either repeat). */
static double one_way(const double *fig, int u, int np)
{
	double best = 0.0;

	for (int rep = 0; rep < CXD_CAP_REPS; rep++)
		for (int dir = 0; dir < 2; dir++) {
			double sum = 0.0;

			for (int i = 0; i < np; i++) {
				double x = fig[CXD_CAP_FIG(u, i, rep, dir)];

				sum += got(x) ? x : 0.0;
			}
			best = fmax(best, sum);
		}
	return best;
}

/* Does unit x count towards scope s's typical (full: fully loaded)? */
static bool counts(const struct cxd_cap_plan *pl, const struct cxd_cap_unit *x,
		   enum cxd_cap_scope s, bool full)
{
	return x->scope == s && x->np && (!full || x->np == pl->cls[s].load);
}

/* The typical unit of scope s: each part's median unit, and the median
 * of those (a bad leaf is in half the units of four; a bad group in a
 * third of four groups' bundles), over the fully loaded units (any
 * when none is), of what they carried. tmp: room for 2 x nunits. */
static double typical(const struct cxd_cap_plan *pl, enum cxd_cap_scope s,
		      double *tmp)
{
	double *part = tmp + pl->nunits;
	size_t np = 0;
	bool full = false;

	for (int u = 0; u < pl->nunits && !full; u++)
		full = counts(pl, &pl->unit[u], s, true);
	for (int d = 0; d < pl->nparts[s]; d++) {
		size_t k = 0;

		for (int u = 0; u < pl->nunits; u++) {
			const struct cxd_cap_unit *x = &pl->unit[u];

			if (counts(pl, x, s, full) && (x->a == d || x->b == d))
				tmp[k++] = x->carried;
		}
		if (k)
			part[np++] = cxd_stat_median(tmp, k);
	}
	return cxd_stat_median(part, np);
}


/* With the model: each unit's expected from its pairs' ways and the
 * rates fitted to all units (capacity_model.h). false: no model (no
 * link lines, or ways it cannot follow), so a short unit needs links. */
static bool model_expect(struct cxd_cap_plan *pl,
			 const struct cxd_cap_model *model, double pair)
{
	double rate[CXD_CAP_L_KINDS], fixed[CXD_CAP_L_KINDS];

	return model && got(pair) &&
	       cxd_cap_stated_rates(model->tm, pl, pair, fixed) == 0 &&
	       cxd_cap_model_expect(pl, model, pair, fixed, rate) == 0;
}

/* The longest share of a run of unit u spent waiting for a CPU (0 when
 * unknown). */
static double busiest(int u, int np, const double *busy)
{
	double most = 0.0;

	for (int i = 0; busy && i < np; i++)
		for (int k = 0; k < 2 * CXD_CAP_REPS; k++) {
			double b = busy[CXD_CAP_FIG(u, i, 0, 0) + (size_t) k];

			most = b > most ? b : most;
		}
	return most;
}

/* The typical unit's busiest run: a host that makes every unit wait
 * alike (ranks beyond its CPUs) weighs on the typical pair the
 * expected comes from as well; only a unit that waited more than that
 * cannot be vouched for. */
static double typical_busy(const struct cxd_cap_plan *pl, const double *busy,
			   double *tmp)
{
	size_t k = 0;

	for (int u = 0; u < pl->nunits; u++)
		if (pl->unit[u].np)
			tmp[k++] = busiest(u, pl->unit[u].np, busy);
	return k ? cxd_stat_median(tmp, k) : 0.0;
}

/* Each unit's expected, ratio and state. */
static void units(struct cxd_cap_plan *pl, double pair, double tol,
		  bool poor, const struct cxd_cap_model *model,
		  const double *busy, double *tmp)
{
	double calm = typical_busy(pl, busy, tmp) + CXD_JUDGE_BUSY_MAX;
	bool have;

	for (int s = 0; s < CXD_CAP_SCOPES; s++) {
		struct cxd_cap_class *cl = &pl->cls[s];
		int w = cl->width;

		cl->from_width = cl->stated && got(pair);
		cl->expected = cl->from_width ?
			       cl->width * cxd_cap_class_pair(cl, pair) :
			       typical(pl, s, tmp);
		/* the typical unit's own width where it is wider than the
		 * sample's (a sample with links down) */
		if (got(pair) && got(cl->expected) &&
		    cl->expected / pair > w + 0.5)
			w = (int) (cl->expected / pair + 0.5);
		cl->bound = 1.0 - fmax(tol, w > 0 ? 0.5 / w : 0.0);
	}
	have = model_expect(pl, model, pair);
	for (int s = 0; s < CXD_CAP_SCOPES; s++) {
		pl->cls[s].from_model = have && !pl->cls[s].from_width;
		pl->cls[s].width_routes = have && pl->cls[s].from_width;
	}
	for (int u = 0; u < pl->nunits; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];
		const struct cxd_cap_class *cl = &pl->cls[x->scope];
		/* a stated width is the site's word for what a unit carries,
		 * as far as its pairs' ways reach it (the model, at the
		 * stated rates, lower: pairs meeting on a narrow link on
		 * their way, a hash putting two on one cable); else the
		 * model's bound, typed against the scope's units */
		double want = cl->expected;

		if (have && got(x->expected) &&
		    (!cl->from_width || x->expected < want))
			want = x->expected;

		if (x->np == 0)
			continue;
		/* fewer pairs than the load: at most that many pairs' worth */
		if (got(pair) && x->np * cxd_cap_class_pair(cl, pair) < want)
			want = x->np * cxd_cap_class_pair(cl, pair);
		x->expected = want;
		x->busy = busiest(u, x->np, busy);
		x->ratio = got(want) ? x->carried / want : NAN;
		x->state = !(x->ratio < cl->bound) ? CXD_CAP_OK :
			   poor || x->busy > calm ? CXD_CAP_UNSURE :
			   x->scope == CXD_CAP_LEAVES &&
			   !(x->one_way < cl->bound * want) ? CXD_CAP_ONE_WAY :
			   have ? CXD_CAP_SHORT : CXD_CAP_NEEDS_LINKS;
	}
}

/* Part d of scope s: its units' medians into f; is it short (at least
 * 2 units, more than half of them short)? */
static bool part(const struct cxd_cap_plan *pl, enum cxd_cap_scope s, int d,
		 double *tmp, struct cxd_cap_found *f)
{
	size_t k = 0;
	int nshort = 0, np = 0;
	double *c = tmp, *e = tmp + pl->nunits, *q = tmp + 2 * pl->nunits;

	for (int u = 0; u < pl->nunits; u++) {
		const struct cxd_cap_unit *x = &pl->unit[u];

		if (x->scope != s || x->np == 0 || (x->a != d && x->b != d))
			continue;
		c[k] = x->carried;
		e[k] = x->expected;
		q[k++] = x->ratio;
		nshort += x->state == CXD_CAP_SHORT;
		np = x->np > np ? x->np : np;
	}
	*f = (struct cxd_cap_found){ .scope = s, .part = true, .a = d,
				     .b = -1, .pairs = np, .units = (int) k,
				     .nshort = nshort,
				     .carried = cxd_stat_median(c, k),
				     .expected = cxd_stat_median(e, k),
				     .ratio = cxd_stat_median(q, k) };
	return k >= 2 && 2 * nshort > (int) k;
}

static int put(struct cxd_cap_res *res, const struct cxd_cap_found *f)
{
	void *p = realloc(res->found, ((size_t) res->nfound + 1) *
				      sizeof(*res->found));

	if (p == NULL)
		return -ENOMEM;
	res->found = p;
	res->found[res->nfound++] = *f;
	return 0;
}

/* The parts named, then the short units no named part covers. */
static int name(struct cxd_cap_plan *pl, struct cxd_cap_res *res,
		double *tmp)
{
	int ret = 0;

	for (int u = 0; u < pl->nunits && ret == 0; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];
		struct cxd_cap_found f;

		for (int end = 0; end < 2 && x->state == CXD_CAP_SHORT; end++) {
			int d = end ? x->b : x->a;
			bool seen = false;

			for (int j = 0; j < res->nfound && !seen; j++)
				seen = res->found[j].part &&
				       res->found[j].scope == x->scope &&
				       res->found[j].a == d;
			if (!seen && part(pl, x->scope, d, tmp, &f))
				ret = put(res, &f);
		}
	}
	for (int u = 0; u < pl->nunits && ret == 0; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];

		for (int j = 0; j < res->nfound; j++)
			if (res->found[j].part &&
			    res->found[j].scope == x->scope &&
			    (res->found[j].a == x->a || res->found[j].a == x->b))
				x->named = x->state == CXD_CAP_SHORT;
		if (x->state == CXD_CAP_SHORT && !x->named &&
		    x->scope == CXD_CAP_LEAVES)
			x->state = CXD_CAP_ALONE;
		if (x->state == CXD_CAP_SHORT && !x->named)
			ret = put(res, &(struct cxd_cap_found){
				.scope = x->scope, .a = x->a, .b = x->b,
				.pairs = x->np, .units = 1, .nshort = 1,
				.carried = x->carried, .expected = x->expected,
				.ratio = x->ratio });
	}
	return ret;
}

int cxd_cap_judge(struct cxd_cap_plan *pl, const double *fig,
		  const double *busy, double pair_mb_s, double tol, bool poor,
		  const struct cxd_cap_model *model, struct cxd_cap_res *res)
{
	double *tmp = malloc(((size_t) pl->nunits * 3 + 1) * sizeof(double));
	int ret;

	res->plan = pl;
	res->found = NULL;
	res->nfound = res->nunsure = res->nneeds = res->nunproven = 0;
	if (tmp == NULL)
		return -ENOMEM;
	for (int u = 0; u < pl->nunits; u++)
		if (pl->unit[u].np) {
			pl->unit[u].carried = carried(fig, u, pl->unit[u].np);
			pl->unit[u].one_way = one_way(fig, u, pl->unit[u].np);
		}
	units(pl, pair_mb_s, tol, poor, model, busy, tmp);
	for (int u = 0; u < pl->nunits; u++) {
		res->nunsure += pl->unit[u].state == CXD_CAP_UNSURE;
		res->nneeds += pl->unit[u].state == CXD_CAP_NEEDS_LINKS;
	}
	ret = name(pl, res, tmp);
	free(tmp);
	return ret;
}

static bool doubtful(enum cxd_cap_state st)
{
	return st == CXD_CAP_SHORT || st == CXD_CAP_NEEDS_LINKS;
}

bool cxd_cap_to_confirm(const struct cxd_cap_plan *pl)
{
	for (int u = 0; u < pl->nunits; u++)
		if (doubtful(pl->unit[u].state))
			return true;
	return false;
}

static const struct cxd_cap_unit *same_unit(const struct cxd_cap_plan *pl,
					    const struct cxd_cap_unit *x)
{
	for (int u = 0; u < pl->nunits; u++)
		if (pl->unit[u].scope == x->scope && pl->unit[u].a == x->a &&
		    pl->unit[u].b == x->b && pl->unit[u].np)
			return &pl->unit[u];
	return NULL;
}

/* What the reload y makes of unit x, short in the first load (bound: its
 * scope's). The reload clears it only by carrying, itself, what x should
 * have: a reload whose pairs the model expects to carry less (their
 * routes meet on fewer of the unit's cables) fits a unit with cables
 * down as well as a healthy one, and speaks neither for nor against the
 * capacity x found missing (unproven: INCONCLUSIVE, never PASS; a
 * first load's marginal collision is not named either). */
static enum cxd_cap_state confirmed(const struct cxd_cap_unit *x,
				    const struct cxd_cap_unit *y,
				    double bound)
{
	if (y && (doubtful(y->state) || y->state == CXD_CAP_ALONE))
		return x->state;
	if (y && y->state == CXD_CAP_OK)
		return y->carried < bound * x->expected ? CXD_CAP_UNPROVEN :
							   CXD_CAP_CLEARED;
	return CXD_CAP_UNSURE;
}

int cxd_cap_confirm(struct cxd_cap_plan *pl, const struct cxd_cap_plan *again,
		    struct cxd_cap_res *res)
{
	double *tmp = malloc(((size_t) pl->nunits * 3 + 1) * sizeof(double));
	int ret;

	if (tmp == NULL)
		return -ENOMEM;
	cxd_cap_res_free(res);
	res->nunsure = res->nneeds = res->nunproven = 0;
	for (int u = 0; u < pl->nunits; u++) {
		struct cxd_cap_unit *x = &pl->unit[u];

		x->named = false;
		if (doubtful(x->state))
			x->state = confirmed(x, same_unit(again, x),
					     pl->cls[x->scope].bound);
		res->nunsure += x->state == CXD_CAP_UNSURE;
		res->nneeds += x->state == CXD_CAP_NEEDS_LINKS;
		res->nunproven += x->state == CXD_CAP_UNPROVEN;
	}
	ret = name(pl, res, tmp);
	free(tmp);
	return ret;
}

void cxd_cap_res_free(struct cxd_cap_res *res)
{
	free(res->found);
	res->found = NULL;
	res->nfound = 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --congestion's outputs on rank 0: text, JSON, the verdict. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json_num.h"
#include "base/stamp.h"
#include "base/tclass.h"
#include "congest.h"
#include "congest_out.h"

static const char *const heads[CXD_CGM_COUNT] = {
	"lat mean", "lat p99", "lat p99.9", "bandwidth",
};

/* The worst impact of the victim set over patterns and metrics. */
static double worst(const struct cxd_cg_res *r, int *ph_p, int *m_p)
{
	double w = NAN;

	for (int p = CXD_CG_ALONE + 1; p < CXD_CG_NPHASES; p++)
		for (int m = 0; m < CXD_CGM_COUNT; m++) {
			double f = cxd_cg_impact(m, cxd_cg_set_value(r->links,
					r->nlinks, CXD_CG_ALONE, m),
					cxd_cg_set_value(r->links, r->nlinks,
							 p, m));

			if (isfinite(f) && !(f <= w)) {
				w = f;
				*ph_p = p;
				*m_p = m;
			}
		}
	return w;
}

void cxd_cg_verdict(const struct cxd_cg_res *r, char *buf, size_t len)
{
	int p = 0, m = 0, n = 0;
	double w = worst(r, &p, &m);

	if (isfinite(w))
		n = snprintf(buf, len, "Verdict: worst victim impact %.2fx "
			     "(%s, %s)", w, cxd_cg_phase_name(p), heads[m]);
	else
		n = snprintf(buf, len, "Verdict: no impact could be computed "
			     "(victim figures missing)");
	if (n < 0 || (size_t) n >= len)
		return;
	if (r->sp->n < CXD_CG_MEANINGFUL || r->nhosts < r->sp->n)
		snprintf(buf + n, len - (size_t) n, "; a hint only: %d ranks "
			 "on %d host%s, where GPCNeT asks for at least %d "
			 "nodes, one rank each, and 95 %% of the system",
			 r->sp->n, r->nhosts, r->nhosts == 1 ? "" : "s",
			 CXD_CG_MEANINGFUL);
}

static void fig(FILE *out, int m, double v)
{
	if (!isfinite(v))
		fprintf(out, " %12s", "-");
	else if (m == CXD_CGM_BW)
		fprintf(out, " %7.1f MB/s", v);
	else
		fprintf(out, " %9.2f us", v);
}

static void impact(FILE *out, int m, double alone, double loaded)
{
	double f = cxd_cg_impact(m, alone, loaded);

	if (isfinite(f))
		fprintf(out, " %11.2fx", f);
	else
		fprintf(out, " %12s", "-");
}

/* Rows: isolated figures, then each pattern's impact; columns: metrics. */
static void table(FILE *out, const struct cxd_cg_link *l, size_t n)
{
	fprintf(out, "  %-16s", "");
	for (int m = 0; m < CXD_CGM_COUNT; m++)
		fprintf(out, " %12s", heads[m]);
	fputc('\n', out);
	for (int p = 0; p < CXD_CG_NPHASES; p++) {
		fprintf(out, "  %-16s", cxd_cg_phase_name(p));
		for (int m = 0; m < CXD_CGM_COUNT; m++) {
			double a = cxd_cg_set_value(l, n, CXD_CG_ALONE, m);

			if (p == CXD_CG_ALONE)
				fig(out, m, a);
			else
				impact(out, m, a,
				       cxd_cg_set_value(l, n, p, m));
		}
		fputc('\n', out);
	}
}

void cxd_cg_write_text(const struct cxd_cg_res *r, FILE *out)
{
	char v[512];

	fprintf(out, "Congestion impact: %d victims, %d aggressors "
		"(placement %s", r->sp->nv, r->sp->na,
		cxd_cg_place_name(r->place));
	if (r->place == CXD_CG_RANDOM)
		fprintf(out, ", seed %llu", (unsigned long long) r->seed);
	fprintf(out, "); provider %s\nTraffic classes: victims %s, "
		"aggressors %s\n", r->provider, r->victim_tc_s[0] ?
		r->victim_tc_s : cxd_tclass_name(r->victim_tc), r->aggr_tc_s[0] ?
		r->aggr_tc_s : cxd_tclass_name(r->aggr_tc));
	fprintf(out, "Impact = loaded / isolated (bandwidth: isolated / "
		"loaded): above 1 is worse\n\nVictim set (mean over %zu "
		"links):\n", r->nlinks);
	table(out, r->links, r->nlinks);
	for (size_t i = 0; i < r->nlinks; i++) {
		const struct cxd_cg_link *l = &r->links[i];

		fprintf(out, "\nVictim link %d -> %d (%s -> %s):\n", l->src,
			l->dst, r->ranks[l->src].host, r->ranks[l->dst].host);
		table(out, l, 1);
	}
	cxd_cg_verdict(r, v, sizeof(v));
	fprintf(out, "\n%s\n", v);
}

/* {"isolated": {metric: v}, "incast": {metric: v, "impact": {...}}} */
static json_object *phases(const struct cxd_cg_link *l, size_t n)
{
	json_object *o = json_object_new_object();

	for (int p = 0; p < CXD_CG_NPHASES; p++) {
		json_object *ph = json_object_new_object(), *imp = NULL;

		if (p != CXD_CG_ALONE)
			imp = json_object_new_object();
		for (int m = 0; m < CXD_CGM_COUNT; m++) {
			double a = cxd_cg_set_value(l, n, CXD_CG_ALONE, m);
			double v = cxd_cg_set_value(l, n, p, m);

			json_object_object_add(ph, cxd_cg_metric_name(m),
					       cxd_json_num(v));
			if (imp)
				json_object_object_add(imp,
					cxd_cg_metric_name(m),
					cxd_json_num(cxd_cg_impact(m, a, v)));
		}
		if (imp)
			json_object_object_add(ph, "impact", imp);
		json_object_object_add(o, cxd_cg_phase_name(p), ph);
	}
	return o;
}

static json_object *int_list(const int *v, int n)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

static json_object *links(const struct cxd_cg_res *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->nlinks; i++) {
		const struct cxd_cg_link *l = &r->links[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "src", json_object_new_int(l->src));
		json_object_object_add(o, "dst", json_object_new_int(l->dst));
		json_object_object_add(o, "src_host", json_object_new_string(
					       r->ranks[l->src].host));
		json_object_object_add(o, "dst_host", json_object_new_string(
					       r->ranks[l->dst].host));
		json_object_object_add(o, "phases", phases(l, 1));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *congestion(const struct cxd_cg_res *r)
{
	json_object *c = json_object_new_object();
	char v[512];

	cxd_cg_verdict(r, v, sizeof(v));
	json_object_object_add(c, "ranks", json_object_new_int(r->sp->n));
	json_object_object_add(c, "hosts", json_object_new_int(r->nhosts));
	json_object_object_add(c, "victims",
			       int_list(r->sp->victims, r->sp->nv));
	json_object_object_add(c, "aggressors",
			       int_list(r->sp->aggressors, r->sp->na));
	json_object_object_add(c, "victim_fraction", cxd_json_num(r->frac));
	json_object_object_add(c, "placement", json_object_new_string(
				       cxd_cg_place_name(r->place)));
	if (r->place == CXD_CG_RANDOM)
		json_object_object_add(c, "seed",
				       json_object_new_uint64(r->seed));
	json_object_object_add(c, "victim_tclass", json_object_new_string(
				       cxd_tclass_name(r->victim_tc)));
	json_object_object_add(c, "aggressor_tclass", json_object_new_string(
				       cxd_tclass_name(r->aggr_tc)));
	json_object_object_add(c, "provider",
			       json_object_new_string(r->provider));
	json_object_object_add(c, "set", phases(r->links, r->nlinks));
	json_object_object_add(c, "links", links(r));
	json_object_object_add(c, "verdict", json_object_new_string(v));
	json_object_object_add(c, "seconds", cxd_json_num(r->total_s));
	return c;
}

int cxd_cg_write_json(const struct cxd_cg_res *r, const char *path,
		      char *err, size_t errlen)
{
	json_object *d = json_object_new_object();
	int ret = cxd_stamp_json(d, "congestion", CXD_SCHEMA_CONGESTION,
				 "cxi_sweep", &r->cfg->out.stamp);

	if (ret != 0) {
		json_object_put(d);
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(-ret));
		return -EIO;
	}
	json_object_object_add(d, "congestion", congestion(r));
	ret = json_object_to_file_ext(path, d, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(d);
	if (ret != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 json_util_get_last_err());
		return -EIO;
	}
	return 0;
}

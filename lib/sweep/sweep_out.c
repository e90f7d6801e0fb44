/* cxi_sweep's outputs on rank 0: JSON (for cxi_plot), CSV, text report. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sweep.h"

static const char *metric_name(enum cxd_metric m)
{
	return m == CXD_M_BW ? "bw_mb_s" : "lat_us";
}

static json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *matrix(const double *m, int n)
{
	json_object *rows = json_object_new_array();

	for (int i = 0; i < n; i++) {
		json_object *row = json_object_new_array();

		for (int j = 0; j < n; j++)
			json_object_array_add(row,
					      num_or_null(m[(size_t) i * n + j]));
		json_object_array_add(rows, row);
	}
	return rows;
}

static json_object *options(const struct cxd_sweep_res *r)
{
	const struct cxd_run_opts *run = &r->cfg->run;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "size", json_object_new_int64((int64_t)
							       run->min_size));
	if (run->flags & CXD_RUN_DURATION)
		json_object_object_add(o, "duration_s", json_object_new_int64(
					       (int64_t) run->duration_s));
	else
		json_object_object_add(o, "iters", json_object_new_int64(
					       (int64_t) run->iters));
	json_object_object_add(o, "list_size",
			       json_object_new_int64((int64_t) run->list_size));
	json_object_object_add(o, "lat_size",
			       json_object_new_int(CXD_SWEEP_LAT_SIZE));
	json_object_object_add(o, "lat_iters",
			       json_object_new_int64((int64_t) r->lat_iters));
	json_object_object_add(o, "min_bw_pct",
			       json_object_new_int64((int64_t) r->bw_pct));
	json_object_object_add(o, "max_lat_pct",
			       json_object_new_int64((int64_t) r->lat_pct));
	json_object_object_add(o, "max_pairs",
			       json_object_new_int(r->pairs_at_once));
	json_object_object_add(o, "device",
			       json_object_new_string(r->cfg->local.device));
	return o;
}

static json_object *ranks(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rank", json_object_new_int(i));
		json_object_object_add(o, "host",
				       json_object_new_string(r->ranks[i].host));
		json_object_object_add(o, "address",
				       json_object_new_string(r->ranks[i].addr));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *outliers(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->nout; i++) {
		const struct cxd_outlier *x = &r->out[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "src", json_object_new_int(x->src));
		json_object_object_add(o, "dst", json_object_new_int(x->dst));
		json_object_object_add(o, "metric",
				       json_object_new_string(metric_name(x->metric)));
		json_object_object_add(o, "value", num_or_null(x->value));
		json_object_object_add(o, "reference",
				       num_or_null(x->reference));
		json_object_object_add(o, "retest", num_or_null(x->retest));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *rounds(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nrounds; i++) {
		const struct cxd_pair *p = r->round_pairs +
					   (size_t) i * r->stride;
		json_object *o = json_object_new_object();
		json_object *pairs = json_object_new_array();

		for (int j = 0; j < r->round_count[i]; j++) {
			json_object *pr = json_object_new_array();

			json_object_array_add(pr, json_object_new_int(p[j].a));
			json_object_array_add(pr, json_object_new_int(p[j].b));
			json_object_array_add(pairs, pr);
		}
		json_object_object_add(o, "round", json_object_new_int(i));
		json_object_object_add(o, "pairs", pairs);
		json_object_object_add(o, "seconds",
				       json_object_new_double(r->round_s[i]));
		json_object_array_add(a, o);
	}
	return a;
}

int cxd_sweep_write_json(const struct cxd_sweep_res *r, const char *path,
			 char *err, size_t errlen)
{
	json_object *d = json_object_new_object();
	int ret;

	json_object_object_add(d, "tool", json_object_new_string("cxi_sweep"));
	json_object_object_add(d, "version",
			       json_object_new_string(CXD_SUITE_VERSION));
	json_object_object_add(d, "libfabric",
			       json_object_new_string(r->libfabric));
	json_object_object_add(d, "provider",
			       json_object_new_string(r->provider));
	json_object_object_add(d, "options", options(r));
	json_object_object_add(d, "ranks", ranks(r));
	json_object_object_add(d, "bw_mb_s", matrix(r->bw, r->n));
	json_object_object_add(d, "lat_us", matrix(r->lat, r->n));
	json_object_object_add(d, "outliers", outliers(r));
	json_object_object_add(d, "rounds", rounds(r));
	json_object_object_add(d, "seconds", json_object_new_double(r->total_s));
	ret = json_object_to_file_ext(path, d, JSON_C_TO_STRING_PRETTY |
				      JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(d);
	if (ret != 0) {
		snprintf(err, errlen, "cannot write the JSON file '%s': %s",
			 path, strerror(errno));
		return -EIO;
	}
	return 0;
}

int cxd_sweep_write_csv(const struct cxd_sweep_res *r, const char *path,
			char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (f == NULL) {
		snprintf(err, errlen, "cannot write the CSV file '%s': %s",
			 path, strerror(errno));
		return -errno;
	}
	fprintf(f, "src,dst,src_host,dst_host,bw_mb_s,lat_us\n");
	for (int i = 0; i < r->n; i++)
		for (int j = 0; j < r->n; j++) {
			size_t k = (size_t) i * r->n + j;

			if (i == j)
				continue;
			fprintf(f, "%d,%d,%s,%s,%.2f,%.2f\n", i, j,
				r->ranks[i].host, r->ranks[j].host, r->bw[k],
				r->lat[k]);
		}
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(err, errlen, "cannot write the CSV file '%s'", path);
		return -EIO;
	}
	return 0;
}

static void min_max(const double *m, int n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < (size_t) n * n; k++) {
		if (!isfinite(m[k]))
			continue;
		*lo = m[k] < *lo ? m[k] : *lo;
		*hi = m[k] > *hi ? m[k] : *hi;
	}
}

static void stat_line(FILE *out, const char *name, const char *unit,
		      const double *m, int n)
{
	double lo, hi, med = cxd_sweep_median(m, (size_t) n * n);

	min_max(m, n, &lo, &hi);
	fprintf(out, "%-14s min %10.2f  median %10.2f  max %10.2f %s\n", name,
		lo, med, hi, unit);
}

#define WORST_SHOWN 3

/* The WORST_SHOWN links with the lowest (bw) or highest (lat) figure. */
static void worst_links(const struct cxd_sweep_res *r, FILE *out,
			enum cxd_metric m)
{
	const double *v = m == CXD_M_BW ? r->bw : r->lat;
	size_t nn = (size_t) r->n * r->n, pick[WORST_SHOWN];
	int k = 0;

	for (; k < WORST_SHOWN; k++) {
		size_t best = nn;

		for (size_t i = 0; i < nn; i++) {
			bool taken = false;

			for (int j = 0; j < k; j++)
				taken |= pick[j] == i;
			if (taken || !isfinite(v[i]))
				continue;
			if (best == nn || (m == CXD_M_BW ? v[i] < v[best] :
						     v[i] > v[best]))
				best = i;
		}
		if (best == nn)
			break;
		pick[k] = best;
	}
	fprintf(out, "%s", m == CXD_M_BW ? "Lowest bandwidth:" :
					   "Highest latency: ");
	for (int j = 0; j < k; j++)
		fprintf(out, "%s %s(%zu)->%s(%zu) %.2f", j ? "," : "",
			r->ranks[pick[j] / r->n].host, pick[j] / r->n,
			r->ranks[pick[j] % r->n].host, pick[j] % r->n,
			v[pick[j]]);
	fprintf(out, "\n");
}

void cxd_sweep_write_text(const struct cxd_sweep_res *r, FILE *out)
{
	fprintf(out, "cxi_sweep: %d ranks, %d rounds of up to %d pairs, "
		"provider %s, %.1f s\n", r->n, r->nrounds, r->pairs_at_once,
		r->provider, r->total_s);
	stat_line(out, "Bandwidth", "MB/s", r->bw, r->n);
	stat_line(out, "Latency (8 B)", "us", r->lat, r->n);
	worst_links(r, out, CXD_M_BW);
	worst_links(r, out, CXD_M_LAT);
	if (r->nout)
		fprintf(out, "Outliers (confirmed by a retest):\n");
	for (size_t i = 0; i < r->nout; i++) {
		const struct cxd_outlier *x = &r->out[i];
		bool bw = x->metric == CXD_M_BW;

		fprintf(out, "  %s (rank %d) -> %s (rank %d): %s %.2f %s, "
			"retest %.2f, median %.2f\n", r->ranks[x->src].host,
			x->src, r->ranks[x->dst].host, x->dst,
			bw ? "bandwidth" : "latency", x->value,
			bw ? "MB/s" : "us", x->retest, x->reference);
	}
	if (r->nout)
		fprintf(out, "Verdict: FAIL: %zu link measurement(s) out of "
			"tolerance (bandwidth < %llu %% or latency > %llu %% "
			"of the median)\n", r->nout,
			(unsigned long long) r->bw_pct,
			(unsigned long long) r->lat_pct);
	else
		fprintf(out, "Verdict: PASS: all %d links within tolerance\n",
			r->n * (r->n - 1));
}

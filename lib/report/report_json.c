/* SPDX-License-Identifier: BSD-3-Clause */
/* Results as one JSON document: identity, summary, options, results. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>

#include "base/amo.h"
#include "base/json_num.h"
#include "base/stamp.h"
#include "report_priv.h"

const char *const cxd_lat_keys[CXD_LAT_FIGURES] = {
	"min_us", "max_us", "mean_us", "stddev_us",
	"p50_us", "p90_us", "p99_us", "p999_us",
};

static json_object *jint(uint64_t v)
{
	return json_object_new_int64((int64_t) v);
}

/* Adds and reports allocation failure; a NULL value is a JSON null. */
static int jadd(json_object *o, const char *key, json_object *v, bool null_ok)
{
	if (v == NULL && !null_ok)
		return -ENOMEM;
	if (json_object_object_add(o, key, v) != 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int jadd_str(json_object *o, const char *key, const char *s)
{
	return jadd(o, key, json_object_new_string(s), false);
}

static const char *hp_name(uint32_t hp)
{
	switch (hp) {
	case CXD_HP_2M:
		return "2M";
	case CXD_HP_1G:
		return "1G";
	default:
		return "none";
	}
}

static int json_options_run(const struct cxd_report *rep, json_object *o)
{
	const struct cxd_run_opts *r = &rep->cfg->run;
	int ret = 0;

	if (cxd_run_has(r, CXD_RUN_DURATION))
		ret |= jadd(o, "duration_s", jint(r->duration_s), false);
	else
		ret |= jadd(o, "iterations", jint(r->iters), false);
	ret |= jadd(o, "min_size", jint(r->min_size), false);
	ret |= jadd(o, "max_size", jint(r->max_size), false);
	if (!rep->lat)
		ret |= jadd(o, "list_size", jint(r->list_size), false);
	if (cxd_tool_has(rep->tool, CXD_F_BIDIR))
		ret |= jadd(o, "bidirectional", json_object_new_boolean(
				    cxd_run_has(r, CXD_RUN_BIDIR)), false);
	if (rep->lat) {
		ret |= jadd(o, "warmup", jint(r->warmup), false);
		ret |= jadd(o, "latency_gap_us", jint(r->latency_gap_us),
			    false);
		ret |= jadd(o, "report_all",
			    json_object_new_boolean(rep->report_all), false);
	}
	if (cxd_tool_has(rep->tool, CXD_F_BUF)) {
		ret |= jadd(o, "buf_sz", jint(r->buf_sz), false);
		ret |= jadd(o, "buf_align", jint(r->buf_align), false);
	}
	if (cxd_tool_has(rep->tool, CXD_F_HP))
		ret |= jadd_str(o, "hugepages", hp_name(r->hugepages));
	ret |= jadd(o, "validate", json_object_new_boolean(
			    cxd_run_has(r, CXD_RUN_VALIDATE)), false);
	if (cxd_tool_has(rep->tool, CXD_F_ATOMIC)) {
		ret |= jadd_str(o, "atomic_op", cxd_amo_op_name(r->amo_op));
		if (r->amo_op == CXD_AMO_CSWAP)
			ret |= jadd_str(o, "cswap_op",
					cxd_cswap_op_name(r->cswap_op));
		ret |= jadd_str(o, "atomic_type",
				cxd_amo_type_name(r->amo_type));
		ret |= jadd(o, "fetching", json_object_new_boolean(
				    cxd_run_has(r, CXD_RUN_FETCHING)), false);
	}
	return ret ? -ENOMEM : 0;
}

/* Builds an object, hands it to parent under key; -ENOMEM on failure. */
static int json_child(json_object *parent, const char *key,
		      json_object **child)
{
	*child = json_object_new_object();
	return jadd(parent, key, *child, false);
}

static int json_identity(const struct cxd_report *rep, json_object *d)
{
	const struct cxd_summary_info *info = rep->info;
	uint32_t v = fi_version();
	char fv[32];
	int ret = 0;

	snprintf(fv, sizeof(fv), "%u.%u", (unsigned) FI_MAJOR(v),
		 (unsigned) FI_MINOR(v));
	ret |= cxd_stamp_json(d, "pair", CXD_SCHEMA_PAIR, rep->tool->name,
			      &rep->cfg->out.stamp);
	ret |= jadd_str(d, "libfabric", fv);
	ret |= jadd_str(d, "role", info->is_server ? "server" : "client");
	ret |= jadd_str(d, "provider", info->provider);
	ret |= jadd_str(d, "device", info->domain);
	ret |= jadd_str(d, "local_endpoint", info->local_ep);
	ret |= jadd_str(d, "remote_endpoint", info->remote_ep);
	ret |= jadd_str(d, "peer", info->peer);
	ret |= jadd(d, "inject_size", jint(info->inject_size), false);
	return ret ? -ENOMEM : 0;
}

int cxd_json_begin(struct cxd_report *rep)
{
	const struct cxd_summary_info *info = rep->info;
	json_object *sum = NULL, *opts;
	int ret;

	rep->doc = json_object_new_object();
	if (rep->doc == NULL)
		return -ENOMEM;
	ret = json_identity(rep, rep->doc);
	if (ret == 0)
		ret = json_child(rep->doc, "summary", &sum);
	rep->jsum = sum; /* lines known after the sizes go there too */
	for (unsigned i = 0; ret == 0 && i < info->nsummary; i++)
		ret = jadd_str(sum, info->summary[i].key, info->summary[i].val);
	if (ret == 0)
		ret = json_child(rep->doc, "options", &opts);
	if (ret == 0)
		ret = json_options_run(rep, opts);
	if (ret == 0) {
		rep->results = json_object_new_array();
		ret = jadd(rep->doc, "results", rep->results, false);
	}
	return ret;
}

static int json_bw(const struct cxd_report *rep, const struct cxd_result *res,
		   json_object *o)
{
	struct cxd_figures f;
	int ret = 0;

	cxd_result_figures(res, &f);
	ret |= jadd(o, "count", res->count_shown ? jint(res->count) : NULL,
		    !res->count_shown);
	ret |= jadd(o, "elapsed_us", cxd_json_num(f.elapsed_us), true);
	ret |= jadd(o, "bw_mb_s", cxd_json_num(f.bw_mb_s), true);
	ret |= jadd(o, "pkt_rate_mpkt_s", cxd_json_num(f.rate_m_s), true);
	if (rep->gb_col)
		ret |= jadd(o, "bw_gb_s", cxd_json_num(f.bw_gb_s), true);
	return ret ? -ENOMEM : 0;
}

static int json_samples(const struct cxd_result *res, json_object *o)
{
	json_object *arr = json_object_new_array();
	int ret = jadd(o, "latencies_us", arr, false);

	for (uint64_t i = 0; ret == 0 && i < res->nsamples; i++) {
		json_object *v = cxd_json_num(res->samples[i] / 1000.0);

		if (v == NULL || json_object_array_add(arr, v) != 0) {
			json_object_put(v);
			ret = -ENOMEM;
		}
	}
	return ret;
}

/*
 * The gaps the client kept between iterations (--latency-gap), measured:
 * they show the requested gap is honoured, which the originals' was not.
 */
/*
 * The gaps the client kept between iterations (--latency-gap), measured:
 * they show the requested gap is honoured, which the originals' was not.
 */
static int json_lat(const struct cxd_result *res, json_object *o)
{
	static const char *const gap_keys[CXD_GAP_FIGURES] = {
		"gap_min_us", "gap_p50_us", "gap_mean_us", "gap_max_us",
	};
	struct cxd_figures f;
	int ret = jadd(o, "count", jint(res->count), false);

	cxd_result_figures(res, &f);
	for (size_t i = 0; ret == 0 && i < CXD_LAT_FIGURES; i++)
		ret = jadd(o, cxd_lat_keys[i],
			   cxd_json_num(f.lat_ns[i] / 1000.0), false);
	for (size_t i = 0; ret == 0 && f.has_gaps && i < CXD_GAP_FIGURES; i++)
		ret = jadd(o, gap_keys[i],
			   cxd_json_num(f.gap_ns[i] / 1000.0), false);
	if (ret == 0 && res->samples != NULL)
		ret = json_samples(res, o);
	return ret;
}

int cxd_json_result(struct cxd_report *rep, const struct cxd_result *res)
{
	json_object *o = json_object_new_object();
	int ret;

	if (o == NULL || json_object_array_add(rep->results, o) != 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	ret = jadd(o, "size", jint(res->size), false);
	if (ret == 0 && rep->lat && res->lat == NULL) {
		ret = jadd(o, "see_client", json_object_new_boolean(1), false);
		/* A ping-pong responder counts the iterations it answered. */
		if (ret == 0 && res->count_shown)
			ret = jadd(o, "count", jint(res->count), false);
	}
	else if (ret == 0 && rep->lat)
		ret = json_lat(res, o);
	else if (ret == 0)
		ret = json_bw(rep, res, o);
	if (ret == 0 && res->validated >= 0)
		ret = jadd(o, "validated",
			   json_object_new_boolean(res->validated == 1), false);
	if (ret == 0 && res->verify >= 0)
		ret = jadd(o, "verified",
			   json_object_new_boolean(res->verify != 0), false);
	return ret;
}

/* For report_after.c: the same number and key rules. */
int cxd_jadd(json_object *o, const char *key, json_object *v, bool null_ok)
{
	return jadd(o, key, v, null_ok);
}

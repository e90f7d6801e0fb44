/* Results rendered three ways: the seed text table, JSON, CSV. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <rdma/fabric.h>

#include "cxd/amo.h"
#include "cxd/report.h"

#define HEADER_MAX 160

struct cxd_report {
	const struct cxd_tool *tool;
	const struct cxd_cfg *cfg;
	const struct cxd_run_info *info; /* read only during begin */
	FILE *out;
	int format;
	bool lat, loopback, server, report_all;
	char header[HEADER_MAX];
	size_t hlen;
	/*
	 * The originals open every per-size block (report-all listing, "See
	 * client for results.") with a separator; the summary block already
	 * ends with one, so a block that follows it directly skips its own.
	 */
	bool at_sep;
	json_object *doc, *results; /* JSON only; results is owned by doc */
};

size_t cxd_report_header(const struct cxd_tool *tool, char *buf, size_t len)
{
	int n;

	if (cxd_tool_is(tool, CXD_TRAIT_SAMPLES))
		n = snprintf(buf, len, "%*s  %10s  %10s  %10s  %10s  %10s",
			     tool->size_w, tool->size_col, tool->count_col,
			     "Min[us]", "Max[us]", "Mean[us]", "StdDev[us]");
	else
		n = snprintf(buf, len, "%*s  %10s  %8s  %*s", tool->size_w,
			     tool->size_col, tool->count_col, tool->bw_col,
			     tool->rate_w, tool->rate_col);
	return n < 0 ? 0 : (size_t) n;
}

void cxd_kv_set(struct cxd_run_info *info, const char *key, const char *fmt,
		...)
{
	struct cxd_kv *kv;
	va_list ap;

	if (info->nsummary >= CXD_SUMMARY_MAX)
		return;
	kv = &info->summary[info->nsummary++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(kv->val, sizeof(kv->val), fmt, ap);
	va_end(ap);
}

/* ---- text ---------------------------------------------------------- */

static void text_sep(struct cxd_report *rep)
{
	for (size_t i = 0; i < rep->hlen; i++)
		fputc('-', rep->out);
	fputc('\n', rep->out);
	rep->at_sep = true;
}

/* The separator that opens a per-size block, unless one was just printed. */
static void text_open_block(struct cxd_report *rep)
{
	if (!rep->at_sep)
		text_sep(rep);
}

static void text_line(struct cxd_report *rep, const char *s)
{
	fprintf(rep->out, "%s\n", s);
	rep->at_sep = false;
}

static void text_begin(struct cxd_report *rep)
{
	const struct cxd_run_info *info = rep->info;

	text_sep(rep);
	fprintf(rep->out, "    %s\n", rep->tool->title);
	for (unsigned i = 0; i < info->nsummary; i++) {
		const struct cxd_kv *kv = &info->summary[i];

		/* A value-less entry is a bare line ("Found 4 GPU(s)"). */
		if (kv->val[0] == '\0')
			fprintf(rep->out, "%s\n", kv->key);
		else
			fprintf(rep->out, "%-17s: %s\n", kv->key, kv->val);
	}
	text_sep(rep);
	/* Latency servers and report-all clients print it per size, if at all. */
	if (!(rep->lat && (rep->server || rep->report_all)))
		text_line(rep, rep->header);
}

/* Truncated to 10 ns, as the originals print every summary value. */
static void text_us2(FILE *out, uint64_t ns)
{
	fprintf(out, "  %7" PRIu64 ".%02" PRIu64, ns / 1000,
		(ns % 1000) / 10);
}

static void text_verify(struct cxd_report *rep, const struct cxd_result *res)
{
	if (res->verify == 0)
		text_line(rep, "Atomic verification FAILED: target values "
			  "differ from the expected result");
}

static void text_bw(struct cxd_report *rep, const struct cxd_result *res)
{
	const struct cxd_tool *t = rep->tool;
	struct cxd_figures f;

	cxd_result_figures(res, &f);

	fprintf(rep->out, "%*" PRIu64 "  ", t->size_w, res->size);
	if (res->count_shown)
		fprintf(rep->out, "%10" PRIu64, res->count);
	else
		fprintf(rep->out, "%10s", "-");
	fprintf(rep->out, "  %8.2f  %*.6f\n", rep->loopback ? f.bw_gb_s :
		f.bw_mb_s, t->rate_w, f.rate_m_s);
	rep->at_sep = false;
}

static void text_lat_all(struct cxd_report *rep, const struct cxd_result *res)
{
	text_open_block(rep);
	fprintf(rep->out, "%10s  %11s\n", rep->tool->index_col, "Latency[us]");
	for (uint64_t i = 0; i < res->nsamples; i++)
		fprintf(rep->out, "%10" PRIu64 "  %7" PRIu64 ".%03" PRIu64 "\n",
			i, res->samples[i] / 1000, res->samples[i] % 1000);
	text_sep(rep);
}

static void text_lat(struct cxd_report *rep, const struct cxd_result *res)
{
	struct cxd_figures f;

	cxd_result_figures(res, &f);
	if (rep->report_all) {
		/* Without samples the listing is skipped; the header is not. */
		if (res->samples != NULL)
			text_lat_all(rep, res);
		else
			text_open_block(rep);
		text_line(rep, rep->header);
	}
	fprintf(rep->out, "%*" PRIu64 "  %10" PRIu64, rep->tool->size_w,
		res->size, res->count);
	for (int i = 0; i < 4; i++) /* min max mean stddev */
		text_us2(rep->out, f.lat_ns[i]);
	fputc('\n', rep->out);
	rep->at_sep = false;
}

static void text_result(struct cxd_report *rep, const struct cxd_result *res)
{
	if (rep->lat && res->lat == NULL) {
		text_open_block(rep);
		text_line(rep, "See client for results.");
		return;
	}
	if (rep->lat)
		text_lat(rep, res);
	else
		text_bw(rep, res);
	text_verify(rep, res);
}

/* ---- Latency figures, the same in CSV and JSON ---------------------- */

static const char *const lat_keys[CXD_LAT_FIGURES] = {
	"min_us", "max_us", "mean_us", "stddev_us",
	"p50_us", "p90_us", "p99_us", "p999_us",
};

/* ---- CSV ----------------------------------------------------------- */

static void csv_begin(struct cxd_report *rep)
{
	if (rep->lat) {
		fprintf(rep->out, "size,count");
		for (size_t i = 0; i < CXD_LAT_FIGURES; i++)
			fprintf(rep->out, ",%s", lat_keys[i]);
		fputc('\n', rep->out);
	} else
		fprintf(rep->out, "size,count,elapsed_us,bw_mb_s,"
			"pkt_rate_mpkt_s%s\n", rep->loopback ? ",bw_gb_s" : "");
}

static void csv_bw(struct cxd_report *rep, const struct cxd_result *res)
{
	struct cxd_figures f;

	cxd_result_figures(res, &f);
	fprintf(rep->out, "%" PRIu64 ",", res->size);
	if (res->count_shown)
		fprintf(rep->out, "%" PRIu64, res->count);
	fprintf(rep->out, ",%.3f,%.2f,%.6f", f.elapsed_us, f.bw_mb_s,
		f.rate_m_s);
	if (rep->loopback)
		fprintf(rep->out, ",%.2f", f.bw_gb_s);
	fputc('\n', rep->out);
}

static void csv_lat(struct cxd_report *rep, const struct cxd_result *res)
{
	struct cxd_figures f;

	cxd_result_figures(res, &f);
	fprintf(rep->out, "%" PRIu64 ",%" PRIu64, res->size, res->count);
	for (size_t i = 0; i < CXD_LAT_FIGURES; i++)
		fprintf(rep->out, ",%.3f", f.lat_ns[i] / 1000.0);
	fputc('\n', rep->out);
}

static void csv_result(struct cxd_report *rep, const struct cxd_result *res)
{
	/* The latency server has nothing to add: the client holds the data. */
	if (rep->lat && res->lat == NULL)
		return;
	if (rep->lat)
		csv_lat(rep, res);
	else
		csv_bw(rep, res);
}

/* ---- JSON ---------------------------------------------------------- */

/*
 * json-c prints doubles with %.17g ("29314.659999999999"); store the
 * shortest text that reads back to the same double instead. Non-finite
 * values are not JSON: null.
 */
static json_object *jdbl(double d)
{
	char buf[40];

	if (!isfinite(d))
		return NULL;
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* Keep it a double when parsed back: "2" would read as an int. */
	if (strpbrk(buf, ".eE") == NULL)
		strncat(buf, ".0", sizeof(buf) - strlen(buf) - 1);
	return json_object_new_double_s(d, buf);
}

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
	const struct cxd_run_info *info = rep->info;
	uint32_t v = fi_version();
	char fv[32];
	int ret = 0;

	snprintf(fv, sizeof(fv), "%u.%u", (unsigned) FI_MAJOR(v),
		 (unsigned) FI_MINOR(v));
	ret |= jadd_str(d, "tool", rep->tool->name);
	ret |= jadd_str(d, "version", CXD_SUITE_VERSION);
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

static int json_begin(struct cxd_report *rep)
{
	const struct cxd_run_info *info = rep->info;
	json_object *sum, *opts;
	int ret;

	rep->doc = json_object_new_object();
	if (rep->doc == NULL)
		return -ENOMEM;
	ret = json_identity(rep, rep->doc);
	if (ret == 0)
		ret = json_child(rep->doc, "summary", &sum);
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
	ret |= jadd(o, "elapsed_us", jdbl(f.elapsed_us), true);
	ret |= jadd(o, "bw_mb_s", jdbl(f.bw_mb_s), true);
	ret |= jadd(o, "pkt_rate_mpkt_s", jdbl(f.rate_m_s), true);
	if (rep->loopback)
		ret |= jadd(o, "bw_gb_s", jdbl(f.bw_gb_s), true);
	return ret ? -ENOMEM : 0;
}

static int json_samples(const struct cxd_result *res, json_object *o)
{
	json_object *arr = json_object_new_array();
	int ret = jadd(o, "latencies_us", arr, false);

	for (uint64_t i = 0; ret == 0 && i < res->nsamples; i++) {
		json_object *v = jdbl(res->samples[i] / 1000.0);

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
		ret = jadd(o, lat_keys[i], jdbl(f.lat_ns[i] / 1000.0), false);
	for (size_t i = 0; ret == 0 && f.has_gaps && i < CXD_GAP_FIGURES; i++)
		ret = jadd(o, gap_keys[i], jdbl(f.gap_ns[i] / 1000.0), false);
	if (ret == 0 && res->samples != NULL)
		ret = json_samples(res, o);
	return ret;
}

static int json_result(struct cxd_report *rep, const struct cxd_result *res)
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

/* ---- entry points -------------------------------------------------- */

int cxd_report_begin(struct cxd_report **rep_p, const struct cxd_tool *tool,
		     const struct cxd_cfg *cfg, const struct cxd_run_info *info,
		     FILE *out)
{
	struct cxd_report *rep = calloc(1, sizeof(*rep));
	int ret = 0;

	*rep_p = NULL;
	if (rep == NULL)
		return -ENOMEM;
	rep->tool = tool;
	rep->cfg = cfg;
	rep->info = info;
	rep->out = out;
	rep->format = cfg->out.format;
	rep->lat = cxd_tool_is(tool, CXD_TRAIT_SAMPLES);
	rep->loopback = cxd_tool_is(tool, CXD_TRAIT_LOOPBACK);
	rep->server = info->is_server;
	rep->report_all = cxd_run_has(&cfg->run, CXD_RUN_REPORT_ALL);
	rep->hlen = cxd_report_header(tool, rep->header, sizeof(rep->header));
	if (rep->hlen >= sizeof(rep->header))
		rep->hlen = sizeof(rep->header) - 1;
	if (rep->format == CXD_FMT_JSON)
		ret = json_begin(rep);
	else if (rep->format == CXD_FMT_CSV)
		csv_begin(rep);
	else
		text_begin(rep);
	if (ret != 0) {
		cxd_report_free(rep);
		return ret;
	}
	*rep_p = rep;
	return 0;
}

int cxd_report_result(struct cxd_report *rep, const struct cxd_result *res)
{
	if (rep == NULL || res == NULL)
		return -EINVAL;
	if (rep->format == CXD_FMT_JSON)
		return json_result(rep, res);
	if (rep->format == CXD_FMT_CSV)
		csv_result(rep, res);
	else
		text_result(rep, res);
	/* Rows appear as each size finishes, even through a pipe; a failed
	 * write ends the run now (errno says why: EPIPE, ENOSPC...). */
	errno = 0;
	if (fflush(rep->out) != 0 || ferror(rep->out))
		return errno ? -errno : -EIO;
	return 0;
}

int cxd_report_end(struct cxd_report *rep)
{
	int ret = 0;

	if (rep == NULL)
		return -EINVAL;
	if (rep->format == CXD_FMT_JSON) {
		const char *doc = json_object_to_json_string_ext(rep->doc,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

		if (doc == NULL)
			ret = -ENOMEM;
		else
			fprintf(rep->out, "%s\n", doc);
	} else if (rep->format == CXD_FMT_TEXT)
		text_sep(rep);
	if (ret == 0)
		errno = 0;
	if ((fflush(rep->out) != 0 || ferror(rep->out)) && ret == 0)
		ret = errno ? -errno : -EIO;
	cxd_report_free(rep);
	return ret;
}

void cxd_report_free(struct cxd_report *rep)
{
	if (rep == NULL)
		return;
	json_object_put(rep->doc);
	free(rep);
}

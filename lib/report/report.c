/* SPDX-License-Identifier: BSD-3-Clause */
/* Results rendered three ways: the seed text table, JSON, CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "report_priv.h"

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

void cxd_kv_set(struct cxd_summary_info *info, const char *key, const char *fmt,
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
	const struct cxd_summary_info *info = rep->info;

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
	fprintf(rep->out, "  %8.2f  %*.6f\n", rep->gb_col ? f.bw_gb_s :
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

/* ---- CSV ----------------------------------------------------------- */

static void csv_begin(struct cxd_report *rep)
{
	if (rep->lat) {
		fprintf(rep->out, "size,count");
		for (size_t i = 0; i < CXD_LAT_FIGURES; i++)
			fprintf(rep->out, ",%s", cxd_lat_keys[i]);
		fputc('\n', rep->out);
	} else
		fprintf(rep->out, "size,count,elapsed_us,bw_mb_s,"
			"pkt_rate_mpkt_s%s\n", rep->gb_col ? ",bw_gb_s" : "");
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
	if (rep->gb_col)
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

/* ---- entry points -------------------------------------------------- */

int cxd_report_begin(struct cxd_report **rep_p, const struct cxd_tool *tool,
		     const struct cxd_cfg *cfg, const struct cxd_summary_info *info,
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
	rep->gb_col = cxd_tool_is(tool, CXD_TRAIT_LOOPBACK);
	rep->server = info->is_server;
	rep->report_all = cxd_run_has(&cfg->run, CXD_RUN_REPORT_ALL);
	rep->hlen = cxd_report_header(tool, rep->header, sizeof(rep->header));
	cxd_gate_begin(rep);
	if (rep->hlen >= sizeof(rep->header))
		rep->hlen = sizeof(rep->header) - 1;
	rep->mx = cxd_metrics_new(tool, cfg, info);
	if (cfg->out.metrics[0] && rep->mx == NULL)
		ret = -ENOMEM;
	else if (rep->format == CXD_FMT_JSON)
		ret = cxd_json_begin(rep);
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
	cxd_gate_result(rep, res);
	if (rep->mx && cxd_metrics_add(rep->mx, res) != 0)
		return -ENOMEM;
	if (rep->format == CXD_FMT_JSON) {
		int ret = cxd_json_result(rep, res);
		size_t n = json_object_array_length(rep->results);

		/* The windows go into the size's object, just added. */
		if (ret == 0 && res->win)
			ret = cxd_report_windows(rep, res,
				json_object_array_get_idx(rep->results, n - 1));
		return ret;
	}
	if (res->win && cxd_report_windows(rep, res, NULL) != 0)
		return -ENOMEM;
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
	ret = cxd_gate_end(rep);
	if (ret != 0) {
		cxd_report_free(rep);
		return ret;
	}
	if (rep->format == CXD_FMT_JSON) {
		const char *doc = json_object_to_json_string_ext(rep->doc,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

		if (doc == NULL)
			ret = -ENOMEM;
		else
			fprintf(rep->out, "%s\n", doc);
	} else if (rep->format == CXD_FMT_TEXT) {
		if (rep->ntrail)
			text_sep(rep);
		cxd_report_trailer(rep);
		text_sep(rep);
	} else {
		cxd_report_trailer(rep);
	}
	if (ret == 0)
		errno = 0;
	if ((fflush(rep->out) != 0 || ferror(rep->out)) && ret == 0)
		ret = errno ? -errno : -EIO;
	cxd_report_free(rep);
	return ret;
}

int cxd_report_metrics(struct cxd_report *rep, char *err, size_t len)
{
	const struct cxd_gate *g = &rep->gate;

	if (rep->mx == NULL)
		return 0;
	if (g->on)
		cxd_metrics_gate(rep->mx, g->lat, g->bound,
				 !cxd_report_gate_missed(rep), g->nmiss);
	return cxd_metrics_write(rep->mx, err, len);
}

void cxd_report_free(struct cxd_report *rep)
{
	if (rep == NULL)
		return;
	cxd_metrics_free(rep->mx);
	json_object_put(rep->doc);
	free(rep);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What is known only after the sizes: the device's link error counters
 * and the worst --interval window. Text prints them after the table, CSV
 * on stderr (its rows stay parseable), JSON in "summary" and beside it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json_num.h"
#include "counters/counters.h"
#include "report_priv.h"

static int trail(struct cxd_report *rep, const char *key, const char *val)
{
	if (rep->ntrail >= CXD_TRAIL_MAX)
		return 0;
	snprintf(rep->trail[rep->ntrail].key, CXD_KV_KEY, "%s", key);
	snprintf(rep->trail[rep->ntrail].val, CXD_TRAIL_VAL, "%s", val);
	rep->ntrail++;
	if (rep->jsum)
		return cxd_jadd(rep->jsum, key, json_object_new_string(val),
				false);
	return 0;
}

void cxd_report_trailer(struct cxd_report *rep)
{
	FILE *out = rep->format == CXD_FMT_CSV ? stderr : rep->out;

	for (unsigned i = 0; i < rep->ntrail; i++)
		fprintf(out, "%-17s: %s\n", rep->trail[i].key,
			rep->trail[i].val);
}

void cxd_window_words(const struct cxd_windows *w, char *buf, size_t len)
{
	const struct cxd_window *x = &w->w[w->worst];

	if (w->n == 0) {
		snprintf(buf, len, "no complete window");
		return;
	}
	if (w->lat)
		snprintf(buf, len, "%.1f-%.1f s: p50 %.2f us, %.1f %% above "
			 "the median window (%.2f us), of %llu windows",
			 x->start_s, x->end_s, w->worst_v / 1000.0,
			 w->dist_pct, w->median_v / 1000.0,
			 (unsigned long long) w->n);
	else
		snprintf(buf, len, "%.1f-%.1f s: %.2f MB/s, %.1f %% below "
			 "the median window (%.2f MB/s), of %llu windows",
			 x->start_s, x->end_s, w->worst_v, w->dist_pct,
			 w->median_v, (unsigned long long) w->n);
}

static json_object *jwindow(const struct cxd_windows *w,
			    const struct cxd_window *x)
{
	json_object *o = json_object_new_object();
	int ret = 0;

	if (o == NULL)
		return NULL;
	ret |= cxd_jadd(o, "start_s", cxd_json_num(x->start_s), true);
	ret |= cxd_jadd(o, "end_s", cxd_json_num(x->end_s), true);
	ret |= cxd_jadd(o, "count", json_object_new_int64(
				(int64_t) x->count), false);
	if (w->lat) {
		ret |= cxd_jadd(o, "p50_us",
					cxd_json_num(x->p50_ns / 1e3), true);
		ret |= cxd_jadd(o, "p99_us",
					cxd_json_num(x->p99_ns / 1e3), true);
		ret |= cxd_jadd(o, "max_us",
					cxd_json_num(x->max_ns / 1e3), true);
		ret |= cxd_jadd(o, "mean_us",
					cxd_json_num(x->mean_ns / 1e3), true);
	} else {
		ret |= cxd_jadd(o, "bw_mb_s", cxd_json_num(x->bw_mb_s), true);
	}
	if (ret) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int json_windows(const struct cxd_windows *w, json_object *o)
{
	json_object *arr = json_object_new_array(), *worst;
	int ret = cxd_jadd(o, "windows", arr, false);

	for (uint64_t i = 0; ret == 0 && i < w->n; i++) {
		json_object *x = jwindow(w, &w->w[i]);

		if (x == NULL || json_object_array_add(arr, x) != 0) {
			json_object_put(x);
			ret = -ENOMEM;
		}
	}
	if (ret || w->n == 0)
		return ret;
	worst = jwindow(w, &w->w[w->worst]);
	ret = cxd_jadd(o, "worst_window", worst, false);
	if (ret == 0)
		ret = cxd_jadd(worst, "index", json_object_new_int64(
				       (int64_t) w->worst), false);
	if (ret == 0)
		ret = cxd_jadd(worst, "median", cxd_json_num(w->median_v /
				       (w->lat ? 1e3 : 1)), true);
	if (ret == 0)
		ret = cxd_jadd(worst, "distance_pct", cxd_json_num(w->dist_pct),
			       true);
	return ret;
}

/* A size's windows: the summary's "Worst window" (per size when the run
 * has several), and in JSON the rows (o: the size's result object). */
int cxd_report_windows(struct cxd_report *rep, const struct cxd_result *res,
		       json_object *o)
{
	const struct cxd_run_opts *r = &rep->cfg->run;
	char key[CXD_KV_KEY], val[CXD_TRAIL_VAL];
	int ret = 0;

	if (o)
		ret = json_windows(res->win, o);
	if (r->min_size == r->max_size)
		snprintf(key, sizeof(key), "Worst window");
	else
		snprintf(key, sizeof(key), "Worst window %llu B",
			 (unsigned long long) res->size);
	cxd_window_words(res->win, val, sizeof(val));
	return ret ? ret : trail(rep, key, val);
}

static json_object *jctr(const struct cxd_ctr *k)
{
	json_object *o = json_object_new_object();
	bool ok = cxd_ctr_ok(k);
	int e = k->err_before ? k->err_before : k->err_after, ret = 0;

	if (o == NULL)
		return NULL;
	ret |= cxd_jadd(o, "name", json_object_new_string(k->name), false);
	ret |= cxd_jadd(o, "source", json_object_new_string(k->path), false);
	if (k->row[0] && strcmp(k->row, "="))
		ret |= cxd_jadd(o, "field", json_object_new_string(k->col),
				false);
	ret |= cxd_jadd(o, "available", json_object_new_boolean(ok), false);
	/* Unreadable is null, never 0: the reader could not see it. */
	ret |= cxd_jadd(o, "before", k->err_before ? NULL :
			json_object_new_int64((int64_t) k->before), true);
	ret |= cxd_jadd(o, "after", k->err_after ? NULL :
			json_object_new_int64((int64_t) k->after), true);
	ret |= cxd_jadd(o, "delta", ok && k->after >= k->before ?
			json_object_new_int64((int64_t) cxd_ctr_delta(k)) :
			NULL, true);
	if (!ok)
		ret |= cxd_jadd(o, "error", json_object_new_string(
					strerror(e)), false);
	if (ret) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int json_counters(struct cxd_report *rep, const struct cxd_ctrs *c,
			 const char *line)
{
	json_object *o = json_object_new_object(), *arr;
	int ret = cxd_jadd(rep->doc, "counters", o, false);

	if (ret == 0)
		ret = cxd_jadd(o, "device", json_object_new_string(c->dev),
			       false);
	if (ret == 0 && c->note[0])
		ret = cxd_jadd(o, "note", json_object_new_string(c->note),
			       false);
	if (ret == 0)
		ret = cxd_jadd(o, "link_errors", json_object_new_string(line),
			       false);
	if (ret == 0 && c->left)
		ret = cxd_jadd(o, "not_kept", json_object_new_int64(c->left),
			       false);
	arr = json_object_new_array();
	if (ret == 0)
		ret = cxd_jadd(o, "list", arr, false);
	else
		json_object_put(arr);
	for (unsigned i = 0; ret == 0 && i < c->n; i++) {
		json_object *x = jctr(&c->c[i]);

		if (x == NULL || json_object_array_add(arr, x) != 0) {
			json_object_put(x);
			ret = -ENOMEM;
		}
	}
	return ret;
}

int cxd_report_counters(struct cxd_report *rep, const struct cxd_ctrs *c)
{
	char line[CXD_TRAIL_VAL];
	int ret = 0;

	if (rep == NULL || c == NULL)
		return 0;
	cxd_ctrs_moved(c, line, sizeof(line));
	if (rep->doc)
		ret = json_counters(rep, c, line);
	if (ret == 0)
		ret = trail(rep, "Link errors", line);
	cxd_ctrs_host(c, line, sizeof(line));
	if (ret == 0 && line[0])
		ret = trail(rep, "TCP retransmits", line);
	return ret;
}

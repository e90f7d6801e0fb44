/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pair tools' gates, --expect-bw MB_S and --expect-lat US: every size
 * the client prints is held to the bound (bandwidth: the MB/s figure, as
 * cxi_sweep judges a link; latency: the median, the sweep's figure too).
 * A miss is a "Gate: FAIL" line naming size, figure and bound; none, one
 * "Gate: PASS" line. Text prints them after the table, CSV on stderr
 * (its rows stay parseable), JSON as the document's "gate" object. The
 * exit status (3 on a miss) is main_flow.c's, from cxd_report_gate_missed.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/json_num.h"
#include "report_priv.h"

/* Bounds as given when whole ("40000"), else as %g ("0.5"). */
static void num(char *buf, size_t len, double v)
{
	if (v == floor(v) && v < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

void cxd_gate_begin(struct cxd_report *rep)
{
	const struct cxd_sweep_opts *o = &rep->cfg->sweep;
	struct cxd_gate *g = &rep->gate;

	g->lat = rep->lat;
	g->bound = g->lat ? o->expect_lat : o->expect_bw;
	/* The server of a pair is refused the options (opts.c); --local's
	 * server child inherits them, and its client speaks for both. */
	g->on = g->bound > 0 && !rep->server;
}

/* The figure a size is judged by: MB/s, or the median in us. */
static bool figure(const struct cxd_report *rep, const struct cxd_result *res,
		   double *v)
{
	struct cxd_figures f;

	if (rep->gate.lat && res->lat == NULL)
		return false;
	cxd_result_figures(res, &f);
	*v = rep->gate.lat ? f.lat_ns[4] / 1e3 : f.bw_mb_s;
	return true;
}

void cxd_gate_result(struct cxd_report *rep, const struct cxd_result *res)
{
	struct cxd_gate *g = &rep->gate;
	bool miss;
	double v;

	if (!g->on || !figure(rep, res, &v))
		return;
	miss = !isfinite(v) || (g->lat ? v > g->bound : v < g->bound);
	if (g->checked == 0 || (g->lat ? v > g->worst : v < g->worst)) {
		g->worst = v;
		g->worst_size = res->size;
	}
	g->checked++;
	if (miss && g->nmiss < CXD_GATE_MISS_MAX)
		g->miss[g->nmiss] = (struct cxd_gate_miss){ res->size, v };
	g->nmiss += miss;
}

bool cxd_report_gate_missed(const struct cxd_report *rep)
{
	return rep->gate.on && (rep->gate.nmiss > 0 || rep->gate.checked == 0);
}

/* A figure as the table prints it ("1234.56 MB/s", the loopback tool's
 * Gb/s beside it), or a bound as given (figure false). */
static void words(const struct cxd_report *rep, double v, bool figure,
		  char *buf, size_t len)
{
	const char *unit = rep->gate.lat ? "us" : "MB/s";
	char n[40];

	if (figure)
		snprintf(n, sizeof(n), "%s%.2f", rep->gate.lat ? "median " :
			 "", v);
	else
		num(n, sizeof(n), v);
	if (rep->gb_col)
		snprintf(buf, len, "%s %s (%.2f Gb/s)", n, unit, v * 8 / 1000);
	else
		snprintf(buf, len, "%s %s", n, unit);
}

static void line(struct cxd_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void line(struct cxd_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->ntrail >= CXD_TRAIL_MAX)
		return;
	snprintf(rep->trail[rep->ntrail].key, CXD_KV_KEY, "Gate");
	va_start(ap, fmt);
	vsnprintf(rep->trail[rep->ntrail].val, CXD_TRAIL_VAL, fmt, ap);
	va_end(ap);
	rep->ntrail++;
}

static void text_lines(struct cxd_report *rep)
{
	const struct cxd_gate *g = &rep->gate;
	const char *side = g->lat ? "above" : "below";
	char b[64], f[64];

	words(rep, g->bound, false, b, sizeof(b));
	if (g->checked == 0) {
		line(rep, "FAIL: no size was measured (bound %s)", b);
		return;
	}
	for (unsigned i = 0; i < g->nmiss && i < CXD_GATE_MISS_MAX; i++) {
		words(rep, g->miss[i].v, true, f, sizeof(f));
		line(rep, "FAIL %llu B: %s, %s the bound of %s",
		     (unsigned long long) g->miss[i].size, f, side, b);
	}
	if (g->nmiss > CXD_GATE_MISS_MAX)
		line(rep, "FAIL: %u more sizes %s the bound",
		     g->nmiss - CXD_GATE_MISS_MAX, side);
	if (g->nmiss)
		return;
	words(rep, g->worst, true, f, sizeof(f));
	line(rep, "PASS: %llu size%s within the bound of %s (%s %s at %llu B)",
	     (unsigned long long) g->checked, g->checked == 1 ? "" : "s", b,
	     g->lat ? "highest" : "lowest", f,
	     (unsigned long long) g->worst_size);
}

static json_object *jmiss(double size, double v)
{
	json_object *o = json_object_new_object();

	if (o == NULL || cxd_jadd(o, "size", json_object_new_int64(
				  (int64_t) size), false) ||
	    cxd_jadd(o, "value", cxd_json_num(v), true)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int json_gate(struct cxd_report *rep)
{
	const struct cxd_gate *g = &rep->gate;
	json_object *o = json_object_new_object(), *arr;
	int ret = cxd_jadd(rep->doc, "gate", o, false);

	ret = ret ? ret : cxd_jadd(o, "verdict", json_object_new_string(
			cxd_report_gate_missed(rep) ? "FAIL" : "PASS"), false);
	ret = ret ? ret : cxd_jadd(o, "figure", json_object_new_string(
			g->lat ? "p50_us" : "bw_mb_s"), false);
	ret = ret ? ret : cxd_jadd(o, g->lat ? "max" : "min",
				   cxd_json_num(g->bound), true);
	ret = ret ? ret : cxd_jadd(o, "sizes_checked", json_object_new_int64(
			(int64_t) g->checked), false);
	ret = ret ? ret : cxd_jadd(o, "worst", g->checked ?
			jmiss((double) g->worst_size, g->worst) : NULL, true);
	arr = json_object_new_array();
	ret = ret ? ret : cxd_jadd(o, "missed", arr, false);
	for (unsigned i = 0; ret == 0 && i < g->nmiss &&
	     i < CXD_GATE_MISS_MAX; i++) {
		json_object *x = jmiss((double) g->miss[i].size, g->miss[i].v);

		if (x == NULL || json_object_array_add(arr, x) != 0) {
			json_object_put(x);
			ret = -ENOMEM;
		}
	}
	return ret;
}

int cxd_gate_end(struct cxd_report *rep)
{
	if (!rep->gate.on)
		return 0;
	if (rep->format == CXD_FMT_JSON)
		return json_gate(rep);
	text_lines(rep);
	return 0;
}

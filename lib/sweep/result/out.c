/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's outputs on rank 0: JSON (for cxi_plot and --baseline), CSV. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json_num.h"
#include "base/stamp.h"
#include "sweep/judge/judge.h"
#include "out.h"
#include "out_budget.h"
#include "out_cap.h"
#include "out_lat.h"
#include "out_files.h"
#include "out_json.h"
#include "out_sched.h"
#include "out_text.h"
#include "sweep/model/topo_types.h"
#include "verdict.h"

static json_object *pct_or_null(uint64_t pct)
{
	return pct ? json_object_new_int64((int64_t) pct) : NULL;
}

static json_object *str_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

static json_object *matrix(const double *m, int n)
{
	json_object *rows = json_object_new_array();

	for (int i = 0; i < n; i++) {
		json_object *row = json_object_new_array();

		for (int j = 0; j < n; j++)
			json_object_array_add(row, cxd_json_num(
				m[(size_t) i * n + j]));
		json_object_array_add(rows, row);
	}
	return rows;
}

static json_object *options(const struct cxd_sweep_res *r)
{
	const struct cxd_run_opts *run = &r->run.cfg->run;
	const struct cxd_sweep_opts *sw = &r->run.cfg->sweep;
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
	cxd_json_add_int(o, "lat_size", CXD_SWEEP_LAT_SIZE);
	json_object_object_add(o, "lat_iters", json_object_new_int64(
				       (int64_t) r->run.lat_iters));
	json_object_object_add(o, "repeat",
			       json_object_new_int64((int64_t) r->run.repeat));
	json_object_object_add(o, "min_bw_pct", pct_or_null(sw->bw_pct));
	json_object_object_add(o, "max_lat_pct", pct_or_null(sw->lat_pct));
	cxd_json_add_num(o, "expect_bw_mb_s",
			 sw->expect_bw > 0 ? sw->expect_bw : NAN);
	cxd_json_add_num(o, "expect_lat_us",
			 sw->expect_lat > 0 ? sw->expect_lat : NAN);
	json_object_object_add(o, "baseline", str_or_null(sw->baseline));
	json_object_object_add(o, "topology", str_or_null(sw->topology));
	cxd_json_add_int(o, "max_pairs", r->rounds.pairs_at_once);
	cxd_json_add_str(o, "device", r->run.cfg->local.device);
	return o;
}

static json_object *ranks(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->run.n; i++) {
		const struct cxd_sweep_rank *x = &r->run.ranks[i];
		json_object *o = json_object_new_object();

		cxd_json_add_int(o, "rank", i);
		cxd_json_add_str(o, "host", x->host);
		cxd_json_add_str(o, "address", x->addr);
		cxd_json_add_str(o, "nic", x->nic);
		if (r->in.tmap) {
			const struct cxd_topo *t = r->in.topo;
			int si = r->in.tmap->switch_of[i];
			int g = r->in.tmap->group_of[i];

			cxd_json_add_str(o, "switch", t->switch_name[si]);
			json_object_object_add(o, "group", g < 0 ? NULL :
					       json_object_new_string(
						       t->group_name[g]));
		}
		json_object_object_add(o, "counters_moved", r->moved ?
				       json_object_new_string(r->moved[i]) :
				       NULL);
		json_object_object_add(o, "suspect", json_object_new_boolean(
					       cxd_out_rank_suspect(r, i)));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *reasons(unsigned why)
{
	json_object *a = json_object_new_array();

	for (unsigned bit = CXD_R_PEERS; bit <= CXD_R_EXPECT; bit <<= 1)
		if (why & bit)
			json_object_array_add(a, json_object_new_string(
					cxd_judge_reason_name(bit)));
	return a;
}

static json_object *outliers(const struct cxd_outlier *list, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		const struct cxd_outlier *x = &list[i];
		json_object *o = json_object_new_object();

		cxd_json_add_int(o, "src", x->src);
		cxd_json_add_int(o, "dst", x->dst);
		cxd_json_add_str(o, "metric", cxd_out_metric_key(x->metric));
		cxd_json_add_num(o, "value", x->value);
		cxd_json_add_num(o, "reference", x->reference);
		cxd_json_add_num(o, "limit", x->limit);
		cxd_json_add_str(o, "reason", cxd_judge_reason_name(x->why));
		json_object_object_add(o, "reasons", reasons(x->why));
		cxd_json_add_num(o, "retest", x->retest);
		cxd_json_add_num(o, "cpu_wait_pct", 100 * x->busy);
		json_object_array_add(a, o);
	}
	return a;
}

/* The bandwidth pass packed by routes: {"rounds", "bound_rounds",
 * "dealt_slots", "seconds", "pair_s", "bound_s", "plan_cpu_s",
 * "dropped", "crowd_pct"}. */
static json_object *routed(const struct cxd_sched_choice *ch)
{
	json_object *o = json_object_new_object();

	cxd_json_add_int(o, "rounds", ch->routed_rounds);
	cxd_json_add_int(o, "bound_rounds", ch->routed_bound);
	cxd_json_add_int(o, "dealt_slots", ch->dealt_rounds);
	cxd_json_add_num(o, "seconds", ch->routed_s);
	cxd_json_add_num(o, "pair_s", ch->routed_pair_s);
	cxd_json_add_num(o, "bound_s", ch->routed_bound * ch->routed_pair_s);
	cxd_json_add_num(o, "plan_cpu_s", ch->routed_cpu_s);
	json_object_object_add(o, "dropped", json_object_new_boolean(
						     ch->routed_dropped));
	cxd_json_add_num(o, "crowd_pct", ch->routed_dropped ?
					 100 * ch->routed_crowd : 0);
	return o;
}

/* {"kind": "rounds", "shared links" or --budget's "covering plan",
 * "why": the rest of the text}. */
static json_object *schedule(const struct cxd_sweep_res *r)
{
	static const struct cxd_sched_choice none = {
		.why = CXD_SCHED_WHY_NONE };
	const struct cxd_sched_choice *ch = r->schedule ? r->schedule : &none;
	const char *kind = cxd_out_sched_kind(ch);
	json_object *o = json_object_new_object();
	char say[CXD_OUT_SCHED_LEN];
	size_t skip = kind[0] ? strlen(kind) + 2 : 0; /* "KIND: " */

	if (r->budget) { /* no schedule chosen: the plan's own rounds */
		cxd_json_add_str(o, "kind", "covering plan");
		cxd_json_add_str(o, "why",
				 "--budget: the plan's rounds one after the "
				 "other, a round's pairs at once (the budget "
				 "object)");
		return o;
	}
	cxd_out_sched(ch, say, sizeof(say));
	cxd_json_add_str(o, "kind", kind);
	cxd_json_add_str(o, "why", strlen(say) >= skip ? say + skip : "");
	if (ch->routed || ch->routed_dropped)
		json_object_object_add(o, "routed", routed(ch));
	return o;
}

/* {"pairs": measured again, "metrics": the matrices' names}. */
static json_object *retest(const struct cxd_sweep_judged *j)
{
	json_object *o = json_object_new_object(),
		    *m = json_object_new_array();

	cxd_json_add_int(o, "pairs", j->retest_pairs);
	for (int k = CXD_M_BW; j->retest_pairs && k <= CXD_M_LAT; k++)
		if (j->retest_metrics & (1u << k))
			json_object_array_add(m, json_object_new_string(
				cxd_out_metric_key((enum cxd_metric) k)));
	json_object_object_add(o, "metrics", m);
	return o;
}

/* The main pass's CPU waits: measurements counted from each end, those
 * over the limit, the limit, and whether they were too many to vouch. */
static json_object *cpu_wait(const struct cxd_sweep_judged *j)
{
	json_object *o = json_object_new_object();

	cxd_json_add_int(o, "sides", j->sides);
	cxd_json_add_int(o, "busy_sides", j->busy_sides);
	cxd_json_add_num(o, "limit_pct", 100 * CXD_JUDGE_BUSY_MAX);
	json_object_object_add(o, "too_busy", json_object_new_boolean(
				       cxd_judge_too_busy(j)));
	return o;
}

static json_object *rounds(const struct cxd_sweep_rounds *s)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < s->nrounds; i++) {
		const struct cxd_pair *p = s->round_pairs + s->round_first[i];
		json_object *o = json_object_new_object();
		json_object *pairs = json_object_new_array();

		for (int j = 0; j < s->round_count[i]; j++) {
			json_object *pr = json_object_new_array();

			json_object_array_add(pr, json_object_new_int(p[j].a));
			json_object_array_add(pr, json_object_new_int(p[j].b));
			json_object_array_add(pairs, pr);
		}
		cxd_json_add_int(o, "round", i);
		json_object_object_add(o, "pairs", pairs);
		cxd_json_add_num(o, "seconds", s->round_s[i]);
		json_object_array_add(a, o);
	}
	return a;
}

/* The document's head: who measured, with what, by which schedule. */
static void add_run(json_object *d, const struct cxd_sweep_res *r)
{
	const struct cxd_sweep_run *run = &r->run;

	cxd_json_add_str(d, "engine", run->engine);
	/* libfabric's version where it measured, else the MPI library's */
	json_object_object_add(d, strcmp(run->engine, "fabric") == 0 ?
			       "libfabric" : "mpi_library",
			       json_object_new_string(run->engine_version));
	cxd_json_add_str(d, "provider", run->provider);
	json_object_object_add(d, "schedule", schedule(r));
	if (r->budget)
		json_object_object_add(d, "budget", cxd_out_budget_json(r));
	if (r->in.topo)
		json_object_object_add(d, "widths", cxd_out_json_widths(r));
	json_object_object_add(d, "options", options(r));
	json_object_object_add(d, "ranks", ranks(r));
}

/* Every link's figures, their statistics and what they were judged by. */
static void add_links(json_object *d, const struct cxd_sweep_res *r)
{
	const struct cxd_sweep_links *l = &r->links;
	int n = r->run.n;

	/* rank 0 gathers the matrices whenever --json is given */
	json_object_object_add(d, "bw_mb_s", matrix(l->bw, n));
	json_object_object_add(d, "lat_us", matrix(l->lat, n));
	json_object_object_add(d, "bw_spread_pct", matrix(l->spread[0], n));
	json_object_object_add(d, "lat_spread_pct", matrix(l->spread[1], n));
	json_object_object_add(d, "link_stats", cxd_out_json_link_stats(r));
	json_object_object_add(d, "resolution", cxd_out_json_resolution(r));
}

/* What stood out: the retest, the outliers, the suspects, the capacity
 * pass, the baseline. */
static void add_findings(json_object *d, const struct cxd_sweep_res *r)
{
	const struct cxd_sweep_outliers *x = &r->outliers;
	json_object *lat;

	json_object_object_add(d, "retest", retest(&r->judged));
	json_object_object_add(d, "cpu_wait", cpu_wait(&r->judged));
	json_object_object_add(d, "outliers", outliers(x->out, x->nout));
	/* Retested while a rank waited for a CPU: not judged. */
	json_object_object_add(d, "unjudged", outliers(x->busy, x->nbusy));
	/* Above CXD_SWEEP_LISTED per rank, the lists are cut: the counts. */
	json_object_object_add(d, "outliers_total",
			       json_object_new_int64((int64_t) x->nout_all));
	json_object_object_add(d, "unjudged_total",
			       json_object_new_int64((int64_t) x->nbusy_all));
	json_object_object_add(d, "suspects", cxd_out_json_suspects(r));
	if (r->cap)
		json_object_object_add(d, "capacity", cxd_out_cap_json(r));
	lat = cxd_out_lat_json(r);
	if (lat != NULL)
		json_object_object_add(d, "lat_fit", lat);
	if (r->in.base)
		json_object_object_add(d, "baseline",
				       cxd_out_json_baseline(r));
}

static void json_body(const void *d, FILE *f)
{
	fputs(json_object_to_json_string_ext((json_object *) d,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), f);
}

int cxd_out_json(const struct cxd_sweep_res *r, const char *path,
		 char *err, size_t errlen)
{
	json_object *d = json_object_new_object();
	int ret = cxd_stamp_json(d, "sweep", CXD_SCHEMA_SWEEP, "cxi_sweep",
				 &r->run.cfg->out.stamp);

	if (ret != 0) {
		json_object_put(d);
		snprintf(err, errlen, "cannot write the JSON file '%s': %s",
			 path, strerror(-ret));
		return -EIO;
	}
	add_run(d, r);
	add_links(d, r);
	add_findings(d, r);
	cxd_json_add_str(d, "verdict", cxd_verdict_name(r->verdict));
	json_object_object_add(d, "rounds", rounds(&r->rounds));
	cxd_json_add_num(d, "seconds", r->rounds.total_s);
	ret = cxd_out_write(path, "JSON", json_body, d, err, errlen);
	json_object_put(d);
	return ret;
}

/* A name as an RFC 4180 field: as it is, unless it holds a comma, a
 * double quote or a line break (never in a name that came in: names.h);
 * then in double quotes, each of its double quotes doubled. */
static void csv_field(FILE *f, const char *s)
{
	fputc(',', f);
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_body(const void *arg, FILE *f)
{
	const struct cxd_sweep_res *r = arg;
	const struct cxd_sweep_rank *x = r->run.ranks;

	/* The NICs last: scripts reading the first six columns go on. */
	fprintf(f, "src,dst,src_host,dst_host,bw_mb_s,lat_us,src_nic,"
		"dst_nic\n");
	for (int i = 0; i < r->run.n; i++)
		for (int j = 0; j < r->run.n; j++) {
			size_t k = (size_t) i * r->run.n + j;

			/* --budget measured its plan's links only */
			if (i == j || (r->budget && !isfinite(r->links.bw[k]) &&
				       !isfinite(r->links.lat[k])))
				continue;
			fprintf(f, "%d,%d", i, j);
			csv_field(f, x[i].host);
			csv_field(f, x[j].host);
			fprintf(f, ",%.2f,%.2f", r->links.bw[k],
				r->links.lat[k]);
			csv_field(f, x[i].nic);
			csv_field(f, x[j].nic);
			fputc('\n', f);
		}
}

int cxd_out_csv(const struct cxd_sweep_res *r, const char *path,
		char *err, size_t errlen)
{
	return cxd_out_write(path, "CSV", csv_body, r, err, errlen);
}

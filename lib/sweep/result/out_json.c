/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's verdict in JSON: resolution, suspects, baseline ratios;
 * the shared links' widths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/json_num.h"
#include "sweep/model/baseline.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/judge/judge_suspects.h"
#include "out_cap.h"
#include "out_json.h"
#include "out_text.h"
#include "sweep/model/topo_types.h"
#include "sweep/model/topo_add.h"

static const char *const res_key[2] = { "bw", "lat" };

const char *cxd_out_metric_key(enum cxd_metric m)
{
	return m == CXD_M_BW ? "bw_mb_s" : "lat_us";
}

/* Each class's links alone against their passes: {"across": {"pct":,
 * "links":}, ...}, the classes sampled only. */
static json_object *crowd_classes(const struct cxd_tol *t)
{
	json_object *o = json_object_new_object();

	for (int c = 0; c < CXD_LC_N; c++) {
		json_object *x;

		if (!isfinite(t->crowd_of[c]))
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "pct",
				       cxd_json_num(100 * t->crowd_of[c]));
		json_object_object_add(x, "links", json_object_new_int(
						       t->crowd_pairs_of[c]));
		json_object_object_add(o, cxd_lclass_key((enum cxd_lclass) c),
				       x);
	}
	return o;
}

/* A metric's typical link per class: {"switch": us or MB/s, ...},
 * known ones. */
static json_object *classes(const double *of)
{
	json_object *o = json_object_new_object();

	for (int c = 0; c < CXD_LC_N; c++)
		if (isfinite(of[c]))
			json_object_object_add(o, cxd_lclass_key(
					       (enum cxd_lclass) c),
					       cxd_json_num(of[c]));
	return o;
}

/* Bandwidth's classes held to a pair on one switch too (judge_full.h):
 * ["group", "across"], or NULL when none. */
static json_object *full_classes(const struct cxd_rules *r)
{
	json_object *a = NULL;

	for (int c = 0; r->sw && c < CXD_LC_N; c++) {
		if (!r->bw_full[c])
			continue;
		if (a == NULL)
			a = json_object_new_array();
		json_object_array_add(a, json_object_new_string(
				      cxd_lclass_key((enum cxd_lclass) c)));
	}
	return a;
}

json_object *cxd_out_json_resolution(const struct cxd_sweep_res *r)
{
	json_object *o = json_object_new_object();

	const struct cxd_rules *rules = r->judged.rules;

	for (int m = 0; m < 2; m++) {
		const struct cxd_tol *t = &rules->tol[m];
		json_object *x = json_object_new_object();
		json_object *full = m == CXD_M_BW ? full_classes(rules) :
						    NULL;

		json_object_object_add(x, "typical",
				       cxd_json_num(rules->typical[m]));
		if (full) {
			json_object_object_add(x, "full_rate_classes", full);
			json_object_object_add(x, "one_switch_typical",
					       cxd_json_num(rules->bw_typical_of[
						       CXD_LC_SWITCH]));
		}
		if (rules->sw && (m == CXD_M_LAT || rules->bw_by_class))
			json_object_object_add(x, "typical_by_class", classes(
				m == CXD_M_LAT ? rules->lat_typical_of :
						 rules->bw_typical_of));
		json_object_object_add(x, "noise_pct",
				       cxd_json_num(100 * t->noise));
		json_object_object_add(x, "tolerance_pct",
				       cxd_json_num(100 * t->tol));
		json_object_object_add(x, "explicit",
				       json_object_new_boolean(t->explicit_));
		json_object_object_add(x, "poor",
				       json_object_new_boolean(t->poor));
		if (isfinite(t->crowd)) {
			/* pairs alone against their rounds (calibration) */
			json_object_object_add(x, "alone_vs_round_pct",
					       cxd_json_num(100 * t->crowd));
			json_object_object_add(x, "alone_pairs",
					       json_object_new_int(
						       t->crowd_pairs));
			json_object_object_add(x, "crowded",
					       json_object_new_boolean(
						       t->crowded));
			json_object_object_add(x, "alone_by_class",
					       crowd_classes(t));
		}
		json_object_object_add(o, res_key[m], x);
	}
	return o;
}

json_object *cxd_out_json_link_stats(const struct cxd_sweep_res *r)
{
	json_object *o = json_object_new_object();

	for (int m = 0; m < 2; m++) {
		const struct cxd_sweep_stat *st = &r->links.stat[m];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "min", cxd_json_num(st->min));
		json_object_object_add(x, "p5", cxd_json_num(st->p5));
		json_object_object_add(x, "median", cxd_json_num(st->med));
		json_object_object_add(x, "p95", cxd_json_num(st->p95));
		json_object_object_add(x, "max", cxd_json_num(st->max));
		json_object_object_add(
			o, cxd_out_metric_key((enum cxd_metric) m), x);
	}
	return o;
}

/* The components no measured pair tells apart from suspect s. */
static json_object *alike(const struct cxd_sweep_res *r,
			  const struct cxd_suspect *s)
{
	json_object *a = json_object_new_array();
	char name[CXD_OUT_NAME_LEN];

	for (int i = 0; i < s->nalike; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string(
			cxd_judge_kind(s->alike[i].kind)->name));
		cxd_out_alike_name(r, &s->alike[i], name, sizeof(name));
		json_object_object_add(o, "name", json_object_new_string(name));
		json_object_array_add(a, o);
	}
	return a;
}

/* The ranks suspect s covers. */
static json_object *covered(const struct cxd_sweep_res *r,
			    const struct cxd_suspect *s)
{
	json_object *ranks = json_object_new_array();

	for (int k = 0; k < r->run.n; k++)
		if (cxd_judge_rank_suspect(s, 1, k, r->in.tmap))
			json_object_array_add(ranks, json_object_new_int(k));
	return ranks;
}

/* A rank suspect's own fields. */
static void rank_fields(const struct cxd_sweep_res *r, int rank,
			json_object *o)
{
	const struct cxd_sweep_rank *x = &r->run.ranks[rank];

	json_object_object_add(o, "rank", json_object_new_int(rank));
	json_object_object_add(o, "host", json_object_new_string(x->host));
	json_object_object_add(o, "nic", json_object_new_string(x->nic));
}

/* A bundle's two groups. */
/* A pair's two sets: a bundle's groups, a link's switches. */
static json_object *pair_sets(const struct cxd_sweep_res *r,
			      const struct cxd_suspect *s, bool sw)
{
	json_object *gs = json_object_new_array();
	const struct cxd_topo *t = r->in.topo;

	json_object_array_add(gs, json_object_new_string(
		sw ? t->switch_name[s->id] : t->group_name[s->id]));
	json_object_array_add(gs, json_object_new_string(
		sw ? t->switch_name[s->id2] : t->group_name[s->id2]));
	return gs;
}

static json_object *suspect(const struct cxd_sweep_res *r,
			    const struct cxd_suspect *s)
{
	const struct cxd_suspect_row *row = cxd_judge_kind(s->kind);
	json_object *o = json_object_new_object();
	char name[CXD_OUT_NAME_LEN];

	json_object_object_add(o, "kind", json_object_new_string(row->name));
	cxd_out_suspect_name(r, s, name, sizeof(name));
	json_object_object_add(o, "name", json_object_new_string(name));
	if (row->shape == CXD_SHAPE_RANK)
		rank_fields(r, s->id, o);
	json_object_object_add(o, "ranks", covered(r, s));
	json_object_object_add(o, "metric", json_object_new_string(
				       cxd_out_metric_key(s->metric)));
	json_object_object_add(o, "bad", json_object_new_int(s->bad));
	json_object_object_add(o, "links", json_object_new_int(s->links));
	if (row->shape == CXD_SHAPE_PAIR)
		json_object_object_add(o, row->level == CXD_LEVEL_SWITCH ?
				       "switches" : "groups",
				       pair_sets(r, s, row->level ==
						 CXD_LEVEL_SWITCH));
	if (row->shape == CXD_SHAPE_CAP)
		cxd_out_cap_json_suspect(r, s, o);
	if (s->kind == CXD_S_SWITCH && cxd_judge_switch_links(s->id2))
		json_object_object_add(o, "switch_links", json_object_new_string(
			s->id2 == CXD_SWL_GLOBAL ? "global" : "local"));
	if (s->lat_excess > 0)
		json_object_object_add(o, "excess_us",
				       cxd_json_num(s->lat_excess));
	if (s->nalike)
		json_object_object_add(o, "alike", alike(r, s));
	if (s->more_alike)
		json_object_object_add(o, "alike_more",
				       json_object_new_int(s->more_alike));
	if (s->maybe)
		json_object_object_add(o, "maybe", json_object_new_boolean(1));
	if (row->inside) {
		json_object_object_add(o, "bad_inside",
				       json_object_new_int(s->bad_in));
		json_object_object_add(o, "inside",
				       json_object_new_int(s->in));
	}
	return o;
}

json_object *cxd_out_json_suspects(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->suspects.n; i++)
		json_object_array_add(a, suspect(r, &r->suspects.list[i]));
	return a;
}

/* This run over the baseline, per link: the third heatmap. */
static json_object *ratio(const struct cxd_sweep_res *r, enum cxd_metric m)
{
	const double *now = m == CXD_M_BW ? r->links.bw : r->links.lat;
	const double *was = r->judged.rules->base[m];
	json_object *rows = json_object_new_array();

	for (int i = 0; i < r->run.n; i++) {
		json_object *row = json_object_new_array();

		for (int j = 0; j < r->run.n; j++) {
			size_t k = (size_t) i * r->run.n + j;

			json_object_array_add(row, was && was[k] > 0 ?
					      cxd_json_num(now[k] / was[k]) :
					      NULL);
		}
		json_object_array_add(rows, row);
	}
	return rows;
}

json_object *cxd_out_json_baseline(const struct cxd_sweep_res *r)
{
	const struct cxd_baseline *b = r->in.base;
	const struct cxd_rules *rules = r->judged.rules;
	json_object *o = json_object_new_object();
	json_object *notes = json_object_new_array();

	json_object_object_add(o, "file", json_object_new_string(b->path));
	json_object_object_add(o, "ranks", json_object_new_int(b->n));
	json_object_object_add(o, "matched", json_object_new_int(b->matched));
	json_object_object_add(o, "matched_by", json_object_new_string(b->by));
	for (int i = 0; i < b->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(b->notes[i]));
	json_object_object_add(o, "differences", notes);
	/* Per metric: judged against it, and by what tolerance (the wider of
	 * the two runs'); not when it differs or was itself too noisy. */
	for (int m = 0; m < 2; m++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_compared", m ? "lat" : "bw");
		json_object_object_add(o, key, json_object_new_boolean(
			rules->base[m] && !rules->base_poor[m]));
		snprintf(key, sizeof(key), "%s_tolerance_pct", m ? "lat" : "bw");
		json_object_object_add(o, key, cxd_json_num(100 *
			cxd_judge_baseline_tol(rules, (enum cxd_metric) m)));
	}
	json_object_object_add(o, "bw_ratio", ratio(r, CXD_M_BW));
	json_object_object_add(o, "lat_ratio", ratio(r, CXD_M_LAT));
	return o;
}

/* One kind's width: pairs (null: unknown), where it came from, and the
 * sample measured or why none was. */
static json_object *width(const struct cxd_topo *t, int k)
{
	static const char *const src[] = {
		[CXD_TOPO_WS_STATED] = "stated",
		[CXD_TOPO_WS_MEASURED] = "measured",
		[CXD_TOPO_WS_UNKNOWN] = "unknown",
	};
	const struct cxd_topo_width *w = &t->width[k];
	char (*name)[CXD_TOPO_NAME] = k == CXD_TOPO_W_GLOBAL ? t->group_name :
				      t->switch_name;
	json_object *o = json_object_new_object(), *ab;

	json_object_object_add(o, "pairs", w->pairs > 0 ?
			       json_object_new_int(w->pairs) : NULL);
	json_object_object_add(o, "source", json_object_new_string(
				       src[w->src]));
	if (w->src == CXD_TOPO_WS_STATED) {
		json_object_object_add(o, "line", json_object_new_int(w->line));
		return o;
	}
	ab = json_object_new_array();
	json_object_array_add(ab, json_object_new_string(name[w->a]));
	json_object_array_add(ab, json_object_new_string(name[w->b]));
	json_object_object_add(o, "between", ab);
	if (w->src == CXD_TOPO_WS_UNKNOWN) {
		json_object_object_add(o, "why", json_object_new_string(w->why));
		return o;
	}
	json_object_object_add(o, "tried", json_object_new_int(w->tried));
	json_object_object_add(o, "slowest_pct",
			       cxd_json_num(100.0 * w->slowest));
	json_object_object_add(o, "at_least",
			       json_object_new_boolean(w->at_least));
	return o;
}

json_object *cxd_out_json_widths(const struct cxd_sweep_res *r)
{
	json_object *o = json_object_new_object();

	for (int k = 0; r->in.topo && k < CXD_TOPO_W_KINDS; k++)
		if (r->in.topo->width[k].src != CXD_TOPO_WS_NONE)
			json_object_object_add(o, cxd_topo_wkind_names[k],
					       width(r->in.topo, k));
	return o;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --budget's text and JSON (out_budget.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_num.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/model/topo_types.h"
#include "out_budget.h"

/* The text lists this many classes or uncovered components, then
 * counts the rest (the JSON lists them all). */
#define TEXT_LIST 6

static const char *const kind_word[CXD_COVER_KINDS] = {
	"NICs", "link lines", "bundles", "switches"
};

void cxd_out_budget_comp(const struct cxd_sweep_res *r, int comp,
			 char *buf, size_t len)
{
	const struct cxd_topo *t = r->in.topo;
	struct cxd_alike a;

	cxd_judge_budget_ids(r->budget->plan, r->in.tmap, comp, &a);
	if (a.kind == CXD_S_RANK)
		snprintf(buf, len, "%s (rank %d)", r->run.ranks[a.id].host,
			 a.id);
	else if (a.kind == CXD_S_SWITCH)
		snprintf(buf, len, "switch %s", t->switch_name[a.id]);
	else if (a.kind == CXD_S_LINK)
		snprintf(buf, len, "the links between switches %s and %s",
			 t->switch_name[a.id], t->switch_name[a.id2]);
	else
		snprintf(buf, len, "the links between groups %s and %s",
			 t->group_name[a.id], t->group_name[a.id2]);
}

long cxd_out_budget_links(const struct cxd_sweep_res *r)
{
	long n = r->run.n;

	return r->budget ? 2L * r->budget->plan->npair : n * (n - 1);
}

static int by_int(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

/* The sure crossings of every link line, sorted; their count. */
static int link_probes(const struct cxd_cover_plan *p, int *v)
{
	int k = 0;

	for (int c = 0; c < p->ncomp; c++)
		if (p->comp[c].kind == CXD_COVER_LINK)
			v[k++] = p->comp[c].sure;
	qsort(v, (size_t) k, sizeof(int), by_int);
	return k;
}

/* "Budget:" and the plan: its kind, pairs of all, rounds. */
static void head(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_budget_res *b = r->budget;
	const struct cxd_cover_plan *p = b->plan;
	long all = (long) r->run.n * (r->run.n - 1) / 2;

	fprintf(out, "Budget: %g s: ", b->budget_s);
	if (b->ring)
		fprintf(out, "ring shifts 1 to %d (%s: no routes to choose "
			"pairs from; it cannot localize beyond NICs)",
			b->shifts, b->why);
	else
		fprintf(out, "a covering plan from the routes (every "
			"component crossed for sure by %d pairs whose routes "
			"differ)", p->k);
	fprintf(out, ": %d of %ld pairs (%.1f %%) in %d rounds, %d turns "
		"of up to %d pairs\n", p->npair, all,
		all > 0 ? 100.0 * p->npair / (double) all : 0.0, p->nround,
		b->slots, r->rounds.pairs_at_once);
}

/* Components by kind, those crossed for sure; probes per link line. */
static void covered(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_cover_plan *p = r->budget->plan;
	int tot[CXD_COVER_KINDS] = { 0 }, cov[CXD_COVER_KINDS] = { 0 };
	int *v = malloc(((size_t) p->ncomp + 1) * sizeof(int)), nl;
	const char *sep = "";

	for (int c = 0; c < p->ncomp; c++) {
		tot[p->comp[c].kind]++;
		cov[p->comp[c].kind] += p->comp[c].sure > 0;
	}
	fprintf(out, "  Covered for sure: ");
	for (int k = 0; k < CXD_COVER_KINDS; k++, sep = ", ")
		if (tot[k])
			fprintf(out, "%s%d of %d %s", sep, cov[k], tot[k],
				kind_word[k]);
	fprintf(out, "\n");
	nl = v ? link_probes(p, v) : 0;
	if (nl > 0)
		fprintf(out, "  Probes per link line (pairs crossing it for "
			"sure): min %d, median %d, max %d\n", v[0],
			v[nl / 2], v[nl - 1]);
	free(v);
}

/* What no outcome tells apart: the classes of two or more. */
static void alike(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_cover_plan *p = r->budget->plan;
	char name[CXD_OUT_NAME_LEN];
	int shown = 0;

	fprintf(out, "  Told apart: %d component%s each named alone; %d "
		"class%s of several cannot be told apart%s", p->identifiable_one,
		p->identifiable_one == 1 ? "" : "s", p->nalike,
		p->nalike == 1 ? "" : "es", p->nalike ? ":" : "");
	for (int c = 0; c < p->ncls && shown < TEXT_LIST; c++) {
		if (p->cls_at[c + 1] - p->cls_at[c] < 2)
			continue;
		fprintf(out, "%s {", shown++ ? ";" : "");
		for (int k = p->cls_at[c]; k < p->cls_at[c + 1]; k++) {
			cxd_out_budget_comp(r, p->member[k], name,
					    sizeof(name));
			fprintf(out, "%s%s", k > p->cls_at[c] ? ", " : "",
				name);
		}
		fprintf(out, "}");
	}
	if (p->nalike > shown)
		fprintf(out, "; %d more (--json lists them)",
			p->nalike - shown);
	fprintf(out, "\n");
}

/* What no chosen pair crosses for sure. */
static void uncovered(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_cover_plan *p = r->budget->plan;
	char name[CXD_OUT_NAME_LEN];
	int shown = 0;

	if (p->nuncovered == 0)
		return;
	fprintf(out, "  Not crossed for sure: %d (%d only ever maybe, one "
		"of several equal ways; %d by no pair of the job):",
		p->nuncovered, p->nmaybe, p->nnone);
	for (int c = 0; c < p->ncomp && shown < TEXT_LIST; c++) {
		if (p->comp[c].sure > 0)
			continue;
		cxd_out_budget_comp(r, c, name, sizeof(name));
		fprintf(out, "%s %s (%.1f crossings expected)",
			shown++ ? "," : "", name, p->comp[c].maybe);
	}
	if (p->nuncovered > shown)
		fprintf(out, ", %d more", p->nuncovered - shown);
	fprintf(out, "\n");
}

/* The time against the budget, and what the naming explained. */
static void time_named(const struct cxd_sweep_res *r, FILE *out)
{
	static const char *const noun[2] = { "bandwidth", "latency" };
	const struct cxd_budget_res *b = r->budget;

	fprintf(out, "  Time: %.3g s of the budget %g s%s (foreseen %.3g s "
		"before the plan: one pair %.3g s, timed alone)\n", b->taken_s,
		b->budget_s, b->taken_s > b->budget_s ?
		", over it (the foresight counts no retest of flagged pairs)" :
		"",
		b->estimate_s, b->pair_s);
	for (int m = 0; m < 2; m++) {
		const struct cxd_budget_named *x = &b->named[m];

		if (x->nbad == 0)
			continue;
		fprintf(out, "  Named from %s: %d bad pair%s, %d crossing a "
			"suspect for sure, %d maybe (one of their ways), %d "
			"unexplained\n", noun[m], x->nbad,
			x->nbad == 1 ? "" : "s", x->nsure, x->nmaybe,
			x->nunexplained);
	}
}

void cxd_out_budget_text(const struct cxd_sweep_res *r, FILE *out)
{
	if (r->budget == NULL)
		return;
	head(r, out);
	covered(r, out);
	alike(r, out);
	uncovered(r, out);
	time_named(r, out);
}

/* {"kind": ..., "name": ...} of a component. */
static json_object *comp_json(const struct cxd_sweep_res *r, int c)
{
	json_object *o = json_object_new_object();
	char name[CXD_OUT_NAME_LEN];
	struct cxd_alike a;

	cxd_judge_budget_ids(r->budget->plan, r->in.tmap, c, &a);
	cxd_out_budget_comp(r, c, name, sizeof(name));
	cxd_json_add_str(o, "kind", cxd_judge_kind(a.kind)->name);
	cxd_json_add_str(o, "name", name);
	return o;
}

/* Per kind: its components, those crossed for sure. */
static json_object *kinds_json(const struct cxd_cover_plan *p)
{
	static const char *const key[CXD_COVER_KINDS] = {
		"nic", "link", "bundle", "switch"
	};
	int tot[CXD_COVER_KINDS] = { 0 }, cov[CXD_COVER_KINDS] = { 0 };
	json_object *o = json_object_new_object();

	for (int c = 0; c < p->ncomp; c++) {
		tot[p->comp[c].kind]++;
		cov[p->comp[c].kind] += p->comp[c].sure > 0;
	}
	for (int k = 0; k < CXD_COVER_KINDS; k++) {
		json_object *x = json_object_new_object();

		cxd_json_add_int(x, "total", tot[k]);
		cxd_json_add_int(x, "covered", cov[k]);
		json_object_object_add(o, key[k], x);
	}
	return o;
}

/* Every link line: its name, sure crossings and those expected maybe;
 * or (uncovered) every component no pair crosses for sure: how it may
 * be reached and the crossings expected. */
static json_object *comps_json(const struct cxd_sweep_res *r, bool uncovered)
{
	const struct cxd_cover_plan *p = r->budget->plan;
	json_object *a = json_object_new_array();

	for (int c = 0; c < p->ncomp; c++) {
		const struct cxd_cover_comp *x = &p->comp[c];
		json_object *o;

		if (uncovered ? x->sure > 0 : x->kind != CXD_COVER_LINK)
			continue;
		o = comp_json(r, c);
		if (uncovered)
			cxd_json_add_str(o, "reach",
					 x->reach == CXD_COVER_MAYBE ? "maybe" :
								       "none");
		else
			cxd_json_add_int(o, "sure", x->sure);
		cxd_json_add_num(o, "maybe", x->maybe);
		json_object_array_add(a, o);
	}
	return a;
}

/* The classes of several, their members. */
static json_object *alike_json(const struct cxd_sweep_res *r)
{
	const struct cxd_cover_plan *p = r->budget->plan;
	json_object *a = json_object_new_array();

	for (int c = 0; c < p->ncls; c++) {
		json_object *m;

		if (p->cls_at[c + 1] - p->cls_at[c] < 2)
			continue;
		m = json_object_new_array();
		for (int k = p->cls_at[c]; k < p->cls_at[c + 1]; k++)
			json_object_array_add(m, comp_json(r, p->member[k]));
		json_object_array_add(a, m);
	}
	return a;
}


static json_object *named_json(const struct cxd_budget_res *b)
{
	static const char *const key[2] = { "bw_mb_s", "lat_us" };
	json_object *o = json_object_new_object();

	for (int m = 0; m < 2; m++) {
		const struct cxd_budget_named *x = &b->named[m];
		json_object *e = json_object_new_object();

		cxd_json_add_int(e, "bad", x->nbad);
		cxd_json_add_int(e, "sure", x->nsure);
		cxd_json_add_int(e, "maybe", x->nmaybe);
		cxd_json_add_int(e, "unexplained", x->nunexplained);
		json_object_object_add(o, key[m], e);
	}
	return o;
}

/* The plan's sizes: pairs of all, rounds, turns, k, shifts. */
static void sizes_json(const struct cxd_sweep_res *r, json_object *o)
{
	const struct cxd_budget_res *b = r->budget;
	const struct cxd_cover_plan *p = b->plan;
	long n = r->run.n;

	cxd_json_add_str(o, "plan", b->ring ? "ring" : "cover");
	json_object_object_add(o, "why", b->ring ?
			       json_object_new_string(b->why) : NULL);
	cxd_json_add_str(o, "localizes", b->ring ? "nics" : "components");
	json_object_object_add(o, "shifts", b->ring ?
			       json_object_new_int(b->shifts) : NULL);
	cxd_json_add_int(o, "k", p->k);
	cxd_json_add_int(o, "pairs", p->npair);
	json_object_object_add(o, "all_pairs",
			       json_object_new_int64(n * (n - 1) / 2));
	json_object_object_add(o, "links_measured", json_object_new_int64(
				       cxd_out_budget_links(r)));
	cxd_json_add_int(o, "rounds", p->nround);
	cxd_json_add_int(o, "turns", b->slots);
}

json_object *cxd_out_budget_json(const struct cxd_sweep_res *r)
{
	const struct cxd_budget_res *b = r->budget;
	const struct cxd_cover_plan *p;
	json_object *o;

	if (b == NULL)
		return NULL;
	p = b->plan;
	o = json_object_new_object();
	cxd_json_add_num(o, "budget_s", b->budget_s);
	cxd_json_add_num(o, "estimate_s", b->estimate_s);
	cxd_json_add_num(o, "pair_s", b->pair_s);
	cxd_json_add_num(o, "taken_s", b->taken_s);
	json_object_object_add(o, "over_budget", json_object_new_boolean(
				       b->taken_s > b->budget_s));
	sizes_json(r, o);
	json_object_object_add(o, "components", kinds_json(p));
	json_object_object_add(o, "probes_per_link", comps_json(r, false));
	cxd_json_add_int(o, "identifiable_one", p->identifiable_one);
	json_object_object_add(o, "identifiable_two",
			       p->identifiable_two < 0 ? NULL :
			       json_object_new_boolean(p->identifiable_two));
	json_object_object_add(o, "alike", alike_json(r));
	json_object_object_add(o, "uncovered", comps_json(r, true));
	json_object_object_add(o, "named", named_json(b));
	return o;
}

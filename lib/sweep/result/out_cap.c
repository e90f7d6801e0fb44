/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's capacity pass in the text and metrics (out_cap.h). */
#include <math.h>
#include <string.h>

#include "base/openmetrics.h"
#include "sweep/judge/judge_kinds.h"
#include "out_cap.h"

/* A unit of each scope, several, and where. */
static const char *const unit_word[CXD_CAP_SCOPES][3] = {
	{ "bundle", "bundles", " between groups" },
	{ "switch pair", "switch pairs", " inside groups" },
	{ "leaf pair", "leaf pairs", "" },
};

const char *cxd_out_cap_part(const struct cxd_sweep_res *r,
			     enum cxd_cap_scope s, int id)
{
	if (id < 0 || r->in.topo == NULL)
		return "";
	return s == CXD_CAP_BUNDLE ? r->in.topo->group_name[id] :
	       r->in.topo->switch_name[id];
}

void cxd_out_cap_name(const struct cxd_sweep_res *r,
		      const struct cxd_cap_found *f, char *buf, size_t len)
{
	const char *a = cxd_out_cap_part(r, f->scope, f->a);
	const char *b = cxd_out_cap_part(r, f->scope, f->b);

	switch (f->scope * 2 + f->part) {
	case CXD_CAP_BUNDLE * 2:
		snprintf(buf, len, "the links between groups %s and %s", a, b);
		break;
	case CXD_CAP_BUNDLE * 2 + 1:
		snprintf(buf, len, "the global links of group %s", a);
		break;
	case CXD_CAP_SWITCHES * 2:
		snprintf(buf, len, "the links between switches %s and %s", a,
			 b);
		break;
	case CXD_CAP_SWITCHES * 2 + 1:
		snprintf(buf, len, "the links of switch %s inside its group",
			 a);
		break;
	case CXD_CAP_LEAVES * 2:
		snprintf(buf, len, "the uplinks of leaf %s or leaf %s", a, b);
		break;
	default:
		snprintf(buf, len, "the uplinks of leaf %s", a);
		break;
	}
}

/* "the typical bundle carries" or "its stated width (3 pairs) carries";
 * a suspect's own (unit), from the routes' model: "its routes say it
 * carries" (the unit's own expected, not the typical one's) */
static void want_words(const struct cxd_sweep_res *r, enum cxd_cap_scope s,
		       bool unit, FILE *out)
{
	const struct cxd_cap_class *cl = &r->cap->plan->cls[s];

	if (unit && cl->from_model)
		fprintf(out, "its routes say it carries");
	else if (unit && cl->width_routes)
		fprintf(out, "its stated width (%d pair%s), over its pairs' "
			"routes, carries", cl->width,
			cl->width == 1 ? "" : "s");
	else if (cl->from_width)
		fprintf(out, "its stated width (%d pair%s) carries", cl->width,
			cl->width == 1 ? "" : "s");
	else
		fprintf(out, "the typical %s carries", unit_word[s][0]);
}

void cxd_out_cap_suspect(const struct cxd_sweep_res *r,
			 const struct cxd_suspect *s, FILE *out)
{
	const struct cxd_cap_found *f = &r->cap->found[s->cap];
	char name[CXD_OUT_NAME_LEN];

	cxd_out_cap_name(r, f, name, sizeof(name));
	fprintf(out, "  %s: ", name);
	if (f->part)
		fprintf(out, "%d of its %d %ss short, a median ", f->nshort,
			f->units, unit_word[f->scope][0]);
	fprintf(out, "%.0f MB/s at once (%d pairs) where ", f->carried,
		f->pairs);
	want_words(r, f->scope, true, out);
	fprintf(out, " %.0f MB/s (%.0f %%)%s\n", f->expected, 100 * f->ratio,
		cxd_judge_kind(s->kind)->advice);
}

/* What the line says of the units in each state but ok and short,
 * after their count (in enum cxd_cap_state's order; NULL: nothing). */
static const char *const state_words[] = {
	[CXD_CAP_UNSURE] = "could not be judged (a busy host, or noise)",
	[CXD_CAP_SKIPPED] = "not loaded (too few hosts, or named already)",
	[CXD_CAP_NEEDS_LINKS] = "short but not judged (needs the fabric's "
				"links: --topology with link lines)",
	[CXD_CAP_ALONE] = "short alone (a hash put their pairs on few "
			  "spines; each leaf carried in full against most "
			  "others)",
	[CXD_CAP_CLEARED] = "short in the first load but not when loaded "
			    "again from other hosts",
	[CXD_CAP_ONE_WAY] = "short one way only (a hash by destination; "
			    "links down slow both ways)",
	[CXD_CAP_UNPROVEN] = "short in the first load and not cleared: "
			     "loaded again from other hosts, whose pairs "
			     "could not carry as much",
};
#define NSTATES (sizeof(state_words) / sizeof(state_words[0]))

/* One scope's line: its units, load and typical, what came short. */
static void scope_line(const struct cxd_sweep_res *r, enum cxd_cap_scope s,
		       FILE *out)
{
	const struct cxd_cap_plan *pl = r->cap->plan;
	const struct cxd_cap_class *cl = &pl->cls[s];
	int n[NSTATES] = { 0 };

	if (!cl->present)
		return;
	if (cl->load == 0) {
		fprintf(out, "  %s%s: not loaded: %s\n", unit_word[s][1],
			unit_word[s][2], cl->why);
		return;
	}
	for (int u = 0; u < pl->nunits; u++)
		if (pl->unit[u].scope == s &&
		    (size_t) pl->unit[u].state < NSTATES)
			n[pl->unit[u].state]++;
	fprintf(out, "  %d %s%s, %d pairs at once on each (width %d, %s), "
		"%d round%s x %d: ", cl->units, unit_word[s][cl->units != 1],
		unit_word[s][2], cl->load, cl->width,
		cl->stated ? "stated" : "measured", cl->nrounds,
		cl->nrounds == 1 ? "" : "s", CXD_CAP_REPS);
	want_words(r, s, false, out);
	fprintf(out, " %.0f MB/s, short below %.0f %%; %d short", cl->expected,
		100 * cl->bound, n[CXD_CAP_SHORT]);
	for (size_t k = 0; k < NSTATES; k++)
		if (n[k] && state_words[k])
			fprintf(out, ", %d %s", n[k], state_words[k]);
	fputc('\n', out);
}

void cxd_out_cap_text(const struct cxd_sweep_res *r, FILE *out)
{
	if (r->cap == NULL)
		return;
	if (!r->cap->ran) {
		fprintf(out, "Capacity: not run: %s\n", r->cap->why);
		return;
	}
	/* %.3g: a --budget run's rounds take hundredths of a second */
	fprintf(out, "Capacity: %.3g s of the run's %.3g s (%.1f %%)\n",
		r->cap->seconds, r->rounds.total_s, r->rounds.total_s > 0 ?
		100 * r->cap->seconds / r->rounds.total_s : 0.0);
	for (int s = 0; s < CXD_CAP_SCOPES; s++)
		scope_line(r, (enum cxd_cap_scope) s, out);
}

void cxd_out_cap_metrics(const struct cxd_sweep_res *r, FILE *f)
{
	const struct cxd_cap_plan *pl;

	if (r->cap == NULL || !r->cap->ran)
		return;
	pl = r->cap->plan;
	cxd_om_gauge(f, "cxi_sweep_capacity_bytes_per_second", "What a "
		     "bundle, switch pair or leaf pair carried with more pairs "
		     "at once than its width.");
	for (int u = 0; u < pl->nunits; u++) {
		const struct cxd_cap_unit *x = &pl->unit[u];

		if (x->np == 0)
			continue;
		cxd_om_sample(f, "cxi_sweep_capacity_bytes_per_second");
		fprintf(f, "scope=\"%s\",", cxd_cap_scope_name(x->scope, 0));
		cxd_om_label(f, "a", cxd_out_cap_part(r, x->scope, x->a));
		fputc(',', f);
		cxd_om_label(f, "b", cxd_out_cap_part(r, x->scope, x->b));
		fprintf(f, "} %.9g\n", x->carried * 1e6);
	}
	cxd_om_gauge(f, "cxi_sweep_capacity_suspect", "1 for each bundle, "
		     "switch or leaf the verdict names as short of capacity.");
	for (int i = 0; i < r->cap->nfound; i++) {
		const struct cxd_cap_found *x = &r->cap->found[i];
		char name[CXD_OUT_NAME_LEN];

		cxd_out_cap_name(r, x, name, sizeof(name));
		cxd_om_sample(f, "cxi_sweep_capacity_suspect");
		fprintf(f, "scope=\"%s\",", cxd_cap_scope_name(x->scope,
							       x->part));
		cxd_om_label(f, "name", name);
		fprintf(f, "} 1\n");
	}
	cxd_om_gauge(f, "cxi_sweep_capacity_duration_seconds",
		     "How long the capacity pass took.");
	fprintf(f, "cxi_sweep_capacity_duration_seconds %.3f\n",
		r->cap->seconds);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's capacity pass in the JSON (out_cap.h). */
#include <math.h>
#include <stdio.h>

#include "base/json_num.h"
#include "out_cap.h"

static const char *const state_name[] = {
	[CXD_CAP_OK] = "ok", [CXD_CAP_SHORT] = "short",
	[CXD_CAP_UNSURE] = "inconclusive", [CXD_CAP_SKIPPED] = "skipped",
	[CXD_CAP_NEEDS_LINKS] = "needs_links", [CXD_CAP_ALONE] = "short_alone",
	[CXD_CAP_CLEARED] = "cleared", [CXD_CAP_ONE_WAY] = "one_way",
};

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void add_int(json_object *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_int(v));
}

/* ["g1", "g3"], or one part. */
static json_object *parts(const struct cxd_sweep_res *r, enum cxd_cap_scope s,
			  int a, int b)
{
	json_object *p = json_object_new_array();

	json_object_array_add(p, json_object_new_string(
				      cxd_out_cap_part(r, s, a)));
	if (b >= 0)
		json_object_array_add(p, json_object_new_string(
					      cxd_out_cap_part(r, s, b)));
	return p;
}

static json_object *classes(const struct cxd_sweep_res *r)
{
	json_object *a = json_object_new_array();

	for (int s = 0; s < CXD_CAP_SCOPES; s++) {
		const struct cxd_cap_class *cl = &r->cap->plan->cls[s];
		json_object *o;

		if (!cl->present)
			continue;
		o = json_object_new_object();
		add_str(o, "scope", cxd_cap_scope_name(s, false));
		add_int(o, "units", cl->units);
		add_int(o, "load_pairs", cl->load);
		add_int(o, "width", cl->width);
		add_str(o, "width_source", cl->stated ? "stated" : "measured");
		add_int(o, "rounds", cl->nrounds);
		json_object_object_add(o, "expected_mb_s",
				       cxd_json_num(cl->expected));
		add_str(o, "expected_from", cl->from_width ? "width" :
							     "typical");
		json_object_object_add(o, "short_below",
				       cxd_json_num(cl->bound));
		if (cl->load == 0)
			add_str(o, "why", cl->why);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *units(const struct cxd_sweep_res *r)
{
	const struct cxd_cap_plan *pl = r->cap->plan;
	json_object *a = json_object_new_array();

	for (int u = 0; u < pl->nunits; u++) {
		const struct cxd_cap_unit *x = &pl->unit[u];
		json_object *o = json_object_new_object();
		char name[CXD_OUT_NAME_LEN];

		snprintf(name, sizeof(name), "%s-%s",
			 cxd_out_cap_part(r, x->scope, x->a),
			 cxd_out_cap_part(r, x->scope, x->b));
		add_str(o, "scope", cxd_cap_scope_name(x->scope, false));
		add_str(o, "name", name);
		json_object_object_add(o, "parts", parts(r, x->scope, x->a,
							 x->b));
		add_int(o, "pairs", x->np);
		json_object_object_add(o, "carried_mb_s", cxd_json_num(
					       x->np ? x->carried : NAN));
		json_object_object_add(o, "expected_mb_s", cxd_json_num(
					       x->np ? x->expected : NAN));
		json_object_object_add(o, "ratio", cxd_json_num(
					       x->np ? x->ratio : NAN));
		json_object_object_add(o, "cpu_wait", cxd_json_num(
					       x->np ? x->busy : NAN));
		add_str(o, "state", state_name[x->state]);
		json_object_array_add(a, o);
	}
	return a;
}

json_object *cxd_out_cap_json(const struct cxd_sweep_res *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ran", json_object_new_boolean(
				       r->cap->ran));
	add_str(o, "why", r->cap->why);
	json_object_object_add(o, "seconds", cxd_json_num(r->cap->seconds));
	json_object_object_add(o, "classes", r->cap->ran ? classes(r) :
					     json_object_new_array());
	json_object_object_add(o, "units", r->cap->ran ? units(r) :
					   json_object_new_array());
	return o;
}

void cxd_out_cap_json_suspect(const struct cxd_sweep_res *r,
			      const struct cxd_suspect *s, json_object *o)
{
	const struct cxd_cap_found *f = &r->cap->found[s->cap];

	add_str(o, "scope", cxd_cap_scope_name(f->scope, f->part));
	json_object_object_add(o, "parts", parts(r, f->scope, f->a,
						 f->part ? -1 : f->b));
	add_int(o, "pairs", f->pairs);
	json_object_object_add(o, "carried_mb_s", cxd_json_num(f->carried));
	json_object_object_add(o, "expected_mb_s", cxd_json_num(f->expected));
	json_object_object_add(o, "ratio", cxd_json_num(f->ratio));
	if (f->part) {
		add_int(o, "units", f->units);
		add_int(o, "units_short", f->nshort);
	}
}

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
	[CXD_CAP_UNPROVEN] = "unproven",
};

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
		cxd_json_add_str(o, "scope", cxd_cap_scope_name(s, false));
		cxd_json_add_int(o, "units", cl->units);
		cxd_json_add_int(o, "load_pairs", cl->load);
		cxd_json_add_int(o, "width", cl->width);
		cxd_json_add_str(o, "width_source",
				 cl->stated ? "stated" : "measured");
		cxd_json_add_int(o, "rounds", cl->nrounds);
		cxd_json_add_num(o, "expected_mb_s", cl->expected);
		cxd_json_add_str(o, "expected_from", cl->from_width ? "width" :
							     "typical");
		cxd_json_add_num(o, "short_below", cl->bound);
		if (cl->load == 0)
			cxd_json_add_str(o, "why", cl->why);
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
		cxd_json_add_str(o, "scope",
				 cxd_cap_scope_name(x->scope, false));
		cxd_json_add_str(o, "name", name);
		json_object_object_add(o, "parts", parts(r, x->scope, x->a,
							 x->b));
		cxd_json_add_int(o, "pairs", x->np);
		cxd_json_add_num(o, "carried_mb_s", x->np ? x->carried : NAN);
		cxd_json_add_num(o, "expected_mb_s", x->np ? x->expected : NAN);
		cxd_json_add_num(o, "ratio", x->np ? x->ratio : NAN);
		cxd_json_add_num(o, "model_median_mb_s",
				 x->np && x->mid > 0 ? x->mid : NAN);
		cxd_json_add_num(o, "cpu_wait", x->np ? x->busy : NAN);
		cxd_json_add_str(o, "state", state_name[x->state]);
		json_object_array_add(a, o);
	}
	return a;
}

json_object *cxd_out_cap_json(const struct cxd_sweep_res *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ran", json_object_new_boolean(
				       r->cap->ran));
	cxd_json_add_str(o, "why", r->cap->why);
	cxd_json_add_num(o, "seconds", r->cap->seconds);
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

	cxd_json_add_str(o, "scope", cxd_cap_scope_name(f->scope, f->part));
	json_object_object_add(o, "parts", parts(r, f->scope, f->a,
						 f->part ? -1 : f->b));
	cxd_json_add_int(o, "pairs", f->pairs);
	cxd_json_add_num(o, "carried_mb_s", f->carried);
	cxd_json_add_num(o, "expected_mb_s", f->expected);
	cxd_json_add_num(o, "ratio", f->ratio);
	if (f->part) {
		cxd_json_add_int(o, "units", f->units);
		cxd_json_add_int(o, "units_short", f->nshort);
	}
}

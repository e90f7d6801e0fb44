/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's latency fit in the outputs (out_lat.h). */
#include "base/json_num.h"
#include "sweep/judge/judge_kinds.h"
#include "out_lat.h"

void cxd_out_lat_text(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_latfit *f = r->latfit;

	if (f == NULL)
		return;
	if (f->state != CXD_LF_RAN) {
		if (f->state != CXD_LF_NONE)
			fprintf(out, "Latency fit: not made: %s\n",
				cxd_latfit_why_not(f->state));
		return;
	}
	fprintf(out, "Latency fit: each rank's excess over its switch pairs' "
		"typical, from all pairs: %d ranks fitted, a rank named "
		"beyond %.3f us (%.0f x the larger of spread %.3f us and "
		"noise %.3f us, at least %.3f us; the noise as a share of "
		"each rank's typical pair, where larger): %zu named", f->fitted,
		f->bound, CXD_LATFIT_K, f->spread, f->noise_us, f->floor,
		f->nnamed);
	if (f->busy)
		fprintf(out, "; %d not fitted (most pairs waited for a CPU)",
			f->busy);
	fprintf(out, "\n");
}

void cxd_out_lat_suspect(const struct cxd_sweep_res *r,
			 const struct cxd_suspect *s, const char *name,
			 FILE *out)
{
	fprintf(out, "  %s: high in latency: +%.3f us on each of its %d "
		"pairs (fitted from all pairs over the routes; the bound %.3f "
		"us, %d of its pairs beyond it)%s\n", name, s->lat_excess,
		s->links, s->lat_bound > 0 ? s->lat_bound :
			  r->latfit ? r->latfit->bound : 0.0, s->bad,
		cxd_judge_kind(s->kind)->advice);
}

json_object *cxd_out_lat_json(const struct cxd_sweep_res *r)
{
	const struct cxd_latfit *f = r->latfit;
	json_object *o;

	if (f == NULL || f->state == CXD_LF_NONE)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "fitted", json_object_new_boolean(
				       f->state == CXD_LF_RAN));
	if (f->state != CXD_LF_RAN) {
		json_object_object_add(o, "why", json_object_new_string(
				       cxd_latfit_why_not(f->state)));
		return o;
	}
	json_object_object_add(o, "bound_us", cxd_json_num(f->bound));
	json_object_object_add(o, "spread_us", cxd_json_num(f->spread));
	json_object_object_add(o, "noise_us", cxd_json_num(f->noise_us));
	json_object_object_add(o, "floor_us", cxd_json_num(f->floor));
	json_object_object_add(o, "ranks_fitted",
			       json_object_new_int(f->fitted));
	json_object_object_add(o, "ranks_busy", json_object_new_int(f->busy));
	json_object_object_add(o, "named",
			       json_object_new_int((int) f->nnamed));
	return o;
}

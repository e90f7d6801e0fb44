/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency over the routes in the outputs (out_lat.c): the fit's line in
 * the text, a rank it named (its excess on each of its pairs), and the
 * JSON's "lat_fit" object.
 */
#ifndef CXD_SWEEP_OUT_LAT_H
#define CXD_SWEEP_OUT_LAT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "sweep/judge/judge_lat.h"
#include "out_types.h"

/* "Latency fit:": the bound and its parts, how many ranks were fitted
 * and named, or why no fit was made; nothing when r has no fit. */
void cxd_out_lat_text(const struct cxd_sweep_res *r, FILE *out);
/* A suspect the fit named (name: as the report names it): its line in
 * the text's suspects. */
void cxd_out_lat_suspect(const struct cxd_sweep_res *r,
			 const struct cxd_suspect *s, const char *name,
			 FILE *out);
/* JSON: the "lat_fit" object (NULL: no fit in r). */
json_object *cxd_out_lat_json(const struct cxd_sweep_res *r);

#endif

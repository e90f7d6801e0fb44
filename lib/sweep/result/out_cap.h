/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's capacity pass in the outputs (out_cap.c: the text and the
 * metrics; out_cap_json.c: the JSON): what ran or why not, every unit's
 * aggregate against the typical, and a capacity suspect's name and line.
 */
#ifndef CXD_SWEEP_OUT_CAP_H
#define CXD_SWEEP_OUT_CAP_H

#include <stdio.h>

#include <json-c/json.h>

#include "sweep/capacity/capacity.h"
#include "out_types.h"

/* The words of a finding's component and the parts' names: "the links
 * between groups g1 and g3"; parts: "g1", "g3" (b: "" for one part). */
void cxd_out_cap_name(const struct cxd_sweep_res *r,
		      const struct cxd_cap_found *f, char *buf, size_t len);
const char *cxd_out_cap_part(const struct cxd_sweep_res *r,
			     enum cxd_cap_scope s, int id);
/* A capacity suspect's line in the text's suspects. */
void cxd_out_cap_suspect(const struct cxd_sweep_res *r,
			 const struct cxd_suspect *s, FILE *out);
/* The "Capacity:" lines: each scope run (its units, load, typical, the
 * short ones) or why the pass did not run; nothing without a pass. */
void cxd_out_cap_text(const struct cxd_sweep_res *r, FILE *out);
/* OpenMetrics: every unit's aggregate and ratio, the pass's time. */
void cxd_out_cap_metrics(const struct cxd_sweep_res *r, FILE *f);
/* JSON: the "capacity" object, and a capacity suspect's fields into o. */
json_object *cxd_out_cap_json(const struct cxd_sweep_res *r);
void cxd_out_cap_json_suspect(const struct cxd_sweep_res *r,
			      const struct cxd_suspect *s, json_object *o);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON parts of cxi_sweep's document (out_json.c), for out.c. */
#ifndef CXD_SWEEP_OUT_JSON_H
#define CXD_SWEEP_OUT_JSON_H

#include <json-c/json.h>

#include "out_types.h"

json_object *cxd_out_json_resolution(const struct cxd_sweep_res *r);
/* Every link's min, p5, median, p95, max per metric (nearest rank). */
json_object *cxd_out_json_link_stats(const struct cxd_sweep_res *r);
json_object *cxd_out_json_suspects(const struct cxd_sweep_res *r);
json_object *cxd_out_json_baseline(const struct cxd_sweep_res *r);
/* With --topology: each kind of shared link's width (topo_types.h). */
json_object *cxd_out_json_widths(const struct cxd_sweep_res *r);
/* "bw_mb_s" or "lat_us": the matrices' keys. */
const char *cxd_out_metric_key(enum cxd_metric m);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The one writer of a JSON number, for every document (report, sweep),
 * and the members written most. */
#ifndef CXD_BASE_JSON_NUM_H
#define CXD_BASE_JSON_NUM_H

#include <json-c/json.h>

/*
 * d as a JSON number: the shortest text that reads back to the same
 * double (json-c alone prints %.17g: "29314.659999999999"), kept a
 * double when parsed back ("2.0", not "2"). Non-finite values are not
 * JSON: NULL, which json-c writes as null.
 */
json_object *cxd_json_num(double d);

/* o[k] = v: the three kinds of member the documents write most. */
void cxd_json_add_int(json_object *o, const char *k, int v);
void cxd_json_add_str(json_object *o, const char *k, const char *v);
void cxd_json_add_num(json_object *o, const char *k, double v);

#endif

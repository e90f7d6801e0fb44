/* SPDX-License-Identifier: BSD-3-Clause */
/* The one writer of a JSON number (json_num.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_num.h"

json_object *cxd_json_num(double d)
{
	char buf[40];

	if (!isfinite(d))
		return NULL;
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* Keep it a double when parsed back: "2" would read as an int. */
	if (strpbrk(buf, ".eE") == NULL)
		strncat(buf, ".0", sizeof(buf) - strlen(buf) - 1);
	return json_object_new_double_s(d, buf);
}

void cxd_json_add_int(json_object *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_int(v));
}

void cxd_json_add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

void cxd_json_add_num(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, cxd_json_num(v));
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The fields every JSON document opens with (see stamp.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stamp.h"

void cxd_stamp_take(struct cxd_stamp *s, int argc, char *const *argv)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(s, 0, sizeof(*s));
	if (gethostname(s->host, sizeof(s->host) - 1) != 0)
		snprintf(s->host, sizeof(s->host), "unknown");
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(s->start, sizeof(s->start), "%Y-%m-%dT%H:%M:%SZ",
		     &tm) == 0)
		s->start[0] = '\0';
	s->argc = argc;
	s->argv = argv;
}

static int add(json_object *doc, const char *key, json_object *v)
{
	if (v == NULL || json_object_object_add(doc, key, v) != 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static json_object *command(const struct cxd_stamp *s)
{
	json_object *a = json_object_new_array();

	for (int i = 0; a && i < s->argc && s->argv && s->argv[i]; i++)
		if (json_object_array_add(a, json_object_new_string(
						  s->argv[i])) != 0) {
			json_object_put(a);
			return NULL;
		}
	return a;
}

int cxd_stamp_json(json_object *doc, const char *kind, int schema,
		   const char *tool, const struct cxd_stamp *s)
{
	int ret = 0;

	ret |= add(doc, "schema_version", json_object_new_int(schema));
	ret |= add(doc, "kind", json_object_new_string(kind));
	ret |= add(doc, "tool", json_object_new_string(tool));
	ret |= add(doc, "version", json_object_new_string(CXD_SUITE_VERSION));
	ret |= add(doc, "host", json_object_new_string(s->host));
	ret |= add(doc, "start_time", json_object_new_string(s->start));
	ret |= add(doc, "command", command(s));
	return ret ? -ENOMEM : 0;
}

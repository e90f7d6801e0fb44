/* SPDX-License-Identifier: BSD-3-Clause */
/* The fields every JSON document opens with (docs/json.md). */
#ifndef CXD_BASE_STAMP_H
#define CXD_BASE_STAMP_H

#include <json-c/json.h>

#include "cxd/config.h"

/*
 * Each kind of document has its schema (docs/schema/KIND.schema.json) and
 * version: raised when a change breaks a reader (a field removed, renamed
 * or retyped, a meaning changed), not when one is added.
 */
#define CXD_SCHEMA_PAIR 1
#define CXD_SCHEMA_SWEEP 1
#define CXD_SCHEMA_CONGESTION 1

/* Fill s: this host's name, the time now (UTC) and main's arguments. */
void cxd_stamp_take(struct cxd_stamp *s, int argc, char *const *argv);

/* Add to doc: schema_version, kind ("pair", "sweep", "congestion"), tool,
 * version, host, start_time, command (argv as an array). -ENOMEM or 0. */
int cxd_stamp_json(json_object *doc, const char *kind, int schema,
		   const char *tool, const struct cxd_stamp *s);

#endif

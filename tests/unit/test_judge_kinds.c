/* SPDX-License-Identifier: BSD-3-Clause */
/* The suspect kinds' table (lib/sweep/judge/judge_kinds.c): every row whole,
 * and the JSON schema's kind enum its names, in its order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "support/unit_main.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_kinds.h"

/* docs/schema/sweep.schema.json from this file's place in the tree. */
static json_object *sweep_schema(void)
{
	char path[4096];
	const char *tail = strstr(__FILE__, "tests/unit/");
	json_object *doc;

	assert_non_null(tail);
	snprintf(path, sizeof(path), "%.*sdocs/schema/sweep.schema.json",
		 (int) (tail - __FILE__), __FILE__);
	doc = json_object_from_file(path);
	assert_non_null(doc);
	return doc;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static void same_names(json_object *e)
{
	assert_int_equal(json_object_array_length(e), CXD_S_KINDS);
	for (int k = 0; k < CXD_S_KINDS; k++)
		assert_string_equal(json_object_get_string(
			json_object_array_get_idx(e, (size_t) k)),
			cxd_judge_kind((enum cxd_suspect_kind) k)->name);
}

/* A suspect's kind, and the kind of each component it cannot be told
 * apart from. */
static void test_schema_kinds_are_the_tables(void **state)
{
	json_object *doc = sweep_schema();
	json_object *p = get(get(get(get(doc, "properties"), "suspects"),
				 "items"), "properties");

	(void) state;
	same_names(get(get(p, "kind"), "enum"));
	same_names(get(get(get(get(get(p, "alike"), "items"), "properties"),
			   "kind"), "enum"));
	json_object_put(doc);
}

/* What the writers take for granted of a row. */
static void test_rows_whole(void **state)
{
	(void) state;
	for (int k = 0; k < CXD_S_KINDS; k++) {
		const struct cxd_suspect_row *r =
			cxd_judge_kind((enum cxd_suspect_kind) k);

		assert_non_null(r->name);
		assert_non_null(r->where);
		assert_non_null(r->advice);
		/* a set or a pair names its sets from the topology */
		assert_int_equal(r->level != CXD_LEVEL_NONE,
				 r->shape == CXD_SHAPE_SET ||
				 r->shape == CXD_SHAPE_PAIR);
		/* a pair and all are named by their title */
		assert_int_equal(r->title != NULL,
				 r->shape == CXD_SHAPE_PAIR ||
				 r->shape == CXD_SHAPE_ALL);
		/* only a rank or a set has ranks to drain */
		if (r->drain)
			assert_true(r->shape == CXD_SHAPE_RANK ||
				    r->shape == CXD_SHAPE_SET);
		for (int j = 0; j < k; j++)
			assert_string_not_equal(r->name, cxd_judge_kind(
				(enum cxd_suspect_kind) j)->name);
	}
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_schema_kinds_are_the_tables),
	cmocka_unit_test(test_rows_whole))

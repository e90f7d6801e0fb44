/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-tool rules, continued (test_tool_rules.c walks the options): the
 * whole atomic op x type table through cxd_opts_parse with its exact
 * message and defaults; each tool row's traits; the IDC rule per tool.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/amo.h"
#include "cxd/opts.h"
#include "session/session.h"
#include "ops/ops.h"
#include "run/run.h"
#include "support/argv_cfg.h"
#include "support/tool_rules_aid.h"
#include "support/unit_main.h"

/* ---- the atomic op x type table --------------------------------------- */

/*
 * The originals' amo_validate_op_and_type, one line per type: the valid
 * ops, CSWAP written with its comparison. Written out independently of
 * lib/base/amo_names.c.
 */
static const char *const valid_ops[CXD_T_COUNT] = {
#define INTS "MIN MAX SUM LOR LAND BOR BAND LXOR BXOR SWAP CSWAP-EQ " \
	     "CSWAP-NE CSWAP-LE CSWAP-LT CSWAP-GE CSWAP-GT AXOR"
	INTS, INTS, INTS, INTS, INTS, INTS, INTS, INTS,
	/* FLOAT, DOUBLE */
	"MIN MAX SUM SWAP CSWAP-EQ CSWAP-NE CSWAP-LE CSWAP-LT CSWAP-GE "
	"CSWAP-GT",
	"MIN MAX SUM SWAP CSWAP-EQ CSWAP-NE CSWAP-LE CSWAP-LT CSWAP-GE "
	"CSWAP-GT",
	/* FLOAT_COMPLEX, DOUBLE_COMPLEX */
	"SUM SWAP CSWAP-EQ CSWAP-NE",
	"SUM SWAP CSWAP-EQ CSWAP-NE",
	/* UINT128 */
	"CSWAP-EQ",
#undef INTS
};
/* The names, in the library's enum order, and the types' sizes. */
#define OP_NAMES "MIN MAX SUM LOR LAND BOR BAND LXOR BXOR SWAP CSWAP AXOR"
#define COP_NAMES "EQ NE LE LT GE GT"
#define TYPE_NAMES "INT8 UINT8 INT16 UINT16 INT32 UINT32 INT64 UINT64 " \
		   "FLOAT DOUBLE FLOAT_COMPLEX DOUBLE_COMPLEX UINT128"
static const unsigned type_bytes[CXD_T_COUNT] = {
	1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16, 16,
};

/* Word i of a space-separated line, in lower case if asked. */
static const char *word_of(const char *line, unsigned i, bool lower,
			   char *buf, size_t len)
{
	size_t n = 0;

	for (; i > 0; i--) {
		line = strchr(line, ' ');
		assert_non_null(line); /* fewer words than the enum has */
		line++;
	}
	for (; line[n] && line[n] != ' ' && n + 1 < len; n++)
		buf[n] = lower && line[n] >= 'A' && line[n] <= 'Z' ?
				 (char) (line[n] - 'A' + 'a') : line[n];
	buf[n] = '\0';
	assert_true(n > 0);
	return buf;
}

static int table_valid(unsigned op, unsigned cop, unsigned type)
{
	char word[24], line[256], o[16], c[8];

	word_of(OP_NAMES, op, false, o, sizeof(o));
	word_of(COP_NAMES, cop, false, c, sizeof(c));
	if (op == CXD_AMO_CSWAP)
		snprintf(word, sizeof(word), " CSWAP-%s ", c);
	else
		snprintf(word, sizeof(word), " %s ", o);
	snprintf(line, sizeof(line), " %s ", valid_ops[type]);
	return strstr(line, word) != NULL;
}

/* One op/comparison/type through the parser: returns 1 if accepted. */
static int check_combo(const char *tool, unsigned op, unsigned cop,
		       unsigned type)
{
	char err[CXD_ERR_LEN], want[128], o[16], c[8], ty[24], lo[16], lty[24];
	struct cxd_cfg cfg;
	int want_ok = table_valid(op, cop, type), ret;
	bool odd = (op + type) % 2;

	word_of(OP_NAMES, op, false, o, sizeof(o));
	word_of(COP_NAMES, cop, false, c, sizeof(c));
	word_of(TYPE_NAMES, type, false, ty, sizeof(ty));
	/* Names are case-insensitive: half the cases go in lower case. */
	ret = argv_cfg(&cfg, err, tool, "-A",
		       odd ? word_of(OP_NAMES, op, true, lo, sizeof(lo)) : o,
		       "-C", c, "-T",
		       odd ? ty : word_of(TYPE_NAMES, type, true, lty,
					  sizeof(lty)), NULL);
	if (want_ok) {
		if (ret != 0)
			fail_msg("%s %s %s %s: refused: '%s'", tool, o, c, ty,
				 err);
		assert_int_equal(cfg.run.amo_op, op);
		assert_int_equal(cfg.run.cswap_op, cop);
		assert_int_equal(cfg.run.amo_type, type);
		assert_int_equal(cfg.run.min_size, type_bytes[type]);
		assert_int_equal(cfg.run.max_size, type_bytes[type]);
		return 1;
	}
	if (op == CXD_AMO_CSWAP)
		snprintf(want, sizeof(want), "Invalid Op and Type combination: "
			 "CSWAP %s %s", c, ty);
	else
		snprintf(want, sizeof(want), "Invalid Op and Type combination: "
			 "%s %s", o, ty);
	if (ret != -EINVAL || strcmp(err, want) != 0)
		fail_msg("%s: ret %d, err '%s', want '%s'", tool, ret, err,
			 want);
	return 0;
}

static void test_rules_atomic_tools_take_valid_combos(void **state)
{
	static const char *const tools[] = { "cxi_atomic_bw", "cxi_atomic_lat" };

	(void) state;
	for (size_t t = 0; t < 2; t++) {
		unsigned valid = 0, cswap_valid = 0;

		for (unsigned op = 0; op < CXD_AMO_OP_COUNT; op++)
			for (unsigned type = 0; type < CXD_T_COUNT; type++) {
				/* The comparison matters only to CSWAP; any
				 * -C leaves the other ops' verdict alone. */
				int first = check_combo(tools[t], op, 0, type);

				for (unsigned c = 1; c < CXD_CSWAP_OP_COUNT;
				     c++) {
					int v = check_combo(tools[t], op, c,
							    type);

					if (op == CXD_AMO_CSWAP)
						cswap_valid += (unsigned) v;
					else
						assert_int_equal(v, first);
				}
				if (op == CXD_AMO_CSWAP)
					cswap_valid += (unsigned) first;
				else
					valid += (unsigned) first;
			}
		/* 11 ops: 8 int types x 11, float/double x 4, complex x 2. */
		assert_int_equal(valid, 8 * 11 + 2 * 4 + 2 * 2);
		/* CSWAP: ints and floats x 6, complex x 2 (EQ NE), UINT128 EQ. */
		assert_int_equal(cswap_valid, 10 * 6 + 2 * 2 + 1);
	}
}

/* Defaults: SUM EQ UINT64, 8 bytes; -C alone keeps SUM valid anywhere. */
static void test_atomic_defaults(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	for (size_t t = 0; t < 2; t++) {
		const char *tool = t ? "cxi_atomic_lat" : "cxi_atomic_bw";

		argv_cfg_ok(&cfg, tool, NULL);
		assert_int_equal(cfg.run.amo_op, CXD_AMO_SUM);
		assert_int_equal(cfg.run.cswap_op, CXD_CSWAP_EQ);
		assert_int_equal(cfg.run.amo_type, CXD_T_UINT64);
		assert_int_equal(cfg.run.min_size, 8);
	}
}

/* ---- The row is the tool's only definition: its traits hold. */

static bool is_named(const struct cxd_tool *t, const char *part)
{
	return strstr(t->name, part) != NULL;
}

static void check_row(const struct cxd_tool *t)
{
	unsigned shape = t->traits & (CXD_TRAIT_LISTS | CXD_TRAIT_SAMPLES |
				      CXD_TRAIT_LOOPBACK);

	assert_non_null(t->ops);
	assert_non_null(t->run);
	assert_non_null(t->ops->post_for);
	assert_true(t->ops->facts.caps != 0);
	/* Exactly one shape, run by its runner. */
	assert_true(shape != 0 && (shape & (shape - 1)) == 0);
	if (shape == CXD_TRAIT_LISTS)
		assert_ptr_equal(t->run, cxd_runner_bw);
	if (shape == CXD_TRAIT_SAMPLES)
		assert_ptr_equal(t->run, cxd_runner_lat);
	if (shape == CXD_TRAIT_LOOPBACK)
		assert_ptr_equal(t->run, cxd_runner_loopback);
	assert_int_equal(shape == CXD_TRAIT_SAMPLES, is_named(t, "_lat"));
	assert_int_equal(shape == CXD_TRAIT_LOOPBACK, is_named(t, "loopback"));
	/* Ping-pong: only send_lat, where the server answers each send. */
	assert_int_equal(cxd_tool_is(t, CXD_TRAIT_PING_PONG),
			 strcmp(t->name, "cxi_send_lat") == 0);
	assert_int_equal(t->ops->facts.two_sided, is_named(t, "_send_"));
	/* 64-byte slots and one packet per operation: atomics only. */
	assert_int_equal(t->ops->facts.slot == 64, is_named(t, "_atomic_"));
	assert_int_equal(t->ops->facts.slot != 0, is_named(t, "_atomic_"));
	assert_int_equal(t->ops->facts.amo, is_named(t, "_atomic_"));
	assert_int_equal(t->ops->facts.to_initiator, is_named(t, "_read_"));
	/* A tool with --no-idc has an operation that can inject. */
	if (cxd_tool_has(t, CXD_F_IDC))
		assert_true(t->ops->facts.injects);
}

static void test_row_traits(void **state)
{
	const struct cxd_tool *t;
	unsigned n = 0;

	(void) state;
	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++, n++) {
		assert_string_equal(t->name, all_tools[i]);
		check_row(t);
	}
	assert_int_equal(n, NTOOLS);
	t = cxd_tool_find("cxi_sweep");
	assert_non_null(t);
	assert_ptr_equal(t->ops, &cxd_write_ops);
	assert_ptr_equal(t->run, cxd_runner_bw);
}

/* The IDC line's rule (cxd_ops_injects): per tool, as posting uses it. */
static void test_idc_per_tool(void **state)
{
	static const struct {
		const char *tool, *a1, *a2;
		uint64_t size, inject_size;
		bool want;
	} c[] = {
		{ "cxi_write_bw", NULL, NULL, 64, 64, true },
		{ "cxi_write_bw", NULL, NULL, 65, 64, false },
		{ "cxi_write_bw", "--no-idc", NULL, 8, 64, false },
		{ "cxi_write_lat", NULL, NULL, 4096, 4096, true },
		{ "cxi_read_bw", NULL, NULL, 8, 4096, false },
		/* Sends inject up to 192 B whatever the provider allows. */
		{ "cxi_send_bw", NULL, NULL, 192, 4096, true },
		{ "cxi_send_bw", NULL, NULL, 193, 4096, false },
		{ "cxi_send_lat", NULL, NULL, 8, 4, false },
		{ "cxi_send_bw", "-R", NULL, 8, 4096, false },
		{ "cxi_atomic_bw", NULL, NULL, 8, 64, true },
		{ "cxi_atomic_bw", "--fetching", NULL, 8, 64, false },
		{ "cxi_atomic_lat", "-A", "CSWAP", 8, 64, false },
		{ "cxi_atomic_lat", "-A", "AXOR", 8, 64, false },
		{ "cxi_atomic_lat", "--no-idc", NULL, 8, 64, false },
	};
	struct cxd_cfg cfg;

	(void) state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct cxd_tool *t = cxd_tool_find(c[i].tool);

		argv_cfg_ok(&cfg, c[i].tool, c[i].a1, c[i].a2, NULL);
		if (cxd_ops_injects(t->ops, &cfg.run, c[i].size,
				    c[i].inject_size) != c[i].want)
			fail_msg("case %zu: %s %s %s size %llu", i, c[i].tool,
				 c[i].a1 ? c[i].a1 : "", c[i].a2 ? c[i].a2 : "",
				 (unsigned long long) c[i].size);
	}
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_rules_atomic_tools_take_valid_combos),
	cmocka_unit_test(test_atomic_defaults),
	cmocka_unit_test(test_row_traits),
	cmocka_unit_test(test_idc_per_tool))

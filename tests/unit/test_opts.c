/* SPDX-License-Identifier: BSD-3-Clause */
/* Option table: defaults, every validation rule and its message, help. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/amo.h"
#include "cxd/opts.h"
#include "support/argv_cfg.h"
#include "support/unit_main.h"

/* TOOL ARGS... must be refused (-EINVAL) with a message containing want. */
struct usage_error {
	const char *tool;
	const char *args[4]; /* NULL-terminated */
	const char *want;
};

static const struct usage_error usage_errors[] = {
	/* Server-only options on a client; --timeout's range. */
	{ "cxi_write_bw", { "--timeout", "0" }, "'0'" },
	{ "cxi_read_lat", { "--timeout", "3601" }, "'3601'" },
	{ "cxi_write_bw", { "h", "--max-mem=4096" },
	  "--max-mem is a server option" },
	{ "cxi_write_bw", { "--local", "--bind=::1" },
	  "--bind is a server option" },
	{ "cxi_write_bw", { "h", "--bind", "127.0.0.1" },
	  "--bind is a server option" },
	{ "cxi_write_bw", { "h", "-p", "0" },
	  "a client needs the server's port" },
	/* Numbers. */
	{ "cxi_write_bw", { "-n", "0" }, "Invalid iteration count: '0'" },
	{ "cxi_write_bw", { "-n", "abc" }, "Invalid iteration count: 'abc'" },
	{ "cxi_write_bw", { "-n", "-5" }, "-n/--iters takes an integer" },
	{ "cxi_write_bw", { "-n", "" }, "Invalid iteration count: ''" },
	{ "cxi_write_bw", { "-n", "99999999999999999999999" },
	  "Invalid iteration count: '99999999999999999999999'" },
	{ "cxi_write_bw", { "-n", "12x" }, "'12x'" },
	{ "cxi_write_bw", { "-l", "0" }, "Invalid list size: '0'" },
	{ "cxi_write_bw", { "-l", "16383" }, "from 1 to 16382" },
	{ "cxi_write_bw", { "-D", "0" }, "Invalid duration: '0'" },
	{ "cxi_write_bw", { "--buf-sz", "0" }, "Invalid buffer size" },
	{ "cxi_write_bw", { "--buf-align", "0" },
	  "Invalid buffer alignment: '0'" },
	{ "cxi_read_bw", { "--buf_align", "x" },
	  "Invalid buffer alignment: 'x'" },
	{ "cxi_write_bw", { "-p", "70000" }, "Invalid port: '70000'" },
	{ "cxi_write_bw", { "-v", "0" }, "Invalid svc_id: '0'" },
	{ "cxi_write_lat", { "--warmup", "x" }, "Invalid warmup count" },
	{ "cxi_write_lat", { "--latency-gap", "-1" },
	  "Invalid iteration gap: '-1'" },
	{ "cxi_gpu_loopback_bw", { "-i", "0" }, "Invalid iteration count" },
	{ "cxi_gpu_loopback_bw", { "-n", "0" },
	  "Invalid number of transfers: '0'" },
	{ "cxi_write_bw", { "-t", "x" }, "Invalid src gpu device: 'x'" },
	{ "cxi_write_bw", { "-r", "-1" }, "Invalid dest gpu device" },
	/* Sizes. */
	{ "cxi_write_bw", { "-s", "0" }, "Invalid size: '0'" },
	{ "cxi_write_bw", { "-s", "3:8" },
	  "Invalid size: '3:8' (ranges must be powers of 2)" },
	{ "cxi_write_bw", { "-s", "8:4" }, "Invalid size: '8:4'" },
	{ "cxi_write_bw", { "-s", "1:8589934592" },
	  "Invalid size: '1:8589934592'" },
	{ "cxi_write_bw", { "-s", "4294967296" }, "Invalid size" },
	{ "cxi_write_bw", { "-s", "1:" }, "Invalid size: '1:'" },
	{ "cxi_gpu_loopback_bw", { "-s", "1:8" },
	  "Invalid transfer size: '1:8'" },
	/* Enumerations, words and the command line's shape. */
	{ "cxi_write_bw", { "--use-hp", "3M" },
	  "Invalid hugepage type: '3M' (--use-hp takes 2M or 1G)" },
	{ "cxi_write_bw", { "-g", "ARM" }, "Invalid GPU type: 'ARM'" },
	{ "cxi_atomic_bw", { "-A", "nope" },
	  "Invalid atomic operation: 'nope'" },
	{ "cxi_atomic_bw", { "-C", "XX" }, "Invalid CSWAP operation" },
	{ "cxi_atomic_lat", { "-T", "int7" }, "Invalid atomic type" },
	{ "cxi_atomic_bw", { "-Aband", "-Tfloat" },
	  "Invalid Op and Type combination: BAND FLOAT" },
	{ "cxi_write_bw", { "--frob" }, "unknown option '--frob'" },
	{ "cxi_write_bw", { "-Z" }, "unknown option '-Z'" },
	{ "cxi_write_bw", { "-n" }, "option '-n' needs a value" },
	{ "cxi_write_bw", { "a", "b" }, "Unexpected argument: 'b'" },
	{ "cxi_gpu_loopback_bw", { "host" }, "Unexpected argument: 'host'" },
	{ "cxi_write_bw", { "--json", "--csv" }, "cannot be combined" },
	{ "cxi_write_bw", { "--provider", "" }, "Invalid provider name" },
	{ "cxi_atomic_bw", { "-s", "8" }, "unknown option '-s'" },
	{ "cxi_read_bw", { "--no-idc" }, "unknown option" },
	/* cxi_sweep's progress line: one way or the other, the sweep's. */
	{ "cxi_sweep", { "--progress", "--no-progress" },
	  "--progress and --no-progress cannot be combined" },
	{ "cxi_write_bw", { "--progress" }, "unknown option '--progress'" },
};

static void test_usage_errors(void **state)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	(void) state;
	for (size_t i = 0; i < sizeof(usage_errors) / sizeof(*usage_errors);
	     i++) {
		const struct usage_error *u = &usage_errors[i];
		int ret = argv_cfg_list(&cfg, err, u->tool, u->args);

		if (ret != -22 || strstr(err, u->want) == NULL)
			fail_msg("%s %s %s %s: ret %d, err '%s', wanted '%s'",
				 u->tool, u->args[0],
				 u->args[1] ? u->args[1] : "",
				 u->args[2] ? u->args[2] : "", ret, err,
				 u->want);
	}
}

static void test_opts_defaults_per_tool(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	argv_cfg_ok(&cfg, "cxi_write_bw", NULL);
	assert_int_equal(cfg.role, CXD_SERVER);
	assert_int_equal(cfg.run.iters, 1000);
	assert_int_equal(cfg.run.list_size, 256);
	assert_int_equal(cfg.run.min_size, 65536);
	assert_int_equal(cfg.run.max_size, 65536);
	assert_int_equal(cfg.run.buf_sz, 4294967296ULL);
	assert_int_equal(cfg.run.buf_align, 64);
	assert_int_equal(cfg.local.port, 49194);
	assert_int_equal(cfg.local.timeout_s, 5);
	argv_cfg_ok(&cfg, "cxi_atomic_bw", "h", NULL);
	assert_int_equal(cfg.role, CXD_CLIENT);
	assert_string_equal(cfg.local.host, "h");
	assert_int_equal(cfg.run.iters, 10000);
	assert_int_equal(cfg.run.list_size, 4096);
	assert_int_equal(cfg.run.min_size, 8); /* UINT64 */
	argv_cfg_ok(&cfg, "cxi_send_lat", NULL);
	assert_int_equal(cfg.run.iters, 100);
	assert_int_equal(cfg.run.min_size, 8);
	assert_int_equal(cfg.run.warmup, 10);
	assert_int_equal(cfg.run.latency_gap_us, 1000);
	argv_cfg_ok(&cfg, "cxi_gpu_loopback_bw", NULL);
	assert_int_equal(cfg.run.iters, 25);
	assert_int_equal(cfg.run.list_size, 8192);
	assert_int_equal(cfg.run.min_size, 524288);
}

/* What parses, and what it sets (test_usage_errors: what does not). */
static void test_opts_accepted_options_set_their_fields(void **state)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	(void) state;
	argv_cfg_ok(&cfg, "cxi_write_bw", "--timeout", "60", NULL);
	assert_int_equal(cfg.local.timeout_s, 60);
	/* On a server, and --max-mem with --local (its server child), fine. */
	argv_cfg_ok(&cfg, "cxi_write_bw", "--bind=::1", "--max-mem=4096", NULL);
	argv_cfg_ok(&cfg, "cxi_write_bw", "--local", "--max-mem=4096", NULL);
	argv_cfg_ok(&cfg, "cxi_atomic_bw", "-A", "cswap", "-Tdouble", NULL);
	assert_int_equal(cfg.run.amo_op, CXD_AMO_CSWAP);
	assert_int_equal(cfg.run.amo_type, CXD_T_DOUBLE);
	assert_int_equal(cfg.run.min_size, 8);
	argv_cfg_ok(&cfg, "cxi_write_bw", "--local", "-b", NULL);
	assert_int_equal(cfg.role, CXD_LOCAL);
	assert_true(cxd_run_has(&cfg.run, CXD_RUN_BIDIR));
	assert_int_equal(argv_cfg(&cfg, err, "cxi_write_bw", "-h", NULL),
			 CXD_OPTS_HELP);
	assert_int_equal(argv_cfg(&cfg, err, "cxi_write_bw", "-V", NULL),
			 CXD_OPTS_VERSION);
	/* cxi_sweep's progress line: neither, asked for, or refused. */
	argv_cfg_ok(&cfg, "cxi_sweep", NULL);
	assert_int_equal(cfg.sweep.sw_flags &
			 (CXD_SW_PROGRESS | CXD_SW_NO_PROGRESS), 0);
	argv_cfg_ok(&cfg, "cxi_sweep", "--progress", NULL);
	assert_int_equal(cfg.sweep.sw_flags, CXD_SW_PROGRESS);
	argv_cfg_ok(&cfg, "cxi_sweep", "--no-progress", NULL);
	assert_int_equal(cfg.sweep.sw_flags, CXD_SW_NO_PROGRESS);
	/* report-all is dropped in duration mode, as the originals do. */
	argv_cfg_ok(&cfg, "cxi_write_lat", "--report-all", "-D", "1", NULL);
	assert_false(cxd_run_has(&cfg.run, CXD_RUN_REPORT_ALL));
}

static void test_opts_size_ranges_and_too_small_buffer(void **state)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;
	uint64_t lo, hi;

	(void) state;
	assert_int_equal(cxd_parse_size_range("4294967295", 1, &lo, &hi), 0);
	assert_int_equal(hi, 4294967295ULL);
	assert_int_equal(cxd_parse_size_range("1:8192", 1, &lo, &hi), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 8192);
	assert_int_equal(cxd_parse_size_range("100", 1, &lo, &hi), 0);
	assert_int_equal(cxd_parse_size_range("16:16", 1, &lo, &hi), 0);
	assert_int_equal(cxd_parse_size_range("12:12", 1, &lo, &hi), 0);
	/* A buffer smaller than the largest write is refused by name. */
	assert_int_equal(argv_cfg(&cfg, err, "cxi_write_bw", "--buf-sz", "1024",
				  NULL), -22);
	assert_string_equal(err, "Max RDMA buffer size (1024) < max write size "
			    "(65536)!");
}

/* Valid ops per type, written out independently of the library's switch. */
static int expected_valid(unsigned op, unsigned cop, unsigned type)
{
	static const char *const ok[CXD_T_COUNT] = {
		[CXD_T_FLOAT] = "MIN MAX SUM SWAP CSWAP",
		[CXD_T_DOUBLE] = "MIN MAX SUM SWAP CSWAP",
		[CXD_T_FLOAT_COMPLEX] = "SUM SWAP CSWAP",
		[CXD_T_DOUBLE_COMPLEX] = "SUM SWAP CSWAP",
		[CXD_T_UINT128] = "CSWAP",
	};
	char word[16];

	if (type <= CXD_T_UINT64)
		return 1;
	snprintf(word, sizeof(word), " %s ", cxd_amo_op_name(op));
	{
		char list[64];

		snprintf(list, sizeof(list), " %s ", ok[type]);
		if (strstr(list, word) == NULL)
			return 0;
	}
	if (op != CXD_AMO_CSWAP)
		return 1;
	if (type == CXD_T_UINT128)
		return cop == CXD_CSWAP_EQ;
	if (type == CXD_T_FLOAT_COMPLEX || type == CXD_T_DOUBLE_COMPLEX)
		return cop == CXD_CSWAP_EQ || cop == CXD_CSWAP_NE;
	return 1;
}

static void test_opts_atomic_validity_table_sizes_names(void **state)
{
	unsigned valid = 0;

	(void) state;
	for (unsigned op = 0; op < CXD_AMO_OP_COUNT; op++)
		for (unsigned c = 0; c < CXD_CSWAP_OP_COUNT; c++)
			for (unsigned t = 0; t < CXD_T_COUNT; t++) {
				int want = expected_valid(op, c, t);

				if ((int) cxd_amo_valid(op, c, t) != want)
					fail_msg("%s %s %s: want %d",
						 cxd_amo_op_name(op),
						 cxd_cswap_op_name(c),
						 cxd_amo_type_name(t), want);
				valid += (unsigned) want;
			}
	/* 8 int types x 72 + 2 fp x 5 ops x 6 + 2 complex x 3 x... */
	assert_int_equal(valid, 8 * 72 + 2 * 30 + 2 * (12 + 2) + 1);
	assert_int_equal(cxd_amo_type_size(CXD_T_UINT128), 16);
	assert_int_equal(cxd_amo_type_size(CXD_T_FLOAT_COMPLEX), 8);
	assert_int_equal(cxd_amo_op_parse("cSwAp"), CXD_AMO_CSWAP);
}

/* TOOL's -h text; the caller frees it. Not inlined: GCC 12 at -O3 then
 * takes the stream's hold on the local buf for a dangling pointer. */
static __attribute__((noinline)) char *help_of(const struct cxd_tool *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cxd_opts_help(t, f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

static void test_tables_unique(void **state)
{
	const struct cxd_tool *t;

	(void) state;
	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++) {
		char *buf = help_of(t);

		/* Every short letter appears once in the generated help. */
		for (const char *p = buf; (p = strstr(p, "  -")) != NULL; p++) {
			char pat[8];

			if (p[3] == '-')
				continue;
			snprintf(pat, sizeof(pat), "  -%c,", p[3]);
			if (strstr(strstr(buf, pat) + 1, pat) != NULL)
				fail_msg("%s: -%c twice", t->name, p[3]);
		}
		assert_non_null(strstr(buf, "--json"));
		assert_non_null(strstr(buf, "--help"));
		assert_non_null(strstr(buf, "Usage:"));
		free(buf);
	}
	assert_int_equal(t == NULL, 1);
	assert_non_null(cxd_tool_at(8));
	assert_null(cxd_tool_at(9));
}

static void test_help_text(void **state)
{
	char *buf = help_of(cxd_tool_find("cxi_write_bw"));

	(void) state;
	/* Defaults are printed from cxd_cfg_defaults, each on its option. */
	assert_non_null(strstr(buf, "  -n, --iters=ITERS      "));
	assert_non_null(strstr(strstr(buf, "--iters="), "(default: 1000)\n"));
	assert_true(strstr(strstr(buf, "--iters="), "(default: 1000)\n") <
		    strstr(buf, "--duration="));
	assert_true(strstr(strstr(buf, "--size=MIN[:MAX]"),
			   "(default: 65536)\n") < strstr(buf, "--list-size="));
	assert_true(strstr(strstr(buf, "--list-size="), "(default: 256)\n") <
		    strstr(buf, "--bidirectional"));
	assert_non_null(strstr(buf, "at most 4294967295"));
	assert_non_null(strstr(buf, "      --no-hrp "));
	assert_null(strstr(buf, "buf_align"));
	free(buf);
	buf = help_of(cxd_tool_find("cxi_atomic_lat"));
	assert_non_null(strstr(buf, "Atomic Types:"));
	assert_null(strstr(buf, "--size"));
	assert_non_null(strstr(buf, "--latency-gap=USEC"));
	assert_non_null(strstr(buf, "(default: SUM)\n"));
	assert_non_null(strstr(buf, "(default: EQ)\n"));
	assert_non_null(strstr(buf, "(default: UINT64)\n"));
	assert_non_null(strstr(buf, "\nCSWAP Ops:\n  EQ, NE, LE, LT, GE, GT\n"));
	free(buf);
}

/* Every tool's -h shows the defaults its row and cxd_cfg_defaults set. */
static void test_help_defaults(void **state)
{
	const struct cxd_tool *t;
	struct cxd_cfg cfg;

	(void) state;
	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++) {
		char *buf = help_of(t), want[64];
		const char *iters;

		cxd_cfg_defaults(t, &cfg);
		iters = strstr(buf, "--iters=ITERS");
		assert_non_null(iters);
		snprintf(want, sizeof(want), "(default: %llu)\n",
			 (unsigned long long) cfg.run.iters);
		if (strstr(iters, want) == NULL ||
		    strstr(iters, want) > strstr(iters, "-D, --duration"))
			fail_msg("%s: -h lacks %s for --iters", t->name, want);
		snprintf(want, sizeof(want), "(default: %u)\n",
			 cfg.local.timeout_s);
		assert_non_null(strstr(strstr(buf, "--timeout="), want));
		free(buf);
	}
}

/* A client's run options meet the option table's ranges on the server. */
static void test_validate_ranges(void **state)
{
	const struct cxd_tool *t = cxd_tool_find("cxi_write_lat");
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	(void) state;
	cxd_cfg_defaults(t, &cfg);
	assert_int_equal(cxd_run_validate(t, &cfg.run, err, sizeof(err)), 0);
	cfg.run.warmup = 1000000001;
	assert_int_equal(cxd_run_validate(t, &cfg.run, err, sizeof(err)), -22);
	assert_string_equal(err, "Invalid warmup count: 1000000001");
	cxd_cfg_defaults(t, &cfg);
	cfg.run.flags |= CXD_RUN_DURATION;
	assert_int_equal(cxd_run_validate(t, &cfg.run, err, sizeof(err)), -22);
	assert_string_equal(err, "Invalid duration: 0");
	t = cxd_tool_find("cxi_gpu_loopback_bw");
	cxd_cfg_defaults(t, &cfg);
	cfg.run.list_size = CXD_MAX_LIST_SIZE + 1;
	assert_int_equal(cxd_run_validate(t, &cfg.run, err, sizeof(err)), -22);
	assert_string_equal(err, "Invalid number of transfers: 16383");
	cxd_cfg_defaults(t, &cfg);
	cfg.run.buf_align = (1ULL << 30) + 1;
	assert_int_equal(cxd_run_validate(t, &cfg.run, err, sizeof(err)), -22);
	assert_string_equal(err, "Invalid buffer alignment: 1073741825");
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_opts_defaults_per_tool),
	cmocka_unit_test(test_usage_errors),
	cmocka_unit_test(test_opts_accepted_options_set_their_fields),
	cmocka_unit_test(test_opts_size_ranges_and_too_small_buffer),
	cmocka_unit_test(test_opts_atomic_validity_table_sizes_names),
	cmocka_unit_test(test_tables_unique),
	cmocka_unit_test(test_help_text),
	cmocka_unit_test(test_help_defaults),
	cmocka_unit_test(test_validate_ranges))

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-tool validation rules (the originals' behaviour) through
 * cxd_opts_parse, the path the command line takes: which options each
 * tool accepts (its man page's usage block), -s and -l limits, the
 * numeric and word checks, and the whole atomic op x type table with
 * its exact message. test_opts.c covers the parser's own mechanics on
 * cxi_write_bw; this file walks every tool.
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

/* Tools with -s MIN[:MAX]; the atomic tools have no -s at all. */
static const char *const range_tools[] = {
	"cxi_write_bw", "cxi_read_bw", "cxi_send_bw",
	"cxi_write_lat", "cxi_read_lat", "cxi_send_lat",
};
#define NRANGE (sizeof(range_tools) / sizeof(range_tools[0]))

static const char *const lat_tools[] = {
	"cxi_write_lat", "cxi_read_lat", "cxi_send_lat", "cxi_atomic_lat",
};

/* ---- which options each tool takes ---------------------------------- */

/* Bits for the tools, in all_tools order. */
#define W_BW (1u << 0)
#define R_BW (1u << 1)
#define S_BW (1u << 2)
#define A_BW (1u << 3)
#define LOOP (1u << 4)
#define W_LAT (1u << 5)
#define R_LAT (1u << 6)
#define S_LAT (1u << 7)
#define A_LAT (1u << 8)
#define ALL 0x1ffu
#define NET (ALL & ~LOOP)
#define GPUS (W_BW | R_BW | S_BW | LOOP | W_LAT | R_LAT | S_LAT)
#define LATS (W_LAT | R_LAT | S_LAT | A_LAT)
#define ATOMICS (A_BW | A_LAT)

struct opt_case {
	const char *sw;  /* "-n" or "--iters" */
	const char *val; /* NULL for a switch */
	unsigned tools;  /* the tools whose man page lists it */
};

/*
 * The usage blocks of the originals' man pages (the seeds), option by
 * option, short and long spelling. gpu_loopback_bw's -n is "num-xfers"
 * and its iterations are -i; read_bw's page spells --buf_align.
 */
static const struct opt_case seed_opts[] = {
	{ "-d", "cxi0", ALL }, { "--device", "cxi0", ALL },
	{ "-v", "1", ALL }, { "--svc-id", "1", ALL },
	{ "-p", "1234", NET }, { "--port", "1234", NET },
	{ "-t", "0", GPUS }, { "--tx-gpu", "0", GPUS },
	{ "-r", "0", GPUS }, { "--rx-gpu", "0", GPUS },
	{ "-g", "AMD", GPUS }, { "--gpu-type", "NVIDIA", GPUS },
	{ "-n", "5", ALL }, { "--iters", "5", ALL },
	{ "-i", "5", LOOP }, { "--num-xfers", "5", LOOP },
	{ "-D", "1", ALL }, { "--duration", "1", ALL },
	{ "-s", "64", ALL & ~ATOMICS }, { "--size", "64", ALL & ~ATOMICS },
	{ "-l", "4", W_BW | R_BW | S_BW | A_BW },
	{ "--list-size", "4", W_BW | R_BW | S_BW | A_BW },
	{ "-b", NULL, W_BW | R_BW | S_BW | A_BW },
	{ "--bidirectional", NULL, W_BW | R_BW | S_BW | A_BW },
	{ "-R", NULL, S_BW | S_LAT }, { "--rdzv", NULL, S_BW | S_LAT },
	{ "--unrestricted", NULL, W_BW | R_BW | A_BW | W_LAT | R_LAT | A_LAT },
	{ "--no-hrp", NULL, W_BW | A_BW },
	{ "--no-idc", NULL, W_BW | S_BW | A_BW | W_LAT | S_LAT | A_LAT },
	{ "--no-ll", NULL, LATS },
	{ "--buf-sz", "65536", W_BW | R_BW | S_BW },
	{ "--buf-align", "128", W_BW | R_BW | S_BW },
	{ "--buf_align", "128", W_BW | R_BW | S_BW }, /* hidden alias */
	{ "--use-hp", "2M", GPUS },
	{ "--warmup", "3", LATS }, { "--latency-gap", "10", LATS },
	{ "--report-all", NULL, LATS },
	{ "-A", "MAX", ATOMICS }, { "--atomic-op", "MAX", ATOMICS },
	{ "-C", "GT", ATOMICS }, { "--cswap-op", "GT", ATOMICS },
	{ "-T", "INT32", ATOMICS }, { "--atomic-type", "INT32", ATOMICS },
	{ "--fetching", NULL, ATOMICS }, { "--matching", NULL, ATOMICS },
	/* In no man page: the originals' send_lat -c, and -I. */
	{ "-c", "cycles", 0 }, { "--clock", "cycles", 0 }, { "-I", NULL, 0 },
};

static void test_seed_options(void **state)
{
	(void) state;
	for (unsigned t = 0; t < NTOOLS; t++) {
		const char *tool = all_tools[t];

		for (size_t i = 0; i < sizeof(seed_opts) / sizeof(seed_opts[0]);
		     i++) {
			const struct opt_case *o = &seed_opts[i];

			if (o->tools & (1u << t))
				ok(tool, o->sw, o->val, NULL);
			else
				bad("unknown option", tool, o->sw, o->val,
				    NULL);
		}
		/* -h and -V: every page has them; they stop the parse. */
		{
			char err[CXD_ERR_LEN];
			struct cxd_cfg cfg;

			assert_int_equal(argv_cfg(&cfg, err, tool, "-h", NULL),
					 CXD_OPTS_HELP);
			assert_int_equal(argv_cfg(&cfg, err, tool, "--version",
					       NULL), CXD_OPTS_VERSION);
		}
	}
}

/* ---- every tool's messages ------------------------------------------ */

#define RANGES (W_BW | R_BW | S_BW | W_LAT | R_LAT | S_LAT) /* -s MIN[:MAX] */
#define LISTS (W_BW | R_BW | S_BW | A_BW)                   /* -l */

/*
 * ARGS on each tool of the mask: want NULL, they parse; else the parse
 * fails (-EINVAL) with a message that starts with want.
 */
struct rule {
	unsigned tools;
	const char *want;
	const char *args[8]; /* NULL-terminated */
};

static const struct rule rules[] = {
	/* This suite's additions: every tool has them; --local etc. need a
	 * peer. */
	{ ALL, NULL, { "--provider", "tcp", "--json" } },
	{ ALL, NULL, { "--csv" } },
	{ NET, NULL, { "--local" } },
	{ NET, NULL, { "--bind", "127.0.0.1", "--max-mem", "4096" } },
	{ LOOP, "unknown option '--local'", { "--local" } },
	/* -s: a range; gpu_loopback_bw: one transfer size, no range; the
	 * atomic tools take their size from -T: -s is not theirs. */
	{ RANGES, "Invalid size: '0'", { "--size=0" } },
	{ LOOP, "Invalid transfer size: '1:8' (-s/--size takes one size "
		"from 1 to 4294967295)", { "-s", "1:8" } },
	{ LOOP, "Invalid transfer size: '8:8'", { "-s", "8:8" } },
	{ LOOP, "Invalid transfer size: '0'", { "-s", "0" } },
	{ LOOP, "Invalid transfer size: '4294967296'", { "-s", "4294967296" } },
	{ LOOP, "Invalid transfer size: 'x'", { "--size", "x" } },
	{ A_BW, "unknown option '-s'", { "-s", "8" } },
	{ A_LAT, "unknown option '--size'", { "--size", "8" } },
	{ A_LAT, "unknown option '-s'", { "-s", "1:8" } },
	/* The buffer must hold the largest operation, named by the tool's
	 * noun; no power-of-2 rule on the alignment. */
	{ R_BW, "Max RDMA buffer size (4096) < max read size (8192)!",
	  { "--buf-sz", "4096", "-s", "1:8192" } },
	{ S_BW, "Max RDMA buffer size (100) < max send size (101)!",
	  { "--buf-sz", "100", "-s", "101" } },
	{ S_BW, NULL, { "--buf-sz", "8192", "-s", "1:8192" } },
	{ R_BW, NULL, { "--buf-align", "3" } },
	{ S_BW, "Invalid buffer size: '0'", { "--buf-sz", "0" } },
	{ S_BW, "Invalid buffer alignment: '0'", { "--buf-align", "0" } },
	/* -l; gpu_loopback_bw: -n is the list, with the same limit. */
	{ LISTS, "Invalid list size: '16383' (-l/--list-size takes an "
		 "integer from 1 to 16382)", { "-l", "16383" } },
	{ LISTS, "Invalid list size: '0'", { "--list-size", "0" } },
	{ LISTS, "Invalid list size: '-1'", { "-l", "-1" } },
	{ LOOP, "Invalid number of transfers: '16383'", { "-n", "16383" } },
	/* The counts every tool has; gpu_loopback_bw's iterations are -i. */
	{ ALL & ~LOOP, "Invalid iteration count: '0' (-n/--iters",
	  { "-n", "0" } },
	{ LOOP, "Invalid iteration count: '0' (-i/--iters", { "-i", "0" } },
	{ ALL, "Invalid duration: '0' (-D/--duration takes an integer "
	       "from 1 to", { "-D", "0" } },
	{ ALL, "Invalid duration: '1.5'", { "-D", "1.5" } },
	{ ALL, "Invalid svc_id: '0'", { "-v", "0" } },
	{ ALL, "Invalid svc_id: '2147483648'", { "-v", "2147483648" } },
	{ ALL, NULL, { "-v", "2147483647" } },
	{ S_LAT, "Invalid port: '65536'", { "-p", "65536" } },
	{ A_BW, "Invalid port: 'x'", { "--port", "x" } },
	/* The latency options. */
	{ LATS, "Invalid warmup count: 'x'", { "--warmup", "x" } },
	{ LATS, "Invalid iteration gap: '-5'", { "--latency-gap", "-5" } },
	/* Words; one peer address at most, gpu_loopback_bw takes none. */
	{ LOOP, "Invalid GPU type: 'ARM' (-g/--gpu-type takes AMD, NVIDIA or "
		"INTEL)", { "-g", "ARM" } },
	{ LOOP, "Invalid hugepage type: '2m'", { "--use-hp", "2m" } },
	{ S_LAT, "Invalid src gpu device: '-1'", { "-t", "-1" } },
	{ LOOP, "Invalid dest gpu device: 'x'", { "-r", "x" } },
	{ LOOP, "Unexpected argument: 'h1'", { "h1" } },
	{ NET, "Unexpected argument: 'h2'", { "h1", "h2" } },
	{ A_LAT, "Invalid atomic operation: 'NAND'", { "-A", "NAND" } },
	{ A_LAT, "Invalid CSWAP operation: 'EQU'", { "-C", "EQU" } },
	{ A_BW, "Invalid atomic type: 'UINT256'", { "-T", "UINT256" } },
	/* The default atomic type takes every op, the default op every
	 * type. */
	{ ATOMICS, NULL, { "-A", "axor" } },
	{ ATOMICS, NULL, { "-A", "CSWAP", "-C", "gt" } },
	{ ATOMICS, NULL, { "-T", "double_complex" } },
	{ ATOMICS, "Invalid Op and Type combination: CSWAP LT UINT128",
	  { "-A", "cswap", "-C", "lt", "-T", "uint128" } },
};

static void test_rules_every_tool_accepts_or_refuses(void **state)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	(void) state;
	for (unsigned t = 0; t < NTOOLS; t++)
		for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++) {
			const struct rule *r = &rules[i];

			if ((r->tools >> t) & 1)
				verdict(r->want, all_tools[t],
					argv_cfg_list(&cfg, err, all_tools[t],
						      r->args), err);
		}
}

/* ---- -s -------------------------------------------------------------- */

static void expect_sizes(const char *tool, const char *arg, uint64_t lo,
			 uint64_t hi)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	if (argv_cfg(&cfg, err, tool, "-s", arg, NULL) != 0)
		fail_msg("%s -s %s: '%s'", tool, arg, err);
	assert_int_equal(cfg.run.min_size, lo);
	assert_int_equal(cfg.run.max_size, hi);
}

static void test_size_ranges(void **state)
{
	static const char *const rejected[] = {
		"0", "0:8", "4294967296", "99999999999999999999", "8:4",
		"1:8589934592", ":8", "8:", "-8", "+8", "8k", "1:8:16", "",
		"abc", " 8",
	};
	static const char *const not_pow2[] = {
		"3:8", "2:12", "1:4294967295", "6:6144", "5:7",
	};
	char want[128];

	(void) state;
	for (size_t t = 0; t < NRANGE; t++) {
		const char *tool = range_tools[t];

		expect_sizes(tool, "1", 1, 1);
		expect_sizes(tool, "12", 12, 12); /* one size: any value */
		expect_sizes(tool, "4294967295", 4294967295ULL, 4294967295ULL);
		expect_sizes(tool, "1:8192", 1, 8192);
		expect_sizes(tool, "64:64", 64, 64);
		expect_sizes(tool, "1:2147483648", 1, 2147483648ULL);
		for (size_t i = 0; i < sizeof(rejected) / sizeof(*rejected);
		     i++) {
			snprintf(want, sizeof(want), "Invalid size: '%s' "
				 "(-s/--size takes MIN[:MAX] from 1 to "
				 "4294967295)", rejected[i]);
			bad(want, tool, "-s", rejected[i], NULL);
		}
		for (size_t i = 0; i < sizeof(not_pow2) / sizeof(*not_pow2);
		     i++) {
			snprintf(want, sizeof(want), "Invalid size: '%s' "
				 "(ranges must be powers of 2)", not_pow2[i]);
			bad(want, tool, "-s", not_pow2[i], NULL);
		}
	}
}

/* gpu_loopback_bw: one transfer size, no range. */
static void test_loopback_size(void **state)
{
	const char *tool = "cxi_gpu_loopback_bw";

	(void) state;
	expect_sizes(tool, "1", 1, 1);
	expect_sizes(tool, "12", 12, 12);
	expect_sizes(tool, "4294967295", 4294967295ULL, 4294967295ULL);
}

/* ---- -l and the other numbers ----------------------------------------- */

static void test_list_size(void **state)
{
	static const char *const list_tools[] = {
		"cxi_write_bw", "cxi_read_bw", "cxi_send_bw", "cxi_atomic_bw",
	};
	struct cxd_cfg cfg;

	(void) state;
	for (size_t t = 0; t < 4; t++) {
		const char *tool = list_tools[t];

		argv_cfg_ok(&cfg, tool, "-l", "1", NULL);
		assert_int_equal(cfg.run.list_size, 1);
		argv_cfg_ok(&cfg, tool, "-l", "16382", NULL);
		assert_int_equal(cfg.run.list_size, 16382);
	}
	/* gpu_loopback_bw: -n is the list, with the same limit. */
	argv_cfg_ok(&cfg, "cxi_gpu_loopback_bw", "-n", "16382", "-i", "7",
		    NULL);
	assert_int_equal(cfg.run.list_size, 16382);
	assert_int_equal(cfg.run.iters, 7);
}

static void test_counts_every_tool(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	for (unsigned t = 0; t < NTOOLS; t++) {
		const char *tool = all_tools[t];

		argv_cfg_ok(&cfg, tool, "-D", "3", NULL);
		assert_true(cxd_run_has(&cfg.run, CXD_RUN_DURATION));
		assert_int_equal(cfg.run.duration_s, 3);
	}
}

static void test_latency_options(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	for (size_t t = 0; t < 4; t++) {
		const char *tool = lat_tools[t];

		argv_cfg_ok(&cfg, tool, "--warmup", "0", "--latency-gap", "0",
			    NULL);
		assert_int_equal(cfg.run.warmup, 0);
		assert_int_equal(cfg.run.latency_gap_us, 0);
		/* Kept in iteration mode, dropped with -D (every tool). */
		argv_cfg_ok(&cfg, tool, "--report-all", NULL);
		assert_true(cxd_run_has(&cfg.run, CXD_RUN_REPORT_ALL));
		argv_cfg_ok(&cfg, tool, "-D", "1", "--report-all", NULL);
		assert_false(cxd_run_has(&cfg.run, CXD_RUN_REPORT_ALL));
	}
}

static void test_rules_gpu_type_any_case_hugepages_exact(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	/* -g is case-insensitive; --use-hp is not. */
	argv_cfg_ok(&cfg, "cxi_send_bw", "-g", "intel", NULL);
	assert_int_equal(cfg.local.gpu_type, CXD_GPU_INTEL);
	argv_cfg_ok(&cfg, "cxi_read_lat", "-g", "Nvidia", NULL);
	assert_int_equal(cfg.local.gpu_type, CXD_GPU_NVIDIA);
	argv_cfg_ok(&cfg, "cxi_write_lat", "--use-hp", "1G", NULL);
	assert_int_equal(cfg.run.hugepages, CXD_HP_1G);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_seed_options),
	cmocka_unit_test(test_rules_every_tool_accepts_or_refuses),
	cmocka_unit_test(test_size_ranges),
	cmocka_unit_test(test_loopback_size),
	cmocka_unit_test(test_list_size),
	cmocka_unit_test(test_counts_every_tool),
	cmocka_unit_test(test_latency_options),
	cmocka_unit_test(test_rules_gpu_type_any_case_hugepages_exact))

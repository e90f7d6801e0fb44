/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Cassini knobs on cxi, and nothing on tcp or shm: the plan from the
 * options, the provider, what fi_getinfo reported and the environment.
 * No Cassini NIC exists here, so the provider's answers are given as
 * struct cxd_cxi_reported values, and the environment as a table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rdma/fabric.h>

#include "fabric/cxi_knobs.h"
#include "fabric/fabric.h"
#include "cxd/opts.h"
#include "support/argv_cfg.h"
#include "support/cxi_knobs_aid.h"
#include "support/unit_main.h"

/* Every knob at once changes nothing on tcp and shm. */
static void test_other_providers_untouched(void **state)
{
	static const char *const opts_w[] = { "-v", "7", "--no-hrp",
		"--no-idc", "--unrestricted", "-s", "1:4096", NULL };
	static const char *const opts_s[] = { "-R", "--no-idc", "--no-ll",
		NULL };
	static const char *const opts_a[] = { "--matching", "--no-hrp", NULL };
	static const char *const prov[] = { "tcp", "shm", "verbs" };
	const char *bad_env[] = { "SLINGSHOT_VNIS", "junk", NULL };
	struct run r;

	(void) state;
	for (size_t i = 0; i < 3; i++) {
		const char *const *o[] = { opts_w, opts_s, opts_a };
		const char *t[] = { "cxi_write_bw", "cxi_send_lat",
				    "cxi_atomic_bw" };

		for (size_t j = 0; j < 3; j++) {
			setup_run(&r, t[j], o[j]);
			assert_int_equal(plan_for(&r, prov[i], NULL, bad_env),
					 0);
			assert_false(r.plan.cxi);
			assert_int_equal(r.plan.n_env, 0);
			assert_false(r.plan.auth_key);
			assert_int_equal(r.plan.msg_order, 0);
			assert_int_equal(r.plan.hrp_flags, 0);
			assert_int_equal(r.plan.amo_flags, 0);
			assert_int_equal(r.plan.key_tx, 1);
			assert_int_equal(r.plan.key_rx, 2);
		}
	}
}

static void test_write_defaults(void **state)
{
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_write_bw", ARGS("-s", "1:65536"));
	assert_true(r.plan.cxi);
	assert_int_equal(r.plan.n_env, 0);
	assert_int_equal(r.plan.msg_order, 0);
	assert_int_equal(cxd_cxi_write_flags(&r.plan, 2048), CXD_CXI_HRP);
	assert_int_equal(cxd_cxi_write_flags(&r.plan, 4096), 0);
	assert_string_equal(r.plan.restricted_s, "Enabled");
	assert_string_equal(r.plan.hrp_s, "Enabled (sizes <= 2048)");
	/* Exactly the originals' words; the limit shows in the JSON. */
	assert_string_equal(r.plan.idc_s, "Enabled");
	assert_string_equal(r.plan.svc_s, "provider default");
	assert_false(r.plan.auth_key);
	assert_int_equal(r.plan.addr_vni, -1);
}

static void test_write_unrestricted(void **state)
{
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_write_bw", ARGS("--unrestricted", "-s", "8"));
	assert_int_equal(r.plan.msg_order, FI_ORDER_RMA_WAW);
	assert_int_equal(cxd_cxi_write_flags(&r.plan, 8), 0);
	assert_string_equal(r.plan.restricted_s, "Disabled");
	assert_string_equal(r.plan.hrp_s, "Disabled - Not Applicable");
	assert_string_equal(r.plan.idc_s, "Enabled");
	/* Restricted, but every size above the HRP and IDC limits. */
	cxi_plan(&r, "cxi_write_bw", ARGS("-s", "4096"));
	assert_int_equal(r.plan.hrp_flags, 0);
	assert_string_equal(r.plan.hrp_s, "Disabled");
	assert_string_equal(r.plan.idc_s, "Disabled");
}

/* The IDC line tells the truth at the payload limits: 224 B for
 * restricted writes, 192 B unrestricted; never fetching AMOs. */
static void test_idc_limits(void **state)
{
	static const char *const res224[] = { "-s", "224", NULL };
	static const char *const res256[] = { "-s", "256:512", NULL };
	static const char *const unr224[] = { "--unrestricted", "-s", "224",
		NULL };
	static const char *const unr192[] = { "--unrestricted", "-s", "192",
		NULL };
	static const char *const fetch[] = { "--fetching", NULL };
	static const char *const base[] = { "-A", "MIN", NULL };
	static const struct {
		const char *tool;
		const char *const *args;
		const char *want;
	} c[] = {
		{ "cxi_write_bw", res224, "Enabled" },
		{ "cxi_write_bw", res256, "Disabled" },
		{ "cxi_write_bw", unr224, "Disabled" },
		{ "cxi_write_bw", unr192, "Enabled" },
		{ "cxi_send_bw", res224, "Disabled" },
		{ "cxi_send_lat", unr192 + 1, "Enabled" },
		{ "cxi_atomic_bw", fetch, "Disabled" },
		{ "cxi_atomic_lat", fetch, "Disabled" },
		{ "cxi_atomic_bw", base, "Enabled" },
	};
	struct run r;

	(void) state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cxi_plan(&r, c[i].tool, c[i].args);
		if (strcmp(r.plan.idc_s, c[i].want) != 0)
			fail_msg("%s case %zu: IDC %s, want %s", c[i].tool, i,
				 r.plan.idc_s, c[i].want);
	}
}

/* Restricted writes need an optimized MR without remote events. */
static void test_write_not_optimized(void **state)
{
	struct cxd_cxi_reported events = { .caps = FI_RMA_EVENT };
	struct run r;

	(void) state;
	setup_run(&r, "cxi_write_bw", ARGS("-s", "8"));
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("FI_CXI_OPTIMIZED_MRS", "false")), 0);
	assert_string_equal(r.plan.restricted_s, "Disabled (user set "
			    "FI_CXI_OPTIMIZED_MRS=false)");
	assert_string_equal(r.plan.idc_s, "Disabled");
	assert_string_equal(r.plan.hrp_s, "Disabled - Not Applicable");
	assert_int_equal(cxd_cxi_write_flags(&r.plan, 8), 0);
	assert_int_equal(plan_for(&r, "cxi", &events, NULL), 0);
	assert_string_equal(r.plan.restricted_s,
			    "Disabled (FI_RMA_EVENT is on)");
}

static void test_no_hrp_no_idc_no_ll(void **state)
{
	const struct cxd_cxi_env *e;
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_write_bw", ARGS("--no-hrp", "--no-idc", "-s", "8"));
	assert_int_equal(r.plan.hrp_flags, 0);
	assert_string_equal(r.plan.hrp_s, "Disabled");
	assert_string_equal(r.plan.idc_s, "Disabled");
	e = env_of(&r.plan, "FI_CXI_DISABLE_NON_INJECT_RMA_IDC");
	assert_non_null(e);
	assert_string_equal(e->value, "1");
	assert_false(e->user_set);

	cxi_plan(&r, "cxi_send_lat", ARGS("--no-ll", "--no-idc"));
	e = env_of(&r.plan, "FI_CXI_LLRING_MODE");
	assert_non_null(e);
	assert_string_equal(e->value, "never");
	assert_non_null(env_of(&r.plan, "FI_CXI_DISABLE_NON_INJECT_MSG_IDC"));
	assert_string_equal(r.plan.ll_s, "Disabled");
	assert_string_equal(r.plan.idc_s, "Disabled");
}

/* The user's value stays, and the summary says which one is in force. */
static void test_user_already_set(void **state)
{
	const struct cxd_cxi_env *e;
	char buf[160];
	struct run r;

	(void) state;
	setup_run(&r, "cxi_write_lat", ARGS("--no-ll"));
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("FI_CXI_LLRING_MODE", "always")), 0);
	e = env_of(&r.plan, "FI_CXI_LLRING_MODE");
	assert_non_null(e);
	assert_true(e->user_set);
	assert_string_equal(e->user, "always");
	assert_string_equal(r.plan.ll_s,
			    "Enabled (user set FI_CXI_LLRING_MODE=always)");
	cxd_cxi_env_str(&r.plan, buf, sizeof(buf));
	assert_string_equal(buf, "FI_CXI_LLRING_MODE=always (user's)");

	/* No --no-ll, but the user turned LL off himself. */
	setup_run(&r, "cxi_write_lat", NULL);
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("FI_CXI_LLRING_MODE", "never")), 0);
	assert_int_equal(r.plan.n_env, 0);
	assert_string_equal(r.plan.ll_s,
			    "Disabled (user set FI_CXI_LLRING_MODE=never)");
	cxd_cxi_env_str(&r.plan, buf, sizeof(buf));
	assert_string_equal(buf, "none set");
}

/* cxd_cxi_apply_env against the real environment: never overrides. */
static void test_apply_env_never_overrides(void **state)
{
	struct run r;

	(void) state;
	setenv("FI_CXI_LLRING_MODE", "idle", 1);
	unsetenv("FI_CXI_DISABLE_NON_INJECT_RMA_IDC");
	setup_run(&r, "cxi_write_lat", ARGS("--no-ll", "--no-idc"));
	assert_int_equal(cxd_cxi_plan(r.tool, &r.cfg.run, &r.cfg.local, "cxi",
				      NULL, cxd_cxi_getenv, NULL, &r.plan,
				      r.err, sizeof(r.err)), 0);
	cxd_cxi_apply_env(&r.plan);
	assert_string_equal(getenv("FI_CXI_LLRING_MODE"), "idle");
	assert_string_equal(getenv("FI_CXI_DISABLE_NON_INJECT_RMA_IDC"), "1");
	unsetenv("FI_CXI_LLRING_MODE");
	unsetenv("FI_CXI_DISABLE_NON_INJECT_RMA_IDC");
}

/* A snapshot keeps the user's environment apart from what we set later. */
static void test_cxi_snapshot_keeps_the_user_env_once(void **state)
{
	struct cxd_cxi_envsnap snap = { 0 };

	(void) state;
	setenv("FI_CXI_RDZV_THRESHOLD", "4096", 1);
	unsetenv("FI_CXI_LLRING_MODE");
	cxd_cxi_snapshot(&snap, cxd_cxi_getenv, NULL);
	setenv("FI_CXI_LLRING_MODE", "never", 1);
	setenv("FI_CXI_RDZV_THRESHOLD", "1", 1);
	cxd_cxi_snapshot(&snap, cxd_cxi_getenv, NULL); /* taken once */
	assert_null(cxd_cxi_snap_get(&snap, "FI_CXI_LLRING_MODE"));
	assert_string_equal(cxd_cxi_snap_get(&snap, "FI_CXI_RDZV_THRESHOLD"),
			    "4096");
	assert_null(cxd_cxi_snap_get(&snap, "HOME"));
	unsetenv("FI_CXI_LLRING_MODE");
	unsetenv("FI_CXI_RDZV_THRESHOLD");
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_other_providers_untouched),
	cmocka_unit_test(test_write_defaults),
	cmocka_unit_test(test_write_unrestricted),
	cmocka_unit_test(test_idc_limits),
	cmocka_unit_test(test_write_not_optimized),
	cmocka_unit_test(test_no_hrp_no_idc_no_ll),
	cmocka_unit_test(test_user_already_set),
	cmocka_unit_test(test_apply_env_never_overrides),
	cmocka_unit_test(test_cxi_snapshot_keeps_the_user_env_once))

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

/* A stand-in environment: NULL-terminated name/value pairs. */
static const char *table_env(void *ctx, const char *name)
{
	const char *const *kv = ctx;

	for (; kv && kv[0]; kv += 2)
		if (strcmp(kv[0], name) == 0)
			return kv[1];
	return NULL;
}

struct run {
	const struct cxd_tool *tool;
	struct cxd_cfg cfg;
	struct cxd_cxi_plan plan;
	char err[CXD_ERR_LEN];
};

/* Parse argv (NULL-terminated, or NULL) for the tool as the command line
 * would (support/argv_cfg.h); it must parse. */
static void setup_run(struct run *r, const char *tool, const char *const *argv)
{
	memset(r, 0, sizeof(*r));
	r->tool = cxd_tool_find(tool);
	assert_non_null(r->tool);
	assert_int_equal(argv_cfg_list(&r->cfg, r->err, tool, argv), 0);
}

static int plan_for(struct run *r, const char *prov,
		    const struct cxd_cxi_reported *rep, const char **env)
{
	return cxd_cxi_plan(r->tool, &r->cfg.run, &r->cfg.local, prov, rep,
			    table_env, env, &r->plan, r->err, sizeof(r->err));
}

static const struct cxd_cxi_env *env_of(const struct cxd_cxi_plan *p,
					const char *name)
{
	for (size_t i = 0; i < p->n_env; i++)
		if (strcmp(p->env[i].name, name) == 0)
			return &p->env[i];
	return NULL;
}

/* cxd_cxi_prepare for provider PROV ("": not picked yet). */
static int prepare_for(struct run *r, struct cxd_cxi_envsnap *snap,
		       const char *prov)
{
	return cxd_cxi_prepare(snap, &r->plan, r->tool, &r->cfg.run,
			       &r->cfg.local, prov, NULL, r->err,
			       sizeof(r->err));
}

/* The plan on cxi for TOOL ARGS..., nothing reported, no environment. */
static void cxi_plan(struct run *r, const char *tool, const char *const *argv)
{
	setup_run(r, tool, argv);
	assert_int_equal(plan_for(r, "cxi", NULL, NULL), 0);
}

/* The plan sets variable NAME to VALUE. */
static void expect_env(const struct run *r, const char *name,
		       const char *value)
{
	const struct cxd_cxi_env *e = env_of(&r->plan, name);

	if (e == NULL)
		fail_msg("%s: no %s in the plan", r->tool->name, name);
	assert_string_equal(e->value, value);
}

/* A NULL-terminated list of words, for setup_run and cxi_plan. */
#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A stand-in environment for plan_for: NAME, VALUE, ... */
#define ENV(...) ((const char *[]){ __VA_ARGS__, NULL })

/* fi_getinfo's answer where the provider chooses the memory keys. */
static const struct cxd_cxi_reported prov_keys = {
	.mr_mode = FI_MR_PROV_KEY,
};

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

static void test_cxi_rendezvous_plan_and_user_threshold(void **state)
{
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_send_bw", ARGS("-R"));
	expect_env(&r, "FI_CXI_RDZV_THRESHOLD", "0");
	expect_env(&r, "FI_CXI_RDZV_GET_MIN", "0");
	expect_env(&r, "FI_CXI_RDZV_EAGER_SIZE", "0");
	/* The provider keeps sends up to 192 B eager whatever we ask. */
	assert_string_equal(r.plan.rdzv_s, "Enabled (sends > 192 B)");
	assert_string_equal(r.plan.idc_s, "Disabled");

	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("FI_CXI_RDZV_THRESHOLD", "1000")), 0);
	assert_true(env_of(&r.plan, "FI_CXI_RDZV_THRESHOLD")->user_set);
	assert_string_equal(r.plan.rdzv_s, "Enabled (sends > 1000 B) (user "
			    "set FI_CXI_RDZV_THRESHOLD=1000)");

	cxi_plan(&r, "cxi_send_bw", NULL);
	assert_int_equal(r.plan.n_env, 0);
	assert_string_equal(r.plan.rdzv_s, "Disabled (the provider uses it "
			    "above 18433 B)");
}

static void test_cxi_atomics_restricted_unless_fetching(void **state)
{
	static const char *const fetch[] = { "--fetching", NULL };
	static const char *const cswap[] = { "-A", "CSWAP", NULL };
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_atomic_bw", NULL);
	assert_int_equal(r.plan.amo_flags, CXD_CXI_UNRELIABLE | CXD_CXI_HRP);
	assert_string_equal(r.plan.restricted_s, "Enabled");
	assert_string_equal(r.plan.hrp_s, "Enabled");
	assert_string_equal(r.plan.matching_s, "Disabled");
	assert_string_equal(r.plan.idc_s, "Enabled");
	assert_int_equal(r.plan.key_rx, 2);

	cxi_plan(&r, "cxi_atomic_lat", NULL); /* no HRP on latency tools */
	assert_int_equal(r.plan.amo_flags, CXD_CXI_UNRELIABLE);

	for (int i = 0; i < 2; i++) {
		cxi_plan(&r, "cxi_atomic_bw", i ? cswap : fetch);
		assert_int_equal(r.plan.amo_flags, 0);
		assert_string_equal(r.plan.restricted_s, "Disabled (fetching "
				    "and compare AMOs are unrestricted on "
				    "cxi)");
		assert_string_equal(r.plan.hrp_s, "Disabled - Not Applicable");
	}
}

static void test_cxi_matching_standard_keys_and_user_mrs(void **state)
{
	const char *forced[] = { "FI_CXI_OPTIMIZED_MRS", "1", NULL };
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_atomic_bw", ARGS("--matching"));
	expect_env(&r, "FI_CXI_OPTIMIZED_MRS", "0");
	assert_non_null(env_of(&r.plan, "FI_CXI_DISABLE_NON_INJECT_AMO_IDC"));
	assert_true(r.plan.key_tx > CXD_CXI_OPT_KEY_MAX);
	assert_true(r.plan.key_rx > CXD_CXI_OPT_KEY_MAX);
	assert_int_equal(r.plan.amo_flags, 0);
	assert_string_equal(r.plan.matching_s, "Enabled");
	assert_string_equal(r.plan.restricted_s, "Disabled");
	assert_string_equal(r.plan.idc_s, "Disabled");

	/* Client keys above 99 are standard whatever the user set ... */
	assert_int_equal(plan_for(&r, "cxi", NULL, forced), 0);
	assert_string_equal(r.plan.matching_s,
			    "Enabled (user set FI_CXI_OPTIMIZED_MRS=1)");
	/* ... provider keys follow the user's variable. */
	assert_int_equal(plan_for(&r, "cxi", &prov_keys, forced), 0);
	assert_string_equal(r.plan.matching_s,
			    "Disabled (user set FI_CXI_OPTIMIZED_MRS=1)");
}

static void test_read_unrestricted(void **state)
{
	struct run r;

	(void) state;
	cxi_plan(&r, "cxi_read_bw", NULL);
	assert_string_equal(r.plan.restricted_s, "Enabled");
	assert_int_equal(r.plan.n_env, 0);
	cxi_plan(&r, "cxi_read_bw", ARGS("--unrestricted"));
	/* Reads have no ordering switch: standard MRs make them so. */
	assert_int_equal(r.plan.msg_order, 0);
	expect_env(&r, "FI_CXI_OPTIMIZED_MRS", "0");
	assert_true(r.plan.key_rx > CXD_CXI_OPT_KEY_MAX);
	assert_string_equal(r.plan.restricted_s, "Disabled");
	/* Provider keys and the user keeping optimized MRs on. */
	assert_int_equal(plan_for(&r, "cxi", &prov_keys,
				  ENV("FI_CXI_OPTIMIZED_MRS", "on")), 0);
	assert_string_equal(r.plan.restricted_s, "Enabled (user set "
			    "FI_CXI_OPTIMIZED_MRS=on)");
}

static void test_auth_key(void **state)
{
	const char *bad[] = { "SLINGSHOT_VNIS", "abc", NULL };
	struct cxd_cxi_reported rep = { .have_key = true, .svc_id = 3,
					.vni = 9 };
	struct run r;

	(void) state;
	setup_run(&r, "cxi_write_bw", ARGS("-v", "5"));
	assert_true(r.cfg.local.svc_id_set);
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("SLINGSHOT_VNIS", "1024,1025")), 0);
	assert_true(r.plan.auth_key);
	assert_int_equal(r.plan.svc_id, 5);
	assert_int_equal(r.plan.vni, 1024);
	assert_int_equal(r.plan.addr_vni, 1024);
	assert_string_equal(r.plan.svc_s, "5 (VNI 1024 from SLINGSHOT_VNIS)");
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("FI_CXI_DEFAULT_VNI", "77")), 0);
	assert_int_equal(r.plan.vni, 77);
	assert_int_equal(plan_for(&r, "cxi", NULL, NULL), 0);
	assert_int_equal(r.plan.vni, CXD_CXI_DEFAULT_VNI);
	assert_string_equal(r.plan.svc_s, "5 (VNI 10, the provider's "
			    "default)");
	assert_int_equal(plan_for(&r, "cxi", NULL, bad), -EINVAL);
	assert_non_null(strstr(r.err, "SLINGSHOT_VNIS='abc'"));
	assert_int_equal(plan_for(&r, "cxi", NULL,
				  ENV("SLINGSHOT_VNIS", "70000")), -EINVAL);
	assert_non_null(strstr(r.err, "'70000'"));

	/* Without -v the provider chooses; fi_getinfo may say what. */
	setup_run(&r, "cxi_write_bw", NULL);
	assert_false(r.cfg.local.svc_id_set);
	assert_int_equal(plan_for(&r, "cxi", NULL, bad), 0);
	assert_false(r.plan.auth_key);
	assert_int_equal(plan_for(&r, "cxi", &rep, NULL), 0);
	assert_string_equal(r.plan.svc_s, "3 (provider default, VNI 9)");
	assert_int_equal(r.plan.addr_vni, 9);
}

/* Before the pick: cxi unless FI_PROVIDER rules it out; named tcp: none. */
static void test_cxi_prepare_unless_provider_not_cxi(void **state)
{
	static const char *const a[] = { "--no-ll", NULL };
	struct cxd_cxi_envsnap snap;
	struct run r;

	(void) state;
	unsetenv("FI_CXI_LLRING_MODE");
	setup_run(&r, "cxi_send_lat", a);
	setenv("FI_PROVIDER", "tcp", 1);
	memset(&snap, 0, sizeof(snap));
	assert_int_equal(prepare_for(&r, &snap, ""), 0);
	assert_false(r.plan.cxi);
	assert_null(getenv("FI_CXI_LLRING_MODE"));
	assert_int_equal(prepare_for(&r, &snap, "tcp;ofi_rxm"), 0);
	assert_false(r.plan.cxi);
	unsetenv("FI_PROVIDER");
	assert_int_equal(prepare_for(&r, &snap, ""), 0);
	assert_true(r.plan.cxi);
	assert_string_equal(getenv("FI_CXI_LLRING_MODE"), "never");
	/* Planned again after fi_getinfo: ours is still not the user's. */
	assert_int_equal(prepare_for(&r, &snap, "cxi"), 0);
	assert_false(env_of(&r.plan, "FI_CXI_LLRING_MODE")->user_set);
	assert_string_equal(r.plan.ll_s, "Disabled");
	unsetenv("FI_CXI_LLRING_MODE");
}

/* A bad SLINGSHOT_VNIS with -v fails a cxi run, not a guess at one. */
static void test_prepare_bad_vni(void **state)
{
	struct cxd_cxi_envsnap snap;
	struct run r;

	(void) state;
	unsetenv("FI_PROVIDER");
	setenv("SLINGSHOT_VNIS", "x1", 1);
	memset(&snap, 0, sizeof(snap));
	setup_run(&r, "cxi_write_bw", ARGS("-v", "4"));
	assert_int_equal(prepare_for(&r, &snap, ""), 0);
	assert_string_equal(r.err, "");
	assert_int_equal(prepare_for(&r, &snap, "cxi"), -EINVAL);
	assert_non_null(strstr(r.err, "SLINGSHOT_VNIS='x1'"));
	assert_int_equal(prepare_for(&r, &snap, "tcp"), 0);
	unsetenv("SLINGSHOT_VNIS");
}

static void test_cxi_address_decoded_and_formatted(void **state)
{
	uint32_t word = (0x13u << 9) | 5u, all = 0xffffffffu;
	struct cxd_cxi_addr a;
	char buf[64];

	(void) state;
	assert_int_equal(cxd_cxi_addr_decode(&word, sizeof(word), &a), 0);
	assert_int_equal(a.nic, 0x13);
	assert_int_equal(a.pid, 5);
	cxd_cxi_addr_str(&a, 10, false, buf, sizeof(buf));
	assert_string_equal(buf, "NIC 0x13 PID 5 VNI 10");
	cxd_cxi_addr_str(&a, -1, true, buf, sizeof(buf));
	assert_string_equal(buf, "NIC 0x13 PID 5 (loopback)");
	cxd_cxi_addr_str(&a, -1, false, buf, 8); /* truncated, terminated */
	assert_string_equal(buf, "NIC 0x1");
	assert_int_equal(cxd_cxi_addr_decode(&all, sizeof(all), &a), 0);
	assert_int_equal(a.nic, 0xfffff);
	assert_int_equal(a.pid, 511);
	assert_int_equal(cxd_cxi_addr_decode(&word, 3, &a), -1);
	assert_int_equal(cxd_cxi_addr_decode(NULL, 8, &a), -1);
}

/* What fi_getinfo reported: MR mode, caps and, with fi_cxi_ext.h, the
 * service and VNI the provider chose by itself. */
static void test_cxi_reported_mr_mode_caps_and_auth_key(void **state)
{
	struct cxd_fabric fab = { 0 };
	struct cxd_cxi_reported rep;

	(void) state;
	fab.info = fi_allocinfo();
	assert_non_null(fab.info);
	fab.info->domain_attr->mr_mode = FI_MR_PROV_KEY;
	fab.info->caps = FI_RMA;
#ifdef CXD_HAVE_CXI_EXT
	static struct cxip_nic_attr attr = { .version = 1,
					     .default_rgroup_id = 3,
					     .default_vni = 9 };
	static struct fid_nic nic = { .prov_attr = &attr };

	fab.info->nic = &nic;
#endif
	cxd_fabric_cxi_reported(&fab, &rep);
	assert_int_equal(rep.mr_mode, FI_MR_PROV_KEY);
	assert_int_equal(rep.caps, FI_RMA);
#ifdef CXD_HAVE_CXI_EXT
	assert_true(rep.have_key);
	assert_int_equal(rep.svc_id, 3);
	assert_int_equal(rep.vni, 9);
	assert_int_equal(sizeof(struct cxd_cxi_auth_key),
			 sizeof(struct cxi_auth_key));
	fab.info->nic = NULL; /* not ours to close */
#else
	assert_false(rep.have_key);
#endif
	fi_freeinfo(fab.info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_providers_untouched),
		cmocka_unit_test(test_write_defaults),
		cmocka_unit_test(test_write_unrestricted),
		cmocka_unit_test(test_idc_limits),
		cmocka_unit_test(test_write_not_optimized),
		cmocka_unit_test(test_no_hrp_no_idc_no_ll),
		cmocka_unit_test(test_user_already_set),
		cmocka_unit_test(test_apply_env_never_overrides),
		cmocka_unit_test(test_cxi_snapshot_keeps_the_user_env_once),
		cmocka_unit_test(test_cxi_rendezvous_plan_and_user_threshold),
		cmocka_unit_test(test_cxi_atomics_restricted_unless_fetching),
		cmocka_unit_test(test_cxi_matching_standard_keys_and_user_mrs),
		cmocka_unit_test(test_read_unrestricted),
		cmocka_unit_test(test_auth_key),
		cmocka_unit_test(test_cxi_prepare_unless_provider_not_cxi),
		cmocka_unit_test(test_prepare_bad_vni),
		cmocka_unit_test(test_cxi_address_decoded_and_formatted),
		cmocka_unit_test(test_cxi_reported_mr_mode_caps_and_auth_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

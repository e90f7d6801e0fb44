/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Cassini knobs on cxi for the other operations and the provider:
 * rendezvous, atomics, matching, reads, the auth key, the pick of the
 * provider, its address and what fi_getinfo reported (writes and the
 * environment: test_cxi_knobs.c). No Cassini NIC here: the provider's
 * answers are struct cxd_cxi_reported values, the environment a table.
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

/* fi_getinfo's answer where the provider chooses the memory keys. */
static const struct cxd_cxi_reported prov_keys = {
	.mr_mode = FI_MR_PROV_KEY,
};

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

CXD_UNIT_MAIN(
	cmocka_unit_test(test_cxi_rendezvous_plan_and_user_threshold),
	cmocka_unit_test(test_cxi_atomics_restricted_unless_fetching),
	cmocka_unit_test(test_cxi_matching_standard_keys_and_user_mrs),
	cmocka_unit_test(test_read_unrestricted),
	cmocka_unit_test(test_auth_key),
	cmocka_unit_test(test_cxi_prepare_unless_provider_not_cxi),
	cmocka_unit_test(test_prepare_bad_vni),
	cmocka_unit_test(test_cxi_address_decoded_and_formatted),
	cmocka_unit_test(test_cxi_reported_mr_mode_caps_and_auth_key))

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cxi plan's contact with the process: the environment snapshot, the
 * setenv that never overrides, and the cxi address in words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>

#include "cxi_knobs.h"
#include "fabric.h"

/* Every variable the plan reads or sets. */
static const char *const snap_names[] = {
	"FI_CXI_LLRING_MODE", "FI_CXI_OPTIMIZED_MRS",
	"FI_CXI_RDZV_THRESHOLD", "FI_CXI_RDZV_GET_MIN",
	"FI_CXI_RDZV_EAGER_SIZE", "FI_CXI_DISABLE_NON_INJECT_RMA_IDC",
	"FI_CXI_DISABLE_NON_INJECT_MSG_IDC",
	"FI_CXI_DISABLE_NON_INJECT_AMO_IDC", "SLINGSHOT_VNIS",
	"FI_CXI_DEFAULT_VNI",
};
#define N_NAMES (sizeof(snap_names) / sizeof(*snap_names))
_Static_assert(N_NAMES <= CXD_CXI_SNAP_MAX, "grow CXD_CXI_SNAP_MAX");

const char *cxd_cxi_getenv(void *unused, const char *name)
{
	(void) unused;
	return getenv(name);
}

void cxd_cxi_snapshot(struct cxd_cxi_envsnap *snap, cxd_env_fn env,
		      void *ctx)
{
	if (snap->taken)
		return;
	for (size_t i = 0; i < N_NAMES; i++) {
		const char *v = env(ctx, snap_names[i]);

		snap->set[i] = v != NULL;
		snprintf(snap->val[i], sizeof(snap->val[i]), "%s", v ? v : "");
	}
	snap->taken = true;
}

const char *cxd_cxi_snap_get(void *ctx, const char *name)
{
	const struct cxd_cxi_envsnap *snap = ctx;

	for (size_t i = 0; i < N_NAMES; i++)
		if (strcmp(snap_names[i], name) == 0)
			return snap->set[i] ? snap->val[i] : NULL;
	return NULL;
}

void cxd_cxi_apply_env(const struct cxd_cxi_plan *plan)
{
	/* overwrite = 0: a value the user chose stays. */
	for (size_t i = 0; i < plan->n_env; i++)
		if (!plan->env[i].user_set)
			setenv(plan->env[i].name, plan->env[i].value, 0);
}

void cxd_cxi_env_str(const struct cxd_cxi_plan *plan, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_env && used < len; i++) {
		const struct cxd_cxi_env *e = &plan->env[i];

		used += (size_t) snprintf(buf + used, len - used, "%s%s=%s%s",
					  i ? "; " : "", e->name,
					  e->user_set ? e->user : e->value,
					  e->user_set ? " (user's)" : "");
	}
	if (plan->n_env == 0)
		snprintf(buf, len, "none set");
}

int cxd_cxi_addr_decode(const void *addr, size_t len,
			struct cxd_cxi_addr *out)
{
	uint32_t v;

	if (addr == NULL || len < sizeof(v))
		return -1;
	/* The provider's bit-field word, host order as fi_av_straddr
	 * prints it: PID in the low 9 bits, then 20 bits of NIC. */
	memcpy(&v, addr, sizeof(v));
	out->pid = v & 0x1ffu;
	out->nic = (v >> 9) & 0xfffffu;
	return 0;
}

void cxd_cxi_addr_str(const struct cxd_cxi_addr *a, long vni, bool loopback,
		      char *buf, size_t len)
{
	int n = snprintf(buf, len, "NIC 0x%x PID %u", a->nic, a->pid);

	if (n < 0 || (size_t) n >= len)
		return;
	if (vni >= 0)
		n += snprintf(buf + n, len - (size_t) n, " VNI %ld", vni);
	if (loopback && (size_t) n < len)
		snprintf(buf + n, len - (size_t) n, " (loopback)");
}

void cxd_fabric_cxi_reported(const struct cxd_fabric *fab,
			     struct cxd_cxi_reported *rep)
{
	const struct fi_info *i = fab->info;

	memset(rep, 0, sizeof(*rep));
	rep->mr_mode = i->domain_attr->mr_mode;
	rep->caps = i->caps;
#ifdef CXD_HAVE_CXI_EXT
	/* The key the provider makes when given none (fi_cxi(7)). */
	if (i->nic && i->nic->prov_attr) {
		const struct cxip_nic_attr *a = i->nic->prov_attr;

		if (a->version >= 1) {
			rep->have_key = true;
			rep->svc_id = a->default_rgroup_id;
			rep->vni = a->default_vni;
		}
	}
#endif
}

int cxd_cxi_prepare(struct cxd_cxi_envsnap *snap, struct cxd_cxi_plan *plan,
		    const struct cxd_tool *tool, const struct cxd_run_opts *run,
		    const struct cxd_local_opts *local, const char *provider,
		    const struct cxd_cxi_reported *rep, char *err,
		    size_t errlen)
{
	const char *fp = getenv("FI_PROVIDER");
	char core[CXD_NAME_LEN];
	int ret;

	bool guess;

	cxd_fabric_core_name(provider, core, sizeof(core));
	/* Not chosen yet: cxi comes first when present. */
	guess = core[0] == '\0' && (fp == NULL || strstr(fp, "cxi"));
	if (guess)
		snprintf(core, sizeof(core), "cxi");
	cxd_cxi_snapshot(snap, cxd_cxi_getenv, NULL);
	ret = cxd_cxi_plan(tool, run, local, core, rep, cxd_cxi_snap_get, snap,
			   plan, err, errlen);
	/* A bad VNI matters only once cxi is the pick: judged again then. */
	if (ret != 0 && guess) {
		ret = 0;
		err[0] = '\0';
	}
	if (ret == 0 && rep == NULL)
		cxd_cxi_apply_env(plan);
	return ret;
}

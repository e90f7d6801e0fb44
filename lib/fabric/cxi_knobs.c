/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Cassini knobs on the cxi provider: a pure function from the options,
 * the provider and what fi_getinfo reported to environment variables, hint
 * fields, per-operation flags, MR keys and the summary's words. The facts
 * behind each rule are in fi_cxi(7); docs/cassini-knobs.md has the table.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rdma/fabric.h>

#include "base/amo.h"
#include "cxi_knobs.h"
#include "base/op_facts.h"

#ifdef CXD_HAVE_CXI_EXT
_Static_assert(CXD_CXI_HRP == FI_CXI_HRP, "FI_CXI_HRP moved");
_Static_assert(CXD_CXI_UNRELIABLE == FI_CXI_UNRELIABLE,
	       "FI_CXI_UNRELIABLE moved");
#endif

#define E_LL "FI_CXI_LLRING_MODE"
#define E_OPT "FI_CXI_OPTIMIZED_MRS"
#define E_THR "FI_CXI_RDZV_THRESHOLD"
#define E_GETMIN "FI_CXI_RDZV_GET_MIN"
#define E_EAGER "FI_CXI_RDZV_EAGER_SIZE"

/* Per command class (the tool row's operation facts: cxi). */
static const char *const idc_var[] = {
	[CXD_CXI_WRITE] = "FI_CXI_DISABLE_NON_INJECT_RMA_IDC",
	[CXD_CXI_READ] = NULL,
	[CXD_CXI_MSG] = "FI_CXI_DISABLE_NON_INJECT_MSG_IDC",
	[CXD_CXI_AMO] = "FI_CXI_DISABLE_NON_INJECT_AMO_IDC",
};

/* What the plan derives once and the summary words are built from. */
struct facts {
	const struct cxd_tool *tool;
	const struct cxd_run_opts *run;
	enum cxd_cxi_class cls; /* the tool's operation */
	bool amo_base;   /* non-fetching, non-compare AMO: takes op flags */
	bool standard;   /* the options ask for standard (matching) MRs */
	bool optimized;  /* the target MR: optimized, without events */
	char why[CXD_CXI_STR]; /* why not, for the summary */
	bool restricted;
	bool hrp;
};

static void put(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, CXD_CXI_STR, fmt, ap);
	va_end(ap);
}

static void want(struct cxd_cxi_plan *p, cxd_env_fn env, void *ctx,
		 const char *name, const char *value)
{
	struct cxd_cxi_env *e = &p->env[p->n_env++];
	const char *user = env(ctx, name);

	e->name = name;
	snprintf(e->value, sizeof(e->value), "%s", value);
	e->user_set = user != NULL;
	snprintf(e->user, sizeof(e->user), "%s", user ? user : "");
}

/* fi_param's boolean words; -1 when it is none of them. */
static int param_bool(const char *v)
{
	static const char *const no[] = { "0", "no", "false", "off" };
	static const char *const yes[] = { "1", "yes", "true", "on" };

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, no[i]) == 0)
			return 0;
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
	}
	return -1;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || (*end != '\0' && *end != ',') ? -EINVAL : 0;
}

static unsigned long long size_or(const char *v, unsigned long long def)
{
	unsigned long long n;

	return v && parse_u64(v, &n) == 0 ? n : def;
}

/* " (user set NAME=VALUE)" when the user's value of name is in force. */
static void user_note(cxd_env_fn env, void *ctx, const char *name, char *buf,
		      size_t len)
{
	const char *v = name ? env(ctx, name) : NULL;

	if (v)
		snprintf(buf, len, " (user set %s=%s)", name, v);
	else
		buf[0] = '\0';
}

/* The value in force: the user's, else ours, else NULL (default). */
static const char *effective(const struct cxd_cxi_plan *p, cxd_env_fn env,
			     void *ctx, const char *name)
{
	const char *v = env(ctx, name);

	for (size_t i = 0; v == NULL && i < p->n_env; i++)
		if (strcmp(p->env[i].name, name) == 0)
			v = p->env[i].value;
	return v;
}

static void plan_env(struct cxd_cxi_plan *p, const struct facts *f,
		     cxd_env_fn env, void *ctx)
{
	const struct cxd_tool *t = f->tool;
	const struct cxd_run_opts *r = f->run;
	bool rdzv = cxd_tool_has(t, CXD_F_RDZV) && cxd_run_has(r, CXD_RUN_RDZV);

	if (cxd_tool_has(t, CXD_F_LL) && cxd_run_has(r, CXD_RUN_NO_LL))
		want(p, env, ctx, E_LL, "never");
	/* -R and --matching take IDC away as in the originals. */
	if (cxd_tool_has(t, CXD_F_IDC) && idc_var[f->cls] &&
	    (cxd_run_has(r, CXD_RUN_NO_IDC) || rdzv ||
	     cxd_run_has(r, CXD_RUN_MATCHING)))
		want(p, env, ctx, idc_var[f->cls], "1");
	/* The provider raises a threshold under 192 B to 192 B. */
	if (rdzv) {
		want(p, env, ctx, E_THR, "0");
		want(p, env, ctx, E_GETMIN, "0");
		want(p, env, ctx, E_EAGER, "0");
	}
	if (f->standard)
		want(p, env, ctx, E_OPT, "0");
}

static void plan_mrs(struct cxd_cxi_plan *p, struct facts *f,
		     const struct cxd_cxi_reported *rep, cxd_env_fn env,
		     void *ctx)
{
	const char *opt = effective(p, env, ctx, E_OPT);
	bool opt_on = opt == NULL || param_bool(opt) != 0;
	bool prov_key = rep && (rep->mr_mode & FI_MR_PROV_KEY);
	bool events = rep && (rep->caps & FI_RMA_EVENT);
	char note[CXD_CXI_STR];

	/* Client keys above 99 are standard MRs whatever the variable says;
	 * provider keys follow FI_CXI_OPTIMIZED_MRS. */
	p->key_tx = f->standard ? CXD_CXI_OPT_KEY_MAX + 2 : 1;
	p->key_rx = f->standard ? CXD_CXI_OPT_KEY_MAX + 3 : 2;
	f->optimized = opt_on && (prov_key || !f->standard) && !events;
	user_note(env, ctx, E_OPT, note, sizeof(note));
	snprintf(f->why, sizeof(f->why), "%s", events ?
		 " (FI_RMA_EVENT is on)" : note[0] ? note :
		 " (standard MRs)");
}

static void plan_restricted(struct cxd_cxi_plan *p, struct facts *f)
{
	const struct cxd_run_opts *r = f->run;
	bool unr = cxd_run_has(r, CXD_RUN_UNRESTRICTED) ||
		   cxd_run_has(r, CXD_RUN_MATCHING);
	enum cxd_cxi_class op = f->cls;

	/* Write-after-write ordering makes the provider use unrestricted
	 * writes; reads have no such switch, only standard MRs. */
	if (op == CXD_CXI_WRITE && unr)
		p->msg_order = FI_ORDER_RMA_WAW;
	if (op == CXD_CXI_WRITE)
		f->restricted = !unr && f->optimized;
	else if (op == CXD_CXI_READ)
		f->restricted = f->optimized;
	else if (op == CXD_CXI_AMO)
		f->restricted = !unr && f->amo_base && f->optimized;
	if (op == CXD_CXI_AMO && f->restricted)
		p->amo_flags |= CXD_CXI_UNRELIABLE;
	if (!cxd_tool_has(f->tool, CXD_F_UNRESTRICTED))
		return;
	if (f->restricted && unr) /* only the user's variable does this */
		put(p->restricted_s, "Enabled%s", f->why);
	else if (f->restricted || unr)
		put(p->restricted_s, "%s", f->restricted ? "Enabled" :
		    "Disabled");
	else if (op == CXD_CXI_AMO && !f->amo_base)
		put(p->restricted_s, "Disabled (fetching and compare AMOs are "
		    "unrestricted on cxi)");
	else
		put(p->restricted_s, "Disabled%s", f->why);
}

static void plan_hrp(struct cxd_cxi_plan *p, struct facts *f)
{
	const struct cxd_run_opts *r = f->run;
	bool asked = !cxd_run_has(r, CXD_RUN_NO_HRP);

	if (!cxd_tool_has(f->tool, CXD_F_HRP))
		return;
	f->hrp = asked && f->restricted &&
		 (f->cls == CXD_CXI_AMO ||
		  r->min_size <= CXD_CXI_HRP_MAX);
	if (f->hrp && f->cls == CXD_CXI_AMO)
		p->amo_flags |= CXD_CXI_HRP;
	else if (f->hrp)
		p->hrp_flags = CXD_CXI_HRP;
	if (f->hrp && f->cls == CXD_CXI_WRITE &&
	    r->max_size > CXD_CXI_HRP_MAX)
		put(p->hrp_s, "Enabled (sizes <= %d)", CXD_CXI_HRP_MAX);
	else if (f->hrp)
		put(p->hrp_s, "Enabled");
	else if (asked && !f->restricted)
		put(p->hrp_s, "Disabled - Not Applicable");
	else
		put(p->hrp_s, "Disabled");
}

static void plan_idc(struct cxd_cxi_plan *p, const struct facts *f,
		     cxd_env_fn env, void *ctx)
{
	const struct cxd_run_opts *r = f->run;
	enum cxd_cxi_class op = f->cls;
	uint64_t limit = op == CXD_CXI_WRITE && f->restricted ?
			 CXD_CXI_IDC_RES : CXD_CXI_IDC_UNR;
	bool off = cxd_run_has(r, CXD_RUN_NO_IDC) ||
		   cxd_run_has(r, CXD_RUN_MATCHING) ||
		   (op == CXD_CXI_MSG && cxd_run_has(r, CXD_RUN_RDZV));
	const char *v;
	bool on;

	if (!cxd_tool_has(f->tool, CXD_F_IDC))
		return;
	v = effective(p, env, ctx, idc_var[op]);
	/*
	 * The line reads exactly Enabled or Disabled, as the originals print
	 * it (scripts match it). The variable spares FI_INJECT operations,
	 * which we drop for the options that turn IDC off; fetching and
	 * compare AMOs take no IDC.
	 */
	if (off || (op == CXD_CXI_AMO && !f->amo_base))
		on = false;
	else if (v && param_bool(v) == 1)
		on = true;
	else if (op != CXD_CXI_MSG && !f->optimized)
		on = false;
	else
		on = op == CXD_CXI_AMO || r->min_size <= limit;
	put(p->idc_s, "%s", on ? "Enabled" : "Disabled");
}

static void plan_ll_rdzv(struct cxd_cxi_plan *p, const struct facts *f,
			 cxd_env_fn env, void *ctx)
{
	unsigned long long thr, eager;
	const char *ll = effective(p, env, ctx, E_LL);
	char note[CXD_CXI_STR];

	if (cxd_tool_has(f->tool, CXD_F_LL)) {
		user_note(env, ctx, E_LL, note, sizeof(note));
		put(p->ll_s, "%s%s", ll && strcmp(ll, "never") == 0 ?
		    "Disabled" : "Enabled", note);
	}
	if (!cxd_tool_has(f->tool, CXD_F_RDZV))
		return;
	/* A send is eager up to threshold + get_min (fi_cxi(7)). */
	thr = size_or(effective(p, env, ctx, E_THR), CXD_CXI_RDZV_THRESHOLD);
	thr = thr < CXD_CXI_RDZV_FLOOR ? CXD_CXI_RDZV_FLOOR : thr;
	eager = thr + size_or(effective(p, env, ctx, E_GETMIN),
			      CXD_CXI_RDZV_GET_MIN);
	user_note(env, ctx, env(ctx, E_THR) ? E_THR : E_GETMIN, note,
		  sizeof(note));
	if (cxd_run_has(f->run, CXD_RUN_RDZV))
		put(p->rdzv_s, "Enabled (sends > %llu B)%s", eager, note);
	else
		put(p->rdzv_s, "Disabled (the provider uses it above %llu B)%s",
		    eager, note);
}

static void plan_matching(struct cxd_cxi_plan *p, const struct facts *f,
			  cxd_env_fn env, void *ctx)
{
	char note[CXD_CXI_STR];

	if (!cxd_tool_has(f->tool, CXD_F_ATOMIC))
		return;
	user_note(env, ctx, E_OPT, note, sizeof(note));
	put(p->matching_s, "%s%s", f->optimized ? "Disabled" : "Enabled",
	    note);
}

/* -v: the key {svc_id, VNI}; the VNI as the provider itself finds one. */
static int plan_key(struct cxd_cxi_plan *p, const struct cxd_local_opts *l,
		    const struct cxd_cxi_reported *rep, cxd_env_fn env,
		    void *ctx, char *err, size_t errlen)
{
	const char *from = "SLINGSHOT_VNIS", *v = env(ctx, from);
	unsigned long long vni = CXD_CXI_DEFAULT_VNI;

	p->addr_vni = rep && rep->have_key ? (long) rep->vni : -1;
	if (!l->svc_id_set) {
		if (rep && rep->have_key)
			put(p->svc_s, "%u (provider default, VNI %u)",
			    rep->svc_id, rep->vni);
		else
			put(p->svc_s, "provider default");
		return 0;
	}
	if (v == NULL) {
		from = "FI_CXI_DEFAULT_VNI";
		v = env(ctx, from);
	}
	if (v && (parse_u64(v, &vni) != 0 || vni > UINT16_MAX)) {
		snprintf(err, errlen, "%s='%s': with -v the first entry must "
			 "be a VNI from 0 to 65535", from, v);
		return -EINVAL;
	}
	p->auth_key = true;
	p->svc_id = l->svc_id;
	p->vni = (uint16_t) vni;
	p->addr_vni = (long) vni;
	put(p->svc_s, "%u (VNI %u%s%s)", l->svc_id, p->vni, v ? " from " : "",
	    v ? from : ", the provider's default");
	return 0;
}

int cxd_cxi_plan(const struct cxd_tool *tool, const struct cxd_run_opts *run,
		 const struct cxd_local_opts *local, const char *provider,
		 const struct cxd_cxi_reported *rep, cxd_env_fn env, void *ctx,
		 struct cxd_cxi_plan *plan, char *err, size_t errlen)
{
	struct facts f = { .tool = tool, .run = run, .cls = cxd_tool_facts(tool)->cxi };

	memset(plan, 0, sizeof(*plan));
	plan->key_tx = 1;
	plan->key_rx = 2;
	plan->addr_vni = -1;
	if (provider == NULL || strcmp(provider, "cxi") != 0)
		return 0;
	plan->cxi = true;
	f.amo_base = f.cls == CXD_CXI_AMO &&
		     !cxd_amo_returns_old(run->amo_op,
					  cxd_run_has(run, CXD_RUN_FETCHING));
	f.standard = (f.cls == CXD_CXI_AMO &&
		      cxd_run_has(run, CXD_RUN_MATCHING)) ||
		     (f.cls == CXD_CXI_READ &&
		      cxd_run_has(run, CXD_RUN_UNRESTRICTED));
	plan_env(plan, &f, env, ctx);
	plan_mrs(plan, &f, rep, env, ctx);
	plan_restricted(plan, &f);
	plan_hrp(plan, &f);
	plan_idc(plan, &f, env, ctx);
	plan_ll_rdzv(plan, &f, env, ctx);
	plan_matching(plan, &f, env, ctx);
	return plan_key(plan, local, rep, env, ctx, err, errlen);
}

uint64_t cxd_cxi_write_flags(const struct cxd_cxi_plan *plan, uint64_t size)
{
	return size <= CXD_CXI_HRP_MAX ? plan->hrp_flags : 0;
}

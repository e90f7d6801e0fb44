/* SPDX-License-Identifier: BSD-3-Clause */
/* The summary block: what is in force for this run, as the originals list it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/amo.h"
#include "gpu/gpu.h"
#include "session/session.h"
#include "ops/ops.h"
#include "run.h"

#define NA "Disabled - Not Applicable"

static const char *onoff(bool on)
{
	return on ? "Enabled" : "Disabled";
}

static bool is_cxi(const struct cxd_sess *s)
{
	return strcmp(s->run->provider, "cxi") == 0;
}

static void mem_line(struct cxd_sess *s, const char *key, int gpu)
{
	char label[32];

	cxd_mem_label(gpu, label, sizeof(label));
	cxd_kv_set(&s->info, key, "%s", label);
}

/* Each side's -t/-r: this side's options, the peer's from its address. */
static void add_memory(struct cxd_sess *s)
{
	bool bidir = cxd_run_has(s->run, CXD_RUN_BIDIR);
	const struct cxd_local_opts *l = &s->cfg->local;
	const struct cxd_addr_msg *p = &s->peer;
	int ctx = s->is_client ? l->tx_gpu : p->tx_gpu;
	int crx = s->is_client ? l->rx_gpu : p->rx_gpu;
	int stx = s->is_client ? p->tx_gpu : l->tx_gpu;
	int srx = s->is_client ? p->rx_gpu : l->rx_gpu;
	int ctype = s->is_client ? (s->gpu ? s->gpu->type : -1) : p->gpu_type;
	int stype = s->is_client ? p->gpu_type : (s->gpu ? s->gpu->type : -1);

	if (cxd_tool_is(s->tool, CXD_TRAIT_LOOPBACK)) {
		mem_line(s, "TX Mem", l->tx_gpu);
		mem_line(s, "RX Mem", l->rx_gpu);
		if (s->gpu)
			cxd_kv_set(&s->info, "GPU Type", "%s",
				   cxd_gpu_type_name(s->gpu->type));
		return;
	}
	mem_line(s, "Client TX Mem", ctx);
	if (bidir) {
		mem_line(s, "Client RX Mem", crx);
		mem_line(s, "Server TX Mem", stx);
	}
	mem_line(s, "Server RX Mem", srx);
	if (ctype != CXD_GPU_NONE)
		cxd_kv_set(&s->info, "Client GPU Type", "%s",
			   cxd_gpu_type_name(ctype));
	if (stype != CXD_GPU_NONE)
		cxd_kv_set(&s->info, "Server GPU Type", "%s",
			   cxd_gpu_type_name(stype));
}

/* "Write Size", "Min Read Size": the key carries the tool's noun. */
static void size_line(struct cxd_sess *s, const char *pre, const char *noun,
		      uint64_t v)
{
	char key[CXD_KV_KEY];

	snprintf(key, sizeof(key), "%s%s Size", pre, noun);
	cxd_kv_set(&s->info, key, "%llu", (unsigned long long) v);
}

static void add_test_type(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	const char *n = s->tool->noun;

	if (cxd_run_has(r, CXD_RUN_DURATION)) {
		cxd_kv_set(&s->info, "Test Type", "Duration");
		cxd_kv_set(&s->info, "Duration", "%llu seconds",
			   (unsigned long long) r->duration_s);
	} else {
		cxd_kv_set(&s->info, "Test Type", "Iteration");
		cxd_kv_set(&s->info, "Iterations", "%llu",
			   (unsigned long long) r->iters);
	}
	if (cxd_tool_has(s->tool, CXD_F_LATOPTS)) {
		cxd_kv_set(&s->info, "Warmup Iters", "%llu",
			   (unsigned long long) r->warmup);
		cxd_kv_set(&s->info, "Inter-Iter Gap", "%llu microseconds",
			   (unsigned long long) r->latency_gap_us);
	}
	/* Atomics take their size from -T: no -s, no size line. */
	if (!cxd_tool_has(s->tool, CXD_F_RANGE | CXD_F_LOOPBACK))
		return;
	if (cxd_tool_is(s->tool, CXD_TRAIT_LOOPBACK)) {
		cxd_kv_set(&s->info, "Write Size (B)", "%llu",
			   (unsigned long long) r->min_size);
		cxd_kv_set(&s->info, "Cmds per iter", "%llu",
			   (unsigned long long) r->list_size);
	} else if (r->min_size == r->max_size) {
		size_line(s, "", n, r->min_size);
	} else {
		size_line(s, "Min ", n, r->min_size);
		size_line(s, "Max ", n, r->max_size);
	}
}

static void add_atomic(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;

	cxd_kv_set(&s->info, "Atomic Op", "%s %s%s%s",
		   cxd_run_has(r, CXD_RUN_FETCHING) ? "FETCHING" :
		   "NON-FETCHING", cxd_amo_op_name(r->amo_op),
		   r->amo_op == CXD_AMO_CSWAP ? " " : "",
		   r->amo_op == CXD_AMO_CSWAP ? cxd_cswap_op_name(r->cswap_op) :
		   "");
	cxd_kv_set(&s->info, "Atomic Type", "%s", cxd_amo_type_name(r->amo_type));
}

/* The cxi knobs that are the plan's text on cxi and "Not Applicable"
 * elsewhere, in the order the originals print them (after IDC). */
static const struct knob_line {
	unsigned feature;
	const char *key;
	size_t text; /* offset of the plan's text in struct cxd_cxi_plan */
} knob_lines[] = {
#define KNOB(f, key, field) { f, key, offsetof(struct cxd_cxi_plan, field) }
	KNOB(CXD_F_RDZV, "Rendezvous PUTs", rdzv_s),
	KNOB(CXD_F_ATOMIC, "Matching LEs", matching_s),
	KNOB(CXD_F_UNRESTRICTED, "Restricted", restricted_s),
	KNOB(CXD_F_LL, "LL Cmd Launch", ll_s),
#undef KNOB
};

static void add_knobs(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	const struct cxd_tool *t = s->tool;
	bool cxi = is_cxi(s);

	if (cxd_tool_is(t, CXD_TRAIT_LISTS))
		cxd_kv_set(&s->info, "List Size", "%llu",
			   (unsigned long long) r->list_size);
	if (cxd_tool_has(t, CXD_F_HRP))
		cxd_kv_set(&s->info, "HRP", "%s", cxi ? s->cxi.hrp_s : NA);
	/* Exactly Enabled or Disabled (scripts match it); the provider's
	 * inject limit is in the JSON run info. Elsewhere than cxi: whether
	 * the smallest size is posted with FI_INJECT. */
	if (cxd_tool_has(t, CXD_F_IDC) && cxi)
		cxd_kv_set(&s->info, "IDC", "%s", s->cxi.idc_s);
	else if (cxd_tool_has(t, CXD_F_IDC))
		cxd_kv_set(&s->info, "IDC", "%s", onoff(cxd_ops_injects(
			   s->ops, r, r->min_size, s->fab->inject_size)));
	for (size_t i = 0; i < sizeof(knob_lines) / sizeof(knob_lines[0]); i++)
		if (cxd_tool_has(t, knob_lines[i].feature))
			cxd_kv_set(&s->info, knob_lines[i].key, "%s", cxi ?
				   (const char *) &s->cxi + knob_lines[i].text :
				   NA);
	if (cxd_tool_has(t, CXD_F_BIDIR))
		cxd_kv_set(&s->info, "Bidirectional", "%s",
			   onoff(cxd_run_has(r, CXD_RUN_BIDIR)));
}

static void add_buffers(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	size_t used = s->tx.len ? s->tx.len : s->rx.len, tx, rx;

	if (cxd_tool_has(s->tool, CXD_F_LATOPTS))
		cxd_kv_set(&s->info, "Results Reported", "%s",
			   cxd_run_has(r, CXD_RUN_REPORT_ALL) ? "All" :
			   "Summary");
	if (cxd_tool_has(s->tool, CXD_F_BUF)) {
		cxd_kv_set(&s->info, "Max RDMA Buf", "%llu (%zu used)",
			   (unsigned long long) r->buf_sz, used);
		cxd_kv_set(&s->info, "RDMA Buf Align", "%llu",
			   (unsigned long long) r->buf_align);
	}
	if (!cxd_tool_has(s->tool, CXD_F_HP))
		return;
	/* GPU buffers take no huge pages (the originals' rule). */
	tx = s->tx.gpu ? 0 : s->tx.len;
	rx = s->rx.gpu ? 0 : s->rx.len;
	if (r->hugepages == CXD_HP_NONE)
		cxd_kv_set(&s->info, "Hugepages", "Disabled");
	else if (tx + rx == 0)
		cxd_kv_set(&s->info, "Hugepages", NA);
	else
		cxd_kv_set(&s->info, "Hugepages", "Enabled (%s - %llu pages)",
			   r->hugepages == CXD_HP_2M ? "2M" : "1G",
			   (unsigned long long) (cxd_pages_needed(tx,
			   (int) r->hugepages) + cxd_pages_needed(rx,
			   (int) r->hugepages)));
}

/* cxi: "NIC 0x13 PID 0 VNI 10" as the originals; else libfabric's. */
static void ep_str(struct cxd_sess *s, const void *addr, size_t len,
		   bool local, char *buf, size_t buflen)
{
	struct cxd_cxi_addr a, me;
	uint8_t mine[CXD_MAX_FABRIC_ADDR];
	size_t mlen = sizeof(mine);
	char err[64];
	bool same = false;

	if (!is_cxi(s) || cxd_cxi_addr_decode(addr, len, &a) != 0) {
		cxd_fabric_straddr(s->fab, addr, buf, buflen);
		return;
	}
	/* The peer on this NIC: the originals add "(loopback)". */
	if (!local && cxd_fabric_getname(s->fab, mine, &mlen, err,
					 sizeof(err)) == 0 &&
	    cxd_cxi_addr_decode(mine, mlen, &me) == 0)
		same = me.nic == a.nic;
	cxd_cxi_addr_str(&a, local ? s->cxi.addr_vni : -1, same, buf, buflen);
}

static void add_endpoints(struct cxd_sess *s)
{
	const char *me = s->is_client ? "client" : "server";
	const char *peer = s->is_client ? "server" : "client";
	uint8_t addr[CXD_MAX_FABRIC_ADDR];
	size_t alen = sizeof(addr);
	char err[64], key[CXD_KV_KEY];

	if (cxd_fabric_getname(s->fab, addr, &alen, err, sizeof(err)) == 0)
		ep_str(s, addr, alen, true, s->info.local_ep,
		       sizeof(s->info.local_ep));
	if (cxd_tool_is(s->tool, CXD_TRAIT_SAMPLES))
		cxd_kv_set(&s->info, "Clock", "CLOCK_MONOTONIC_RAW (1 ns)");
	if (cxd_tool_is(s->tool, CXD_TRAIT_LOOPBACK))
		return; /* no remote end */
	ep_str(s, s->peer.addr, s->peer.addr_len, false, s->info.remote_ep,
	       sizeof(s->info.remote_ep));
	snprintf(key, sizeof(key), "Local (%s)", me);
	cxd_kv_set(&s->info, key, "%s", s->info.local_ep);
	snprintf(key, sizeof(key), "Remote (%s)", peer);
	cxd_kv_set(&s->info, key, "%s", s->info.remote_ep);
}

/* A bare line, last, as the originals print it. */
static void add_gpu_count(struct cxd_sess *s)
{
	char key[CXD_KV_KEY];

	if (s->gpu == NULL)
		return;
	snprintf(key, sizeof(key), "Found %d GPU(s)", s->gpu->ndev);
	cxd_kv_set(&s->info, key, "%s", "");
}

void cxd_summary_build(struct cxd_sess *s)
{
	struct cxd_summary_info *info = &s->info;
	const char *peer = s->via->name(s);

	info->is_server = !s->is_client;
	snprintf(info->provider, sizeof(info->provider), "%s",
		 s->fab->info->fabric_attr->prov_name);
	snprintf(info->domain, sizeof(info->domain), "%s",
		 s->fab->info->domain_attr->name);
	snprintf(info->peer, sizeof(info->peer), "%s", peer ? peer : "");
	cxd_kv_set(info, "Device", "%s", info->domain);
	cxd_kv_set(info, "Provider", "%s", info->provider);
	if (is_cxi(s)) {
		char env[CXD_KV_VAL];

		cxd_kv_set(info, "Service ID", "%s", s->cxi.svc_s);
		cxd_cxi_env_str(&s->cxi, env, sizeof(env));
		cxd_kv_set(info, "CXI Env", "%s", env);
	} else
		cxd_kv_set(info, "Service ID", "%u - Not Applicable",
			   s->cfg->local.svc_id);
	info->inject_size = s->fab->inject_size;
	if (s->run->tclass) { /* only when asked: the originals have no line */
		char tc[CXD_KV_VAL];

		cxd_fabric_tclass_note(s->fab, s->run->tclass, tc, sizeof(tc));
		cxd_kv_set(info, "Traffic Class", "%s", tc);
	}
	if (cxd_tool_has(s->tool, CXD_F_GPU)) /* -t -r */
		add_memory(s);
	add_test_type(s);
	if (cxd_tool_has(s->tool, CXD_F_ATOMIC)) /* -A -C -T --fetching */
		add_atomic(s);
	if (cxd_tool_is(s->tool, CXD_TRAIT_LOOPBACK)) {
		add_buffers(s);
		add_gpu_count(s);
		return;
	}
	add_knobs(s);
	add_buffers(s);
	add_endpoints(s);
	add_gpu_count(s);
}

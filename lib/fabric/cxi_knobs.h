/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Cassini knobs (-v, HRP, IDC, LL, restricted, matching, rendezvous)
 * mapped onto libfabric's cxi provider: a pure plan from the options, the
 * provider name, what fi_getinfo reported and an environment lookup. On
 * every other provider the plan is empty and changes nothing.
 */
#ifndef CXD_CXI_KNOBS_H
#define CXD_CXI_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cxd/config.h"
#include "cxd/tool.h"

#if defined(__has_include)
#if __has_include(<rdma/fi_cxi_ext.h>)
#define CXD_HAVE_CXI_EXT 1
#endif
#endif

/*
 * Operation flags of the cxi provider (fi_cxi(7), "High Rate Put" and
 * "Unreliable AMOs"). HPE's libfabric installs them in fi_cxi_ext.h; built
 * without it we use the same documented bit values, which cxi_knobs.c
 * checks against the header wherever the header exists.
 */
#define CXD_CXI_HRP (1ULL << 60)
#define CXD_CXI_UNRELIABLE (1ULL << 61)

/* The authorization key's layout as fi_cxi(7) documents it. */
#ifdef CXD_HAVE_CXI_EXT
/* The header relies on these being included first. */
#include <time.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_cxi_ext.h>
#define cxd_cxi_auth_key cxi_auth_key
#else
struct cxd_cxi_auth_key {
	uint32_t svc_id;
	uint16_t vni;
};
#endif

/* Provider facts the plan relies on (fi_cxi(7) and the provider source). */
#define CXD_CXI_HRP_MAX 2048      /* originals: HRP for sizes <= 2048 */
#define CXD_CXI_IDC_RES 224       /* IDC payload, restricted writes */
#define CXD_CXI_IDC_UNR 192       /* unrestricted writes, messages */
#define CXD_CXI_RDZV_FLOOR 192    /* the provider raises a lower threshold */
#define CXD_CXI_RDZV_THRESHOLD 16384
#define CXD_CXI_RDZV_GET_MIN 2049
#define CXD_CXI_DEFAULT_VNI 10    /* FI_CXI_DEFAULT_VNI when unset */
#define CXD_CXI_OPT_KEY_MAX 99    /* client keys 0..99: optimized MRs */

#define CXD_CXI_ENV_MAX 8
#define CXD_CXI_STR 96

/* One provider variable the plan wants set. */
struct cxd_cxi_env {
	const char *name;
	char value[16];         /* ours */
	char user[CXD_CXI_STR]; /* the user's value when already set */
	bool user_set;          /* then left alone */
};

/* What fi_getinfo reported for the chosen cxi entry. */
struct cxd_cxi_reported {
	uint64_t mr_mode;
	uint64_t caps;
	bool have_key;    /* the provider's own key (needs fi_cxi_ext.h) */
	uint32_t svc_id;
	uint32_t vni;
};

/* getenv-like lookup: NULL when the variable is not set. */
typedef const char *(*cxd_env_fn)(void *ctx, const char *name);

struct cxd_cxi_plan {
	bool cxi; /* false: nothing below applies */
	struct cxd_cxi_env env[CXD_CXI_ENV_MAX];
	size_t n_env;
	/* Authorization key for the domain: only with an explicit -v. */
	bool auth_key;
	uint32_t svc_id;
	uint16_t vni;
	long addr_vni;       /* VNI for the Local line, -1 when unknown */
	uint64_t msg_order;  /* tx_attr->msg_order for the hints */
	uint64_t hrp_flags;  /* RMA writes of size <= CXD_CXI_HRP_MAX */
	uint64_t amo_flags;  /* non-fetching, non-compare AMOs */
	uint64_t key_tx, key_rx; /* client-chosen MR keys */
	/* Summary values: what took effect, in words. */
	char svc_s[CXD_CXI_STR], hrp_s[CXD_CXI_STR], idc_s[CXD_CXI_STR];
	char restricted_s[CXD_CXI_STR], ll_s[CXD_CXI_STR];
	char rdzv_s[CXD_CXI_STR], matching_s[CXD_CXI_STR];
};

/*
 * The plan for one side. provider is the resolved core name ("cxi",
 * "tcp"); rep is NULL before fi_getinfo (then the strings assume
 * client-chosen keys and no provider key). 0, or -EINVAL with err naming
 * a bad SLINGSHOT_VNIS / FI_CXI_DEFAULT_VNI value.
 */
int cxd_cxi_plan(const struct cxd_tool *tool, const struct cxd_run_opts *run,
		 const struct cxd_local_opts *local, const char *provider,
		 const struct cxd_cxi_reported *rep, cxd_env_fn env, void *ctx,
		 struct cxd_cxi_plan *plan, char *err, size_t errlen);

/* Set the planned variables the user left unset; never overrides. */
void cxd_cxi_apply_env(const struct cxd_cxi_plan *plan);
/* "FI_CXI_LLRING_MODE=never; FI_CXI_...=1 (user's, left alone)". */
void cxd_cxi_env_str(const struct cxd_cxi_plan *plan, char *buf, size_t len);
/* Flags to OR into an RMA write of this size. */
uint64_t cxd_cxi_write_flags(const struct cxd_cxi_plan *plan, uint64_t size);

/*
 * The environment as the process started: taken once, before we set
 * anything, so a later plan still tells our values from the user's.
 */
#define CXD_CXI_SNAP_MAX 16
struct cxd_cxi_envsnap {
	bool taken;
	bool set[CXD_CXI_SNAP_MAX];
	char val[CXD_CXI_SNAP_MAX][CXD_CXI_STR];
};
void cxd_cxi_snapshot(struct cxd_cxi_envsnap *snap, cxd_env_fn env,
		      void *ctx);
const char *cxd_cxi_snap_get(void *snap, const char *name);
const char *cxd_cxi_getenv(void *unused, const char *name);

/*
 * One side's plan, its variables set: snapshot the environment (once),
 * plan for provider ("" = not chosen yet, so cxi unless FI_PROVIDER
 * rules it out) and, before fi_getinfo (rep NULL), setenv what the user
 * left unset. The variables must be in place before libfabric's first
 * fi_getinfo, when the provider reads them; other providers ignore them.
 */
int cxd_cxi_prepare(struct cxd_cxi_envsnap *snap, struct cxd_cxi_plan *plan,
		    const struct cxd_tool *tool, const struct cxd_run_opts *run,
		    const struct cxd_local_opts *local, const char *provider,
		    const struct cxd_cxi_reported *rep, char *err,
		    size_t errlen);

/* The 32-bit cxi address: PID in bits 0-8, NIC in bits 9-28 (cxip.h). */
struct cxd_cxi_addr {
	uint32_t nic;
	uint32_t pid;
};
int cxd_cxi_addr_decode(const void *addr, size_t len,
			struct cxd_cxi_addr *out);
/* "NIC 0x13 PID 0 VNI 10" (vni < 0: no VNI part), "... (loopback)". */
void cxd_cxi_addr_str(const struct cxd_cxi_addr *a, long vni, bool loopback,
		      char *buf, size_t len);

#endif

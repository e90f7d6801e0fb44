/* SPDX-License-Identifier: BSD-3-Clause */
/* libfabric objects for one side of a run: choose, open, register, close. */
#ifndef CXD_FABRIC_H
#define CXD_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include "cxd/config.h"

struct cxd_cxi_plan;
struct cxd_cxi_reported;

struct cxd_fabric {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_ep *ep;
	struct fid_cq *tx_cq; /* errors only: ops are posted without FI_COMPLETION */
	struct fid_cq *rx_cq; /* receive completions (send tools) */
	struct fid_cntr *tx_cntr; /* counts completed initiator operations */
	fi_addr_t peer;
	size_t inject_size;
	size_t tx_depth;
	uint64_t mr_mode;
};

struct cxd_mr {
	struct fid_mr *mr;
	void *desc;
	uint64_t key;
};

struct cxd_fabric_req {
	const char *provider; /* resolved name, e.g. "tcp" or "shm" */
	const char *domain;   /* -d, or "" for any */
	const char *src_host; /* local numeric address for IP providers */
	uint64_t caps;
	const struct cxd_cxi_plan *cxi; /* cxi: auth key, msg_order; or NULL */
	unsigned tclass;      /* enum cxd_tclass (base/tclass.h); 0: none */
};

/*
 * Choose a provider when the user named none: cxi when present, shm when
 * both ends share this host, then the fastest network provider listed.
 */
int cxd_fabric_pick(uint64_t caps, bool same_host, char *out, size_t len,
		    char *err, size_t errlen);
int cxd_fabric_open(const struct cxd_fabric_req *req,
		    struct cxd_fabric **fab_p, char *err, size_t errlen);
void cxd_fabric_close(struct cxd_fabric *fab);
/* What the opened provider does with the traffic class asked for, in
 * words for the summary ("low_latency (tcp: ...)"). */
void cxd_fabric_tclass_note(const struct cxd_fabric *fab, unsigned tclass,
			    char *buf, size_t len);
/* Register buf for local and remote access; key_hint is used when the
 * provider lets the application pick keys. */
int cxd_fabric_mr_reg(struct cxd_fabric *fab, void *buf, size_t len,
		      uint64_t key_hint, struct cxd_mr *mr, char *err,
		      size_t errlen);
/* The same for memory of an FI_HMEM interface (GPU) and its device. */
int cxd_fabric_mr_reg_hmem(struct cxd_fabric *fab, void *buf, size_t len,
			   uint64_t key_hint, enum fi_hmem_iface iface,
			   uint64_t device, struct cxd_mr *mr, char *err,
			   size_t errlen);
void cxd_fabric_mr_close(struct cxd_mr *mr);
int cxd_fabric_getname(struct cxd_fabric *fab, void *addr, size_t *len_p,
		       char *err, size_t errlen);
int cxd_fabric_add_peer(struct cxd_fabric *fab, const void *addr,
			char *err, size_t errlen);
/* Printable address of this endpoint or of the peer. */
void cxd_fabric_straddr(struct cxd_fabric *fab, const void *addr, char *buf,
			size_t len);
/* Describe the first error on the transmit queue after a failure. */
void cxd_fabric_tx_error(struct cxd_fabric *fab, char *err, size_t errlen);
/* shm endpoint names: unique per process ("cxd_<pid>_<nonce>"), and the
 * regions of owners that died (SIGKILL) are removed before a new one. */
void cxd_shm_name(char *buf, size_t len);
void cxd_shm_reap(void);
/* What fi_getinfo said that the cxi plan depends on. */
void cxd_fabric_cxi_reported(const struct cxd_fabric *fab,
			     struct cxd_cxi_reported *rep);
/* Remove this process's own regions (an exit that skips fi_close). */
void cxd_shm_remove_own(void);
/* The provider's devices (domains) in the order it lists them, each
 * once, loopback interfaces left out: up to max names, returns how many
 * there are (may exceed max), or a negative errno with err set. */
int cxd_fabric_devices(const char *prov, uint64_t caps,
		       char (*names)[CXD_NAME_LEN], int max, char *err,
		       size_t errlen);
/* Short provider name: "tcp;ofi_rxm" -> "tcp". */
void cxd_fabric_core_name(const char *prov, char *out, size_t len);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* libfabric setup from a tool's capabilities: provider choice, objects, MRs. */
#include <errno.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include "base/tclass.h"
#include "cxi_knobs.h"
#include "fabric.h"

/* The API the headers we build with define: 2.x changed defaults (tcp is a
 * native RDM provider there), and a 1.x request would get 1.x behaviour. */
#define CXD_FI_VERSION \
	(FI_MAJOR_VERSION >= 2 ? FI_VERSION(2, 0) : FI_VERSION(1, 17))

/* Fastest first; shm is only considered when both ends share a host. */
static const char *const preferred[] = {
	"cxi", "verbs", "efa", "psm3", "opx", "psm2", "ucx", "tcp", "sockets",
};

void cxd_fabric_core_name(const char *prov, char *out, size_t len)
{
	size_t n = strcspn(prov, ";");

	snprintf(out, len, "%.*s", (int) n, prov);
}

static struct fi_info *base_hints(uint64_t caps)
{
	struct fi_info *hints = fi_allocinfo();

	if (hints == NULL)
		return NULL;
	hints->caps = caps;
	hints->ep_attr->type = FI_EP_RDM;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
				      FI_MR_ALLOCATED | FI_MR_PROV_KEY |
				      FI_MR_ENDPOINT;
	/* Device memory is always registered, which FI_HMEM asks for. */
	if (caps & FI_HMEM)
		hints->domain_attr->mr_mode |= FI_MR_HMEM;
	hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->mode = 0; /* we pass no per-operation contexts */
	return hints;
}

static int has_provider(struct fi_info *list, const char *name)
{
	char core[64];

	for (struct fi_info *i = list; i; i = i->next) {
		cxd_fabric_core_name(i->fabric_attr->prov_name, core,
				     sizeof(core));
		if (strcmp(core, name) == 0)
			return 1;
	}
	return 0;
}

int cxd_fabric_pick(uint64_t caps, bool same_host, char *out, size_t len,
		    char *err, size_t errlen)
{
	struct fi_info *hints = base_hints(caps), *list = NULL;
	int ret;

	if (hints == NULL)
		return -ENOMEM;
	ret = fi_getinfo(CXD_FI_VERSION, NULL, NULL, 0, hints, &list);
	fi_freeinfo(hints);
	if (ret != 0 || list == NULL) {
		snprintf(err, errlen, "no libfabric provider offers the needed "
			 "capabilities (fi_getinfo: %s)", fi_strerror(-ret));
		return ret ? ret : -ENODATA;
	}
	ret = -ENODATA;
	if (has_provider(list, "cxi")) {
		snprintf(out, len, "cxi");
		ret = 0;
	} else if (same_host && has_provider(list, "shm")) {
		snprintf(out, len, "shm");
		ret = 0;
	}
	for (size_t i = 0; ret != 0 && i < sizeof(preferred) / sizeof(*preferred);
	     i++)
		if (has_provider(list, preferred[i])) {
			snprintf(out, len, "%s", preferred[i]);
			ret = 0;
		}
	if (ret != 0)
		cxd_fabric_core_name(list->fabric_attr->prov_name, out, len);
	fi_freeinfo(list);
	return 0;
}

/* A loopback interface reaches no other node: not a NIC to hand out. */
static bool is_loopback(const struct fi_info *i)
{
	const struct sockaddr *sa = i->src_addr;

	if (sa == NULL || i->src_addrlen < sizeof(*sa))
		return false;
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *) sa)->sin_addr
			      .s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(
			&((const struct sockaddr_in6 *) sa)->sin6_addr);
	return false;
}

int cxd_fabric_devices(const char *prov, uint64_t caps,
		       char (*names)[CXD_NAME_LEN], int max, char *err,
		       size_t errlen)
{
	struct fi_info *hints = base_hints(caps), *list = NULL;
	int n = 0, ret;

	if (hints == NULL)
		return -ENOMEM;
	hints->fabric_attr->prov_name = strdup(prov);
	ret = fi_getinfo(CXD_FI_VERSION, NULL, NULL, 0, hints, &list);
	fi_freeinfo(hints);
	if (ret != 0) {
		snprintf(err, errlen, "provider '%s' lists no device here "
			 "(fi_getinfo: %s)", prov, fi_strerror(-ret));
		return ret;
	}
	for (struct fi_info *i = list; i; i = i->next) {
		const char *d = i->domain_attr->name;
		int k = 0;

		while (k < n && k < max && strcmp(names[k], d) != 0)
			k++;
		if (k < n || is_loopback(i))
			continue; /* seen (one entry per endpoint kind) */
		if (n < max)
			snprintf(names[n], CXD_NAME_LEN, "%s", d);
		n++;
	}
	fi_freeinfo(list);
	return n;
}

/* The entry for the named domain. Providers of libfabric 1.17 ignore a
 * domain name they do not have, so the name is checked here. */
static struct fi_info *find_domain(struct fi_info *list, const char *name,
				   char *err, size_t errlen)
{
	size_t used = 0;

	for (struct fi_info *i = list; i; i = i->next)
		if (strcmp(i->domain_attr->name, name) == 0)
			return i;
	used = (size_t) snprintf(err, errlen, "no domain '%s' on provider "
				 "'%s' here (-d); it has:", name,
				 list->fabric_attr->prov_name);
	for (struct fi_info *i = list; i && used < errlen; i = i->next) {
		struct fi_info *j = list;

		while (j != i && strcmp(j->domain_attr->name,
					i->domain_attr->name) != 0)
			j = j->next;
		if (j == i) /* first time this name is seen */
			used += (size_t) snprintf(err + used, errlen - used,
						  " %s", i->domain_attr->name);
	}
	return NULL;
}

/* The cxi plan's part of the hints: ordering (restricted or not) and,
 * with -v, the authorization key; fi_freeinfo releases the key. */
static int cxi_hints(const struct cxd_cxi_plan *plan, struct fi_info *hints)
{
	struct cxd_cxi_auth_key *key;

	if (plan == NULL || !plan->cxi)
		return 0;
	hints->tx_attr->msg_order = plan->msg_order;
	if (!plan->auth_key)
		return 0;
	key = calloc(1, sizeof(*key));
	if (key == NULL)
		return -ENOMEM;
	key->svc_id = plan->svc_id;
	key->vni = plan->vni;
	hints->domain_attr->auth_key = (uint8_t *) key;
	hints->domain_attr->auth_key_size = sizeof(*key);
	return 0;
}

/* --tclass: our index to libfabric's label (fi_endpoint(3)). */
static uint32_t tclass_fi(unsigned tc)
{
	static const uint32_t fi[CXD_TC_COUNT] = {
		FI_TC_UNSPEC, FI_TC_LOW_LATENCY, FI_TC_BULK_DATA,
		FI_TC_DEDICATED_ACCESS, FI_TC_BEST_EFFORT, FI_TC_SCAVENGER,
	};

	return tc < CXD_TC_COUNT ? fi[tc] : FI_TC_UNSPEC;
}

/*
 * Read in libfabric 2.6's provider sources: tcp's only
 * use of the class is to leave Nagle on (no TCP_NODELAY) for bulk_data,
 * unless FI_TCP_NODELAY says otherwise; it sets no IP TOS/DSCP mark. shm
 * ignores it. cxi maps it to the NIC's traffic classes.
 */
void cxd_fabric_tclass_note(const struct cxd_fabric *fab, unsigned tclass,
			    char *buf, size_t len)
{
	const char *prov = fab->info->fabric_attr->prov_name;
	const char *what = "passed to the provider";
	bool tcp = strncmp(prov, "tcp", 3) == 0; /* "tcp;ofi_rxm" too */

	if (strcmp(prov, "cxi") == 0)
		what = "the NIC's traffic class";
	else if (tcp && tclass == CXD_TC_BULK_DATA)
		what = "no IP TOS/DSCP mark; Nagle left on";
	else if (tcp)
		what = "no effect: no IP TOS/DSCP mark";
	else if (strcmp(prov, "shm") == 0)
		what = "no effect: shm ignores it";
	if (tclass == CXD_TC_UNSPEC)
		snprintf(buf, len, "%s", cxd_tclass_name(tclass));
	else
		snprintf(buf, len, "%s (%s: %s)", cxd_tclass_name(tclass),
			 prov, what);
}

/* IP providers take the control connection's local address as source,
 * so the data path uses the interface that reaches the peer, unless the
 * user named a domain (an interface) with -d. */
static int get_info(const struct cxd_fabric_req *req, struct fi_info **info_p,
		    char *err, size_t errlen)
{
	struct fi_info *hints = base_hints(req->caps), *list = NULL, *pick;
	bool named = req->domain && *req->domain;
	char shm_name[64];
	const char *node = NULL;
	uint64_t flags = 0;
	int ret;

	if (hints == NULL)
		return -ENOMEM;
	hints->fabric_attr->prov_name = strdup(req->provider);
	if (named)
		hints->domain_attr->name = strdup(req->domain);
	hints->tx_attr->tclass = hints->domain_attr->tclass =
		tclass_fi(req->tclass);
	ret = cxi_hints(req->cxi, hints);
	if (ret != 0) {
		fi_freeinfo(hints);
		return ret;
	}
	if (strcmp(req->provider, "shm") == 0) {
		cxd_shm_reap();
		cxd_shm_name(shm_name, sizeof(shm_name));
		node = shm_name;
		flags = FI_SOURCE;
	} else if (!named && req->src_host && *req->src_host &&
		   strcmp(req->provider, "cxi")) {
		node = req->src_host;
		flags = FI_SOURCE;
	}
	ret = fi_getinfo(CXD_FI_VERSION, node, NULL, flags, hints, &list);
	if (ret == -FI_ENODATA && node) /* provider without IP addressing */
		ret = fi_getinfo(CXD_FI_VERSION, NULL, NULL, 0, hints, &list);
	fi_freeinfo(hints);
	if (ret != 0 || list == NULL) {
		int n = snprintf(err, errlen, "provider '%s'%s%s cannot run "
				 "this test here (fi_getinfo: %s)",
				 req->provider, named ? " on domain " : "",
				 named ? req->domain : "", fi_strerror(-ret));

		if (req->cxi && req->cxi->auth_key && n > 0 &&
		    (size_t) n < errlen)
			snprintf(err + n, errlen - (size_t) n, " with service "
				 "ID %u and VNI %u (-v; is this user allowed "
				 "that service and VNI?)", req->cxi->svc_id,
				 req->cxi->vni);
		return ret ? ret : -ENODATA;
	}
	pick = named ? find_domain(list, req->domain, err, errlen) : list;
	*info_p = pick ? fi_dupinfo(pick) : NULL;
	fi_freeinfo(list);
	if (pick == NULL)
		return -ENODEV;
	return *info_p ? 0 : -ENOMEM;
}

#define CHECK(call, what)                                                   \
	do {                                                                \
		ret = (call);                                               \
		if (ret != 0) {                                             \
			snprintf(err, errlen, "%s failed: %s", what,        \
				 fi_strerror(-ret));                        \
			goto out_close;                                     \
		}                                                           \
	} while (0)

static int open_queues(struct cxd_fabric *fab, char *err, size_t errlen)
{
	struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_TAGGED,
				      .wait_obj = FI_WAIT_NONE };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP,
					  .wait_obj = FI_WAIT_NONE };
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = 4 };
	int ret;

	cq_attr.size = fab->tx_depth + 64;
	CHECK(fi_av_open(fab->domain, &av_attr, &fab->av, NULL), "fi_av_open");
	CHECK(fi_cq_open(fab->domain, &cq_attr, &fab->tx_cq, NULL),
	      "fi_cq_open (transmit)");
	cq_attr.size = fab->info->rx_attr->size + 64;
	CHECK(fi_cq_open(fab->domain, &cq_attr, &fab->rx_cq, NULL),
	      "fi_cq_open (receive)");
	CHECK(fi_cntr_open(fab->domain, &cntr_attr, &fab->tx_cntr, NULL),
	      "fi_cntr_open");
	CHECK(fi_ep_bind(fab->ep, &fab->av->fid, 0), "binding the AV");
	CHECK(fi_ep_bind(fab->ep, &fab->tx_cq->fid,
			 FI_TRANSMIT | FI_SELECTIVE_COMPLETION),
	      "binding the transmit CQ");
	CHECK(fi_ep_bind(fab->ep, &fab->rx_cq->fid, FI_RECV),
	      "binding the receive CQ");
	CHECK(fi_ep_bind(fab->ep, &fab->tx_cntr->fid,
			 FI_SEND | FI_WRITE | FI_READ),
	      "binding the completion counter");
	CHECK(fi_enable(fab->ep), "fi_enable");
out_close:
	return ret;
}

int cxd_fabric_open(const struct cxd_fabric_req *req,
		    struct cxd_fabric **fab_p, char *err, size_t errlen)
{
	struct cxd_fabric *fab = calloc(1, sizeof(*fab));
	int ret;

	if (fab == NULL)
		return -ENOMEM;
	fab->peer = FI_ADDR_UNSPEC;
	ret = get_info(req, &fab->info, err, errlen);
	if (ret != 0)
		goto out_close;
	fab->inject_size = fab->info->tx_attr->inject_size;
	fab->mr_mode = fab->info->domain_attr->mr_mode;
	fab->tx_depth = fab->info->tx_attr->size;
	CHECK(fi_fabric(fab->info->fabric_attr, &fab->fabric, NULL),
	      "fi_fabric");
	CHECK(fi_domain(fab->fabric, fab->info, &fab->domain, NULL),
	      "fi_domain");
	CHECK(fi_endpoint(fab->domain, fab->info, &fab->ep, NULL),
	      "fi_endpoint");
	ret = open_queues(fab, err, errlen);
	if (ret != 0)
		goto out_close;
	*fab_p = fab;
	return 0;
out_close:
	cxd_fabric_close(fab);
	return ret;
}

static void close_fid(struct fid *fid)
{
	if (fid)
		fi_close(fid);
}

void cxd_fabric_close(struct cxd_fabric *fab)
{
	if (fab == NULL)
		return;
	/* Reverse order of creation: endpoint before what it is bound to. */
	close_fid(fab->ep ? &fab->ep->fid : NULL);
	close_fid(fab->tx_cntr ? &fab->tx_cntr->fid : NULL);
	close_fid(fab->rx_cq ? &fab->rx_cq->fid : NULL);
	close_fid(fab->tx_cq ? &fab->tx_cq->fid : NULL);
	close_fid(fab->av ? &fab->av->fid : NULL);
	close_fid(fab->domain ? &fab->domain->fid : NULL);
	close_fid(fab->fabric ? &fab->fabric->fid : NULL);
	if (fab->info)
		fi_freeinfo(fab->info);
	free(fab);
}

int cxd_fabric_mr_reg(struct cxd_fabric *fab, void *buf, size_t len,
		      uint64_t key_hint, struct cxd_mr *mr, char *err,
		      size_t errlen)
{
	return cxd_fabric_mr_reg_hmem(fab, buf, len, key_hint, FI_HMEM_SYSTEM,
				      0, mr, err, errlen);
}

int cxd_fabric_mr_reg_hmem(struct cxd_fabric *fab, void *buf, size_t len,
			   uint64_t key_hint, enum fi_hmem_iface iface,
			   uint64_t device, struct cxd_mr *mr, char *err,
			   size_t errlen)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_mr_attr attr;
	int ret;

	memset(mr, 0, sizeof(*mr));
	memset(&attr, 0, sizeof(attr));
	attr.mr_iov = &iov;
	attr.iov_count = 1;
	attr.access = FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE |
		      FI_SEND | FI_RECV;
	attr.requested_key = key_hint;
	attr.iface = iface;
	attr.device.reserved = device;
	ret = fi_mr_regattr(fab->domain, &attr, 0, &mr->mr);
	if (ret != 0) {
		snprintf(err, errlen, "fi_mr_regattr of %zu bytes (memory "
			 "interface %d) on provider '%s' failed: %s", len,
			 (int) iface, fab->info->fabric_attr->prov_name,
			 fi_strerror(-ret));
		return ret;
	}
	if (fab->mr_mode & FI_MR_ENDPOINT) {
		ret = fi_mr_bind(mr->mr, &fab->ep->fid, 0);
		if (ret == 0)
			ret = fi_mr_enable(mr->mr);
		if (ret != 0) {
			snprintf(err, errlen, "binding a memory region to the "
				 "endpoint failed: %s", fi_strerror(-ret));
			cxd_fabric_mr_close(mr);
			return ret;
		}
	}
	mr->desc = fi_mr_desc(mr->mr);
	mr->key = fi_mr_key(mr->mr);
	return 0;
}

void cxd_fabric_mr_close(struct cxd_mr *mr)
{
	if (mr->mr)
		fi_close(&mr->mr->fid);
	mr->mr = NULL;
}

int cxd_fabric_getname(struct cxd_fabric *fab, void *addr, size_t *len_p,
		       char *err, size_t errlen)
{
	int ret = fi_getname(&fab->ep->fid, addr, len_p);

	if (ret != 0)
		snprintf(err, errlen, "fi_getname failed: %s (address needs "
			 "%zu bytes)", fi_strerror(-ret), *len_p);
	return ret;
}

int cxd_fabric_add_peer(struct cxd_fabric *fab, const void *addr, char *err,
			size_t errlen)
{
	int ret = fi_av_insert(fab->av, addr, 1, &fab->peer, 0, NULL);

	if (ret != 1) {
		snprintf(err, errlen, "the peer's fabric address was refused "
			 "(fi_av_insert: %s)", fi_strerror(ret < 0 ? -ret : EINVAL));
		return ret < 0 ? ret : -EINVAL;
	}
	return 0;
}

void cxd_fabric_straddr(struct cxd_fabric *fab, const void *addr, char *buf,
			size_t len)
{
	size_t n = len;

	if (fi_av_straddr(fab->av, addr, buf, &n) == NULL)
		snprintf(buf, len, "?");
}

void cxd_fabric_tx_error(struct cxd_fabric *fab, char *err, size_t errlen)
{
	struct fi_cq_err_entry e = { 0 };
	char pbuf[128] = "";

	if (fi_cq_readerr(fab->tx_cq, &e, 0) != 1) {
		snprintf(err, errlen, "an operation failed (no error details "
			 "from the provider)");
		return;
	}
	fi_cq_strerror(fab->tx_cq, e.prov_errno, e.err_data, pbuf,
		       sizeof(pbuf));
	snprintf(err, errlen, "an operation failed: %s (provider: %s)",
		 fi_strerror(e.err), pbuf);
}

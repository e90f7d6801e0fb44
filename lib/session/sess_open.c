/* SPDX-License-Identifier: BSD-3-Clause */
/* This side's fabric, buffers and address; the address exchange. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "wire/hs.h"
#include "base/signals.h"
#include "sess_priv.h"

/* This side's buffers, as the originals size them (wire/hs.c). */
static void plan_memory(const struct cxd_sess *s, uint64_t *tx_p,
			uint64_t *rx_p)
{
	cxd_plan_memory(s->tool, s->run, s->is_client, s->via->both_roles,
			tx_p, rx_p);
}

int cxd_sess_check_hugepages(struct cxd_sess *s)
{
	uint64_t tx, rx, pages;
	long have;
	int hp = (int) s->run->hugepages;

	if (hp == CXD_HP_NONE)
		return 0;
	plan_memory(s, &tx, &rx);
	/* GPU buffers take no huge pages. */
	pages = (s->cfg->local.tx_gpu < 0 ? cxd_pages_needed(tx, hp) : 0) +
		(s->cfg->local.rx_gpu < 0 ? cxd_pages_needed(rx, hp) : 0);
	have = cxd_hp_free(hp);
	if (have < 0 || (uint64_t) have < pages)
		return cxd_sess_fail(s, -ENOMEM, "Insufficient %s huge pages. "
				     "Need %llu to run (the %s has %ld free)",
				     hp == CXD_HP_2M ? "2M" : "1G",
				     (unsigned long long) pages,
				     s->is_client ? "client" : "server",
				     have < 0 ? 0 : have);
	return 0;
}

/* The cxi knobs for this side; see cxd_cxi_prepare. */
int cxd_sess_knobs(struct cxd_sess *s, const char *provider,
		 const struct cxd_cxi_reported *rep)
{
	return cxd_cxi_prepare(&s->env0, &s->cxi, s->tool, s->run,
			       &s->cfg->local, provider, rep, s->err,
			       sizeof(s->err));
}

static int open_side(struct cxd_sess *s)
{
	struct cxd_fabric_req req = { 0 };
	struct cxd_cxi_reported rep;
	char host[128] = "";
	int ret = cxd_sess_knobs(s, s->run->provider, NULL);

	if (ret)
		return ret;
	s->via->src_host(s, host, sizeof(host));
	req.provider = s->run->provider;
	req.domain = s->cfg->local.device;
	req.src_host = host;
	req.caps = s->ops->facts.caps;
	req.cxi = &s->cxi;
	req.tclass = s->run->tclass;
	ret = cxd_sess_mem_open(s, &req.caps);
	if (ret == 0) {
		ret = cxd_fabric_open(&req, &s->fab, s->err, sizeof(s->err));
		cxd_sig_install(); /* again: the shm provider installs its own */
	}
	if (ret == 0 && s->cxi.cxi) {
		cxd_fabric_cxi_reported(s->fab, &rep);
		ret = cxd_sess_knobs(s, s->run->provider, &rep);
	}
	if (ret == 0)
		ret = cxd_sess_mem_register(s);
	return ret;
}

static int fill_addr(struct cxd_sess *s, struct cxd_addr_msg *m)
{
	size_t alen = sizeof(m->addr);
	int ret;

	memset(m, 0, sizeof(*m));
	ret = cxd_fabric_getname(s->fab, m->addr, &alen, s->err,
				 sizeof(s->err));
	if (ret)
		return ret;
	m->addr_len = (uint32_t) alen;
	snprintf(m->provider, sizeof(m->provider), "%s", s->run->provider);
	snprintf(m->domain, sizeof(m->domain), "%s",
		 s->fab->info->domain_attr->name);
	m->key = s->rx_mr.key;
	m->rx_len = s->rx.map_len;
	m->tx_gpu = s->cfg->local.tx_gpu;
	m->rx_gpu = s->cfg->local.rx_gpu;
	m->gpu_type = s->gpu ? s->gpu->type : CXD_GPU_NONE;
	m->gpu_count = s->gpu ? (uint32_t) s->gpu->ndev : 0;
	m->uid = (uint32_t) geteuid();
	if (s->fab->mr_mode & FI_MR_VIRT_ADDR)
		m->rx_base = (uint64_t) (uintptr_t) s->rx.ptr;
	return 0;
}

int cxd_sess_open_local(struct cxd_sess *s, struct cxd_addr_msg *mine)
{
	int ret = open_side(s);

	if (ret == 0)
		ret = fill_addr(s, mine);
	if (ret == 0)
		ret = cxd_sess_prepare(s);
	return ret;
}

#define SHM_SAME_USER "with shm both sides must run as the same user: run " \
	"both as the same user, or use --provider tcp"

/* shm maps the peer's memory, which only the same user may do; the
 * providers say EINVAL (1.17) or never move data (2.x): check first. */
static int add_peer(struct cxd_sess *s)
{
	bool shm = s->via->separate && strcmp(s->run->provider, "shm") == 0;
	size_t n;
	int ret;

	if (shm && s->peer.uid != (uint32_t) geteuid())
		return cxd_sess_fail(s, -EPERM, "%s runs as user %u and this "
				     "side as user %u; " SHM_SAME_USER,
				     cxd_sess_who(s), s->peer.uid,
				     (unsigned) geteuid());
	ret = cxd_fabric_add_peer(s->fab, s->peer.addr, s->err,
				  sizeof(s->err));
	n = strlen(s->err);
	if (ret && shm)
		snprintf(s->err + n, sizeof(s->err) - n, " (" SHM_SAME_USER
			 ")");
	return ret;
}

/* Open the fabric, swap addresses (client first), add the peer. */
int cxd_sess_exchange_addrs(struct cxd_sess *s)
{
	struct cxd_addr_msg mine;
	int ret = open_side(s);

	cxd_sess_enter(s, "the address exchange");
	if (ret == 0)
		ret = fill_addr(s, &mine);
	if (ret == 0)
		ret = s->via->swap_addr(s, &mine, &s->peer);
	if (ret == 0)
		ret = add_peer(s);
	return ret;
}

int cxd_sess_prepare(struct cxd_sess *s)
{
	cxd_sess_enter(s, "the buffer setup");
	cxd_buf_touch(&s->tx);
	cxd_buf_touch(&s->rx);
	return s->ops->setup ? s->ops->setup(s) : 0;
}

int cxd_sess_pick_provider(struct cxd_sess *s, bool same_host)
{
	int ret = cxd_sess_knobs(s, s->cfg->local.provider, NULL);

	if (ret)
		return ret;
	if (s->cfg->local.provider[0]) {
		cxd_fabric_core_name(s->cfg->local.provider,
				     s->cfg->run.provider, CXD_NAME_LEN);
		return 0;
	}
	return cxd_fabric_pick(s->ops->facts.caps, same_host, s->cfg->run.provider,
			       CXD_NAME_LEN, s->err, sizeof(s->err));
}

void cxd_sess_close(struct cxd_sess *s)
{
	if (s->ops && s->ops->teardown && s->fab)
		s->ops->teardown(s);
	cxd_fabric_mr_close(&s->rx_mr);
	cxd_fabric_mr_close(&s->tx_mr);
	cxd_fabric_close(s->fab);
	s->fab = NULL;
	cxd_sess_mem_close(s);
	s->via->close(s);
}

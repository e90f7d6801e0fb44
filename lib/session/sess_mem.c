/* SPDX-License-Identifier: BSD-3-Clause */
/* This side's data buffers: host or GPU memory (-t/-r), allocated, filled
 * as the originals fill them (TX pattern, RX zero) and registered. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"
#include "wire/hs.h"
#include "sess_priv.h"

#define TX_FILL 0xA5

/* -g, or the type the device files on this node say. */
static int resolve_type(const struct cxd_sess *s)
{
	const char *root = cxd_gpu_standin_devroot ? cxd_gpu_standin_devroot()
						   : "";

	if (s->cfg->local.gpu_type != CXD_GPU_NONE)
		return s->cfg->local.gpu_type;
	return cxd_gpu_default_type(root);
}

int cxd_sess_mem_open(struct cxd_sess *s, uint64_t *caps_p)
{
	const struct cxd_local_opts *l = &s->cfg->local;
	int ret;

	if (l->tx_gpu < 0 && l->rx_gpu < 0)
		return 0;
	ret = cxd_gpu_open(resolve_type(s), &s->gpu, s->err, sizeof(s->err));
	if (ret == 0 && l->tx_gpu >= 0)
		ret = cxd_gpu_check_index(s->gpu, l->tx_gpu, "Invalid src gpu "
					  "device (-t)", s->err,
					  sizeof(s->err));
	if (ret == 0 && l->rx_gpu >= 0)
		ret = cxd_gpu_check_index(s->gpu, l->rx_gpu, "Invalid dest gpu "
					  "device (-r)", s->err,
					  sizeof(s->err));
	if (ret == 0)
		ret = cxd_gpu_fabric_check(s->gpu, s->run->provider, *caps_p,
					   s->err, sizeof(s->err));
	if (ret)
		return ret;
	if (s->gpu->iface != FI_HMEM_SYSTEM)
		*caps_p |= FI_HMEM;
	/* The originals turn IDC off for a GPU TX buffer: an inject copies
	 * from the buffer with the CPU, which device memory does not allow. */
	if (l->tx_gpu >= 0)
		s->cfg->run.flags |= CXD_RUN_NO_IDC;
	return 0;
}

static int alloc_one(struct cxd_sess *s, uint64_t len, int gpu, uint8_t fill,
		     struct cxd_buf *b)
{
	if (gpu < 0)
		return cxd_buf_alloc(len, (int) s->run->hugepages, fill, b,
				     s->err, sizeof(s->err));
	return cxd_buf_alloc_gpu(s->gpu, gpu, len, fill, b, s->err,
				 sizeof(s->err));
}

static int reg_one(struct cxd_sess *s, struct cxd_buf *b, uint64_t key,
		   struct cxd_mr *mr)
{
	enum fi_hmem_iface iface = b->gpu ? b->gpu->iface : FI_HMEM_SYSTEM;
	uint64_t dev = b->gpu ? (uint64_t) b->dev : 0;
	char why[CXD_ERR_LEN];
	int ret = cxd_fabric_mr_reg_hmem(s->fab, b->ptr, b->map_len, key,
					 iface, dev, mr, why, sizeof(why));

	if (ret && !b->gpu)
		snprintf(s->err, sizeof(s->err), "%s", why);
	if (ret && b->gpu)
		return cxd_sess_fail(s, ret, "cannot register GPU %d (%s, %s) "
				     "with provider '%s', and GPU memory is "
				     "not replaced by host memory: %s. A "
				     "libfabric %s is needed "
				     "(scripts/build-libfabric.sh; README, "
				     "\"GPU memory\")", b->dev,
				     cxd_gpu_type_name(b->gpu->type),
				     b->gpu->runtime, s->run->provider, why,
				     cxd_gpu_configure_switch(b->gpu->type));
	return ret;
}

int cxd_sess_mem_register(struct cxd_sess *s)
{
	const struct cxd_local_opts *l = &s->cfg->local;
	uint64_t tx, rx;
	int ret = 0;

	cxd_plan_memory(s->tool, s->run, s->is_client, s->via->both_roles,
			&tx, &rx);
	if (tx)
		ret = alloc_one(s, tx, l->tx_gpu, TX_FILL, &s->tx);
	if (ret == 0 && rx)
		ret = alloc_one(s, rx, l->rx_gpu, 0, &s->rx);
	if (ret == 0 && tx)
		ret = reg_one(s, &s->tx, s->cxi.key_tx, &s->tx_mr);
	if (ret == 0 && rx)
		ret = reg_one(s, &s->rx, s->cxi.key_rx, &s->rx_mr);
	s->wrap = cxd_data_len(s->tool, s->run);
	return ret;
}

void cxd_sess_mem_close(struct cxd_sess *s)
{
	cxd_buf_free(&s->rx);
	cxd_buf_free(&s->tx);
	cxd_gpu_close(s->gpu);
	s->gpu = NULL;
}

/* "System" or "GPU n", for the summary's Mem lines. */
void cxd_mem_label(int gpu, char *buf, size_t len)
{
	if (gpu < 0)
		snprintf(buf, len, "System");
	else
		snprintf(buf, len, "GPU %d", gpu);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Intel GPUs through Level Zero (libze_loader), loaded with dlopen (the
 * calls and descriptors: gpu_ze.h): a context on the first GPU driver,
 * and per device a synchronous immediate command list for fill and
 * copies, so every call has finished when it returns.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxd/config.h"
#include "gpu.h"
#include "gpu_load.h"
#include "gpu_ze.h"

#define ZE_MAX_DEV 16

#define SYM_NAME(field, sym) #sym,
static const char *const ze_names[] = { CXD_ZE_SYMBOLS(SYM_NAME) };

struct ze_state {
	struct cxd_ze_fns f;
	cxd_ze_context_h ctx;
	uint32_t ndev;
	cxd_ze_device_h dev[ZE_MAX_DEV];
	cxd_ze_list_h list[ZE_MAX_DEV];
	int cur; /* the selected device */
};

static struct ze_state *zs(const struct cxd_gpu *g)
{
	return g->priv;
}

static int ze_count(const struct cxd_gpu *g, int *n_p)
{
	*n_p = (int) zs(g)->ndev;
	return 0;
}

/* The command list of a device is made when it is first selected. */
static int ze_select(const struct cxd_gpu *g, int dev)
{
	struct ze_state *z = zs(g);
	cxd_ze_queue_desc_t qd = { .stype = CXD_ZE_STYPE_QUEUE_DESC,
				   .mode = CXD_ZE_QUEUE_MODE_SYNCHRONOUS };

	if (dev < 0 || (uint32_t) dev >= z->ndev)
		return -ENODEV;
	if (z->list[dev] == NULL &&
	    z->f.list_create(z->ctx, z->dev[dev], &qd, &z->list[dev]) != 0)
		return -EIO;
	z->cur = dev;
	return 0;
}

static int ze_alloc(const struct cxd_gpu *g, void **p_p, size_t len)
{
	struct ze_state *z = zs(g);
	cxd_ze_mem_desc_t md = { .stype = CXD_ZE_STYPE_DEVICE_MEM_DESC };

	*p_p = NULL;
	return z->f.mem_alloc(z->ctx, &md, len ? len : 1, 4096, z->dev[z->cur],
			      p_p) == 0 ? 0 : -ENOMEM;
}

static void ze_free(const struct cxd_gpu *g, void *p)
{
	zs(g)->f.mem_free(zs(g)->ctx, p);
}

static int ze_fill(const struct cxd_gpu *g, void *p, uint8_t v, size_t len)
{
	struct ze_state *z = zs(g);

	return z->f.fill(z->list[z->cur], p, &v, 1, len, NULL, 0, NULL) == 0
		       ? 0 : -EIO;
}

static int ze_copy(const struct cxd_gpu *g, void *dst, const void *src,
		   size_t len)
{
	struct ze_state *z = zs(g);

	return z->f.copy(z->list[z->cur], dst, src, len, NULL, 0, NULL) == 0
		       ? 0 : -EIO;
}

static void ze_close(const struct cxd_gpu *g)
{
	struct ze_state *z = zs(g);

	for (uint32_t i = 0; i < z->ndev; i++)
		if (z->list[i])
			z->f.list_destroy(z->list[i]);
	if (z->ctx)
		z->f.context_destroy(z->ctx);
	free(z);
}

static const struct cxd_gpu_ops ze_ops = {
	.count = ze_count, .select = ze_select, .alloc = ze_alloc,
	.free = ze_free, .fill = ze_fill, .to_host = ze_copy,
	.from_host = ze_copy, .close = ze_close,
};

static int bind_ze(void *lib, struct cxd_ze_fns *f, char *missing, size_t len)
{
	void *slots[sizeof(ze_names) / sizeof(ze_names[0])];

	_Static_assert(sizeof(slots) == sizeof(*f), "one symbol per pointer");
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		slots[i] = dlsym(lib, ze_names[i]);
		if (slots[i] == NULL) {
			snprintf(missing, len, "%s", ze_names[i]);
			return -ENOENT;
		}
	}
	/* Same order, all pointers: POSIX lets dlsym's result hold code. */
	memcpy(f, slots, sizeof(*f));
	return 0;
}

/* The vendor's name of a result, for messages. */
static const char *ze_result_name(cxd_ze_result r)
{
#define RESULT_CASE(v, name) case v: return "ZE_RESULT_" #name;
	switch (r) {
	CXD_ZE_RESULTS(RESULT_CASE)
	default: return "an unnamed ze_result_t";
	}
#undef RESULT_CASE
}

static int ze_failed(const struct cxd_gpu *g, const char *call,
		     cxd_ze_result r, char *err, size_t errlen)
{
	snprintf(err, errlen, "No GPUs found: the Level Zero loader (%s) "
		 "could not count its devices: %s returned %s (0x%x)",
		 g->lib_name, call, ze_result_name(r), r);
	return -ENODEV;
}

/* The first driver's GPUs, as libfabric's own ZE support numbers them. */
static int ze_devices(const struct cxd_gpu *g, struct ze_state *z, char *err,
		      size_t errlen)
{
	cxd_ze_context_desc_t cd = { .stype = CXD_ZE_STYPE_CONTEXT_DESC };
	uint32_t nd = 1;
	cxd_ze_driver_h driver = NULL;
	cxd_ze_result r;

	r = z->f.init(CXD_ZE_INIT_GPU_ONLY);
	if (r != 0)
		return ze_failed(g, "zeInit", r, err, errlen);
	r = z->f.driver_get(&nd, &driver);
	if (r != 0)
		return ze_failed(g, "zeDriverGet", r, err, errlen);
	if (nd == 0)
		return 0; /* no driver: no device */
	z->ndev = ZE_MAX_DEV;
	r = z->f.device_get(driver, &z->ndev, z->dev);
	if (r != 0)
		return ze_failed(g, "zeDeviceGet", r, err, errlen);
	r = z->ndev ? z->f.context_create(driver, &cd, &z->ctx) : 0;
	if (r != 0) {
		z->ndev = 0; /* nothing to destroy */
		return ze_failed(g, "zeContextCreate", r, err, errlen);
	}
	return 0;
}

int cxd_gpu_open_ze(struct cxd_gpu *g, char *err, size_t errlen)
{
	static const char *const libs[] = { "libze_loader.so.1",
					    "libze_loader.so", NULL };
	char missing[64] = "";
	struct ze_state *z;

	if (cxd_gpu_load(g, libs, "Level Zero", "loader", err, errlen) != 0)
		return -ENOENT;
	z = calloc(1, sizeof(*z));
	if (z == NULL || bind_ze(g->lib, &z->f, missing, sizeof(missing))) {
		free(z);
		return cxd_gpu_lacks(g, missing, err, errlen);
	}
	g->priv = z;
	g->ops = &ze_ops;
	g->runtime = "Level Zero";
	g->iface = FI_HMEM_ZE;
	return ze_devices(g, z, err, errlen);
}

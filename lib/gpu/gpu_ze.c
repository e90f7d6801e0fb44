/*
 * Intel GPUs through Level Zero (libze_loader), loaded with dlopen. The
 * few types and descriptor layouts used are declared here (no GPU header
 * is needed to build): a context on the first GPU driver, and per device
 * a synchronous immediate command list for fill and copies, so every call
 * has finished when it returns.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxd/config.h"
#include "gpu.h"

#define ZE_MAX_DEV 16
#define ZE_INIT_GPU_ONLY 1u
#define ZE_STYPE_CONTEXT_DESC 0xdu
#define ZE_STYPE_QUEUE_DESC 0xeu
#define ZE_STYPE_DEVICE_MEM_DESC 0x15u
#define ZE_QUEUE_MODE_SYNCHRONOUS 1u

typedef void *ze_h; /* every handle is an opaque pointer */

struct ze_context_desc { uint32_t stype; const void *next; uint32_t flags; };
struct ze_queue_desc {
	uint32_t stype;
	const void *next;
	uint32_t ordinal, index, flags, mode, priority;
};
struct ze_mem_desc {
	uint32_t stype;
	const void *next;
	uint32_t flags, ordinal;
};

struct ze_fns {
	int (*init)(uint32_t flags);
	int (*driver_get)(uint32_t *n, ze_h *drivers);
	int (*device_get)(ze_h driver, uint32_t *n, ze_h *devs);
	int (*context_create)(ze_h driver, const struct ze_context_desc *d,
			      ze_h *ctx);
	int (*list_create)(ze_h ctx, ze_h dev, const struct ze_queue_desc *d,
			   ze_h *list);
	int (*mem_alloc)(ze_h ctx, const struct ze_mem_desc *d, size_t len,
			 size_t align, ze_h dev, void **p);
	int (*mem_free)(ze_h ctx, void *p);
	int (*fill)(ze_h list, void *p, const void *pat, size_t pat_len,
		    size_t len, ze_h ev, uint32_t nwait, ze_h *wait);
	int (*copy)(ze_h list, void *dst, const void *src, size_t len,
		    ze_h ev, uint32_t nwait, ze_h *wait);
	int (*list_destroy)(ze_h list);
	int (*context_destroy)(ze_h ctx);
};

static const char *const ze_names[] = {
	"zeInit", "zeDriverGet", "zeDeviceGet", "zeContextCreate",
	"zeCommandListCreateImmediate", "zeMemAllocDevice", "zeMemFree",
	"zeCommandListAppendMemoryFill", "zeCommandListAppendMemoryCopy",
	"zeCommandListDestroy", "zeContextDestroy",
};

struct ze_state {
	struct ze_fns f;
	ze_h ctx;
	uint32_t ndev;
	ze_h dev[ZE_MAX_DEV];
	ze_h list[ZE_MAX_DEV];
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
	struct ze_queue_desc qd = { .stype = ZE_STYPE_QUEUE_DESC,
				    .mode = ZE_QUEUE_MODE_SYNCHRONOUS };

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
	struct ze_mem_desc md = { .stype = ZE_STYPE_DEVICE_MEM_DESC };

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

static int bind_ze(void *lib, struct ze_fns *f, char *missing, size_t len)
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

/* The first driver's GPUs, as libfabric's own ZE support numbers them. */
static int ze_devices(struct ze_state *z)
{
	struct ze_context_desc cd = { .stype = ZE_STYPE_CONTEXT_DESC };
	uint32_t nd = 1;
	ze_h driver = NULL;

	if (z->f.init(ZE_INIT_GPU_ONLY) != 0 ||
	    z->f.driver_get(&nd, &driver) != 0 || nd == 0)
		return 0; /* no driver: no device */
	z->ndev = ZE_MAX_DEV;
	if (z->f.device_get(driver, &z->ndev, z->dev) != 0)
		z->ndev = 0;
	if (z->ndev && z->f.context_create(driver, &cd, &z->ctx) != 0)
		z->ndev = 0;
	return 0;
}

int cxd_gpu_open_ze(struct cxd_gpu *g, char *err, size_t errlen)
{
	static const char *const libs[] = { "libze_loader.so.1",
					    "libze_loader.so", NULL };
	char missing[64] = "";
	struct ze_state *z;

	for (const char *const *l = libs; *l && g->lib == NULL; l++) {
		g->lib = dlopen(*l, RTLD_NOW | RTLD_LOCAL);
		g->lib_name = *l;
	}
	if (g->lib == NULL) {
		snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
			 "libraries: INTEL needs the Level Zero loader (%s): %s",
			 g->lib_name, dlerror());
		return -ENOENT;
	}
	z = calloc(1, sizeof(*z));
	if (z == NULL || bind_ze(g->lib, &z->f, missing, sizeof(missing))) {
		free(z);
		snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
			 "libraries: %s lacks %s", g->lib_name, missing);
		return -ENOENT;
	}
	ze_devices(z);
	g->priv = z;
	g->ops = &ze_ops;
	g->runtime = "Level Zero";
	g->iface = FI_HMEM_ZE;
	return 0;
}

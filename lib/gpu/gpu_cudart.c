/*
 * CUDA (libcudart) and HIP (libamdhip64), loaded with dlopen. Their
 * runtime APIs match call for call ("cudaMalloc"/"hipMalloc"), so one
 * table of function pointers serves both; the few types are declared
 * here, as no GPU header may be needed to build.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxd/config.h"
#include "gpu.h"

#define MEMCPY_H2D 1 /* cudaMemcpyHostToDevice == hipMemcpyHostToDevice */
#define MEMCPY_D2H 2

struct rt_fns {
	int (*count)(int *n);
	int (*set_device)(int dev);
	int (*malloc)(void **p, size_t len);
	int (*free)(void *p);
	int (*memset)(void *p, int v, size_t len);
	int (*memcpy)(void *dst, const void *src, size_t len, int kind);
	int (*sync)(void);
};

static const char *const fn_names[] = {
	"GetDeviceCount", "SetDevice", "Malloc", "Free", "Memset", "Memcpy",
	"DeviceSynchronize",
};

static const struct rt_fns *fns(const struct cxd_gpu *g)
{
	return g->priv;
}

static int rt_count(const struct cxd_gpu *g, int *n_p)
{
	*n_p = 0;
	return fns(g)->count(n_p) == 0 ? 0 : -ENODEV;
}

static int rt_select(const struct cxd_gpu *g, int dev)
{
	return fns(g)->set_device(dev) == 0 ? 0 : -ENODEV;
}

static int rt_alloc(const struct cxd_gpu *g, void **p_p, size_t len)
{
	*p_p = NULL;
	return fns(g)->malloc(p_p, len ? len : 1) == 0 ? 0 : -ENOMEM;
}

static void rt_free(const struct cxd_gpu *g, void *p)
{
	fns(g)->free(p);
}

/* Memset may return before the device is done: wait, the next step reads. */
static int rt_fill(const struct cxd_gpu *g, void *p, uint8_t v, size_t len)
{
	if (fns(g)->memset(p, v, len) != 0 || fns(g)->sync() != 0)
		return -EIO;
	return 0;
}

static int rt_to_host(const struct cxd_gpu *g, void *dst, const void *src,
		      size_t len)
{
	return fns(g)->memcpy(dst, src, len, MEMCPY_D2H) == 0 ? 0 : -EIO;
}

static int rt_from_host(const struct cxd_gpu *g, void *dst, const void *src,
			size_t len)
{
	return fns(g)->memcpy(dst, src, len, MEMCPY_H2D) == 0 ? 0 : -EIO;
}

static void rt_close(const struct cxd_gpu *g)
{
	free(g->priv);
}

static const struct cxd_gpu_ops rt_ops = {
	.count = rt_count, .select = rt_select, .alloc = rt_alloc,
	.free = rt_free, .fill = rt_fill, .to_host = rt_to_host,
	.from_host = rt_from_host, .close = rt_close,
};

/* Resolve prefix + each name into the table, in declaration order. */
static int bind_fns(void *lib, const char *prefix, struct rt_fns *t,
		    char *missing, size_t len)
{
	void *slots[sizeof(fn_names) / sizeof(fn_names[0])];
	char sym[64];

	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		snprintf(sym, sizeof(sym), "%s%s", prefix, fn_names[i]);
		slots[i] = dlsym(lib, sym);
		if (slots[i] == NULL) {
			snprintf(missing, len, "%s", sym);
			return -ENOENT;
		}
	}
	/* dlsym gives object pointers; POSIX lets them hold functions. */
	memcpy(&t->count, &slots[0], sizeof(void *));
	memcpy(&t->set_device, &slots[1], sizeof(void *));
	memcpy(&t->malloc, &slots[2], sizeof(void *));
	memcpy(&t->free, &slots[3], sizeof(void *));
	memcpy(&t->memset, &slots[4], sizeof(void *));
	memcpy(&t->memcpy, &slots[5], sizeof(void *));
	memcpy(&t->sync, &slots[6], sizeof(void *));
	return 0;
}

static int open_rt(struct cxd_gpu *g, const char *runtime, const char *prefix,
		   const char *const *libs, enum fi_hmem_iface iface,
		   char *err, size_t errlen)
{
	char missing[64] = "";
	struct rt_fns *t;

	for (; *libs && g->lib == NULL; libs++) {
		g->lib = dlopen(*libs, RTLD_NOW | RTLD_LOCAL);
		g->lib_name = *libs;
	}
	if (g->lib == NULL) {
		snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
			 "libraries: %s needs the %s runtime (%s): %s",
			 cxd_gpu_type_name(g->type), runtime, g->lib_name,
			 dlerror());
		return -ENOENT;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL || bind_fns(g->lib, prefix, t, missing,
				  sizeof(missing)) != 0) {
		free(t);
		snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
			 "libraries: %s lacks %s", g->lib_name, missing);
		return -ENOENT;
	}
	g->priv = t;
	g->ops = &rt_ops;
	g->runtime = runtime;
	g->iface = iface;
	return 0;
}

int cxd_gpu_open_cuda(struct cxd_gpu *g, char *err, size_t errlen)
{
	static const char *const libs[] = {
		"libcudart.so", "libcudart.so.12", "libcudart.so.11.0", NULL,
	};

	return open_rt(g, "CUDA", "cuda", libs, FI_HMEM_CUDA, err, errlen);
}

int cxd_gpu_open_hip(struct cxd_gpu *g, char *err, size_t errlen)
{
	static const char *const libs[] = {
		"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", NULL,
	};

	return open_rt(g, "HIP", "hip", libs, FI_HMEM_ROCR, err, errlen);
}

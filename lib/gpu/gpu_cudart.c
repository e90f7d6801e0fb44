/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CUDA (libcudart) and HIP (libamdhip64), loaded with dlopen, through one
 * table of function pointers (gpu_rt.h declares it).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxd/config.h"
#include "gpu.h"
#include "gpu_load.h"
#include "gpu_rt.h"

#define SYM_NAME(field, sym) #sym,
static const char *const fn_names[] = { CXD_RT_SYMBOLS(SYM_NAME) };

static const struct cxd_rt_fns *fns(const struct cxd_gpu *g)
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
	return fns(g)->memcpy(dst, src, len, CXD_RT_MEMCPY_D2H) == 0 ? 0 : -EIO;
}

static int rt_from_host(const struct cxd_gpu *g, void *dst, const void *src,
			size_t len)
{
	return fns(g)->memcpy(dst, src, len, CXD_RT_MEMCPY_H2D) == 0 ? 0 : -EIO;
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
static int bind_fns(void *lib, const char *prefix, struct cxd_rt_fns *t,
		    char *missing, size_t len)
{
	void *slots[sizeof(fn_names) / sizeof(fn_names[0])];
	char sym[64];

	_Static_assert(sizeof(slots) == sizeof(*t), "one symbol per pointer");
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		snprintf(sym, sizeof(sym), "%s%s", prefix, fn_names[i]);
		slots[i] = dlsym(lib, sym);
		if (slots[i] == NULL) {
			snprintf(missing, len, "%s", sym);
			return -ENOENT;
		}
	}
	/* Same order, all pointers: POSIX lets dlsym's result hold code. */
	memcpy(t, slots, sizeof(*t));
	return 0;
}

/*
 * Ask for the device count now: when the runtime cannot tell (no driver,
 * no device node), its own name and sentence for the error are the most
 * useful thing to print.
 */
static int probe(const struct cxd_gpu *g, const char *prefix, char *err,
		 size_t errlen)
{
	const struct cxd_rt_fns *t = fns(g);
	const char *name, *text;
	int n = 0;
	cxd_rt_err e = t->count(&n);

	if (e == CXD_RT_SUCCESS)
		return 0;
	name = t->err_name(e);
	text = t->err_text(e);
	name = name ? name : "an unnamed error";
	if (text == NULL || strcmp(text, name) == 0)
		text = "";
	snprintf(err, errlen, "No GPUs found: the %s runtime (%s) could not "
		 "count its devices: %sGetDeviceCount returned %s (%u)%s%s",
		 g->runtime, g->lib_name, prefix, name, e, *text ? ": " : "",
		 text);
	return -ENODEV;
}

static int open_rt(struct cxd_gpu *g, const char *runtime, const char *prefix,
		   const char *const *libs, enum fi_hmem_iface iface,
		   char *err, size_t errlen)
{
	char missing[64] = "";
	struct cxd_rt_fns *t;

	if (cxd_gpu_load(g, libs, runtime, "runtime", err, errlen) != 0)
		return -ENOENT;
	t = calloc(1, sizeof(*t));
	if (t == NULL || bind_fns(g->lib, prefix, t, missing,
				  sizeof(missing)) != 0) {
		free(t);
		return cxd_gpu_lacks(g, missing, err, errlen);
	}
	g->priv = t;
	g->ops = &rt_ops;
	g->runtime = runtime;
	g->iface = iface;
	return probe(g, prefix, err, errlen);
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

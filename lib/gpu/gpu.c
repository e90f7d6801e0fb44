/* SPDX-License-Identifier: BSD-3-Clause */
/* Choosing the memory a buffer lives in: host, or a GPU runtime by type. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fabric.h>

#include "cxd/config.h"
#include "gpu.h"

#define GPU_FI_VERSION FI_VERSION(1, 17)
#define INTEL_VENDOR "0x8086"

/* ---- host memory */

static int host_count(const struct cxd_gpu *g, int *n_p)
{
	(void) g;
	*n_p = 0;
	return 0;
}

static int host_select(const struct cxd_gpu *g, int dev)
{
	(void) g;
	(void) dev;
	return 0;
}

static int host_alloc(const struct cxd_gpu *g, void **p_p, size_t len)
{
	(void) g;
	*p_p = malloc(len ? len : 1);
	return *p_p ? 0 : -ENOMEM;
}

static void host_free(const struct cxd_gpu *g, void *p)
{
	(void) g;
	free(p);
}

static int host_fill(const struct cxd_gpu *g, void *p, uint8_t v, size_t len)
{
	(void) g;
	memset(p, v, len);
	return 0;
}

static int host_copy(const struct cxd_gpu *g, void *dst, const void *src,
		     size_t len)
{
	(void) g;
	memcpy(dst, src, len);
	return 0;
}

static const struct cxd_gpu_ops host_ops = {
	.count = host_count, .select = host_select, .alloc = host_alloc,
	.free = host_free, .fill = host_fill, .to_host = host_copy,
	.from_host = host_copy,
};

const struct cxd_gpu *cxd_gpu_host(void)
{
	static const struct cxd_gpu host = {
		.ops = &host_ops, .runtime = "host", .lib_name = "",
		.type = CXD_GPU_NONE, .iface = FI_HMEM_SYSTEM,
	};

	return &host;
}

/* ---- types */

const char *cxd_gpu_configure_switch(int type)
{
	if (type == CXD_GPU_AMD)
		return "configured --with-rocr (ROCm)";
	if (type == CXD_GPU_INTEL)
		return "configured --with-ze (Level Zero)";
	return "configured --with-cuda (CUDA)";
}

static int exists(const char *root, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return access(full, F_OK) == 0;
}

/* An Intel GPU shows as a DRM render node whose PCI vendor is 0x8086. */
static int intel_render_node(const char *root)
{
	char dir[512], path[800], vendor[16] = "";
	struct dirent *e;
	int found = 0;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/sys/class/drm", root);
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "renderD", 7) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/device/vendor", dir,
			 e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		found = fgets(vendor, sizeof(vendor), f) != NULL &&
			strncmp(vendor, INTEL_VENDOR, 6) == 0;
		fclose(f);
	}
	closedir(d);
	return found;
}

int cxd_gpu_default_type(const char *root)
{
	if (exists(root, "/dev/kfd"))
		return CXD_GPU_AMD;
	if (exists(root, "/dev/nvidiactl") || exists(root, "/dev/nvidia0"))
		return CXD_GPU_NVIDIA;
	if (intel_render_node(root))
		return CXD_GPU_INTEL;
	return CXD_GPU_NONE;
}

/* ---- opening a runtime */

static int open_runtime(struct cxd_gpu *g, char *err, size_t errlen)
{
	int ret = cxd_gpu_standin_open ? cxd_gpu_standin_open(g, err, errlen)
				       : 0;

	if (ret != 0)
		return ret < 0 ? ret : 0;
	if (g->type == CXD_GPU_NVIDIA)
		return cxd_gpu_open_cuda(g, err, errlen);
	if (g->type == CXD_GPU_AMD)
		return cxd_gpu_open_hip(g, err, errlen);
	if (g->type == CXD_GPU_INTEL)
		return cxd_gpu_open_ze(g, err, errlen);
	snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
		 "libraries: no GPU type was given (-g AMD|NVIDIA|INTEL) and "
		 "no GPU device files were found (/dev/kfd, /dev/nvidiactl, "
		 "an Intel render node)");
	return -ENOENT;
}

int cxd_gpu_open(int type, struct cxd_gpu **g_p, char *err, size_t errlen)
{
	struct cxd_gpu *g = calloc(1, sizeof(*g));
	int ret;

	*g_p = NULL;
	if (g == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	g->type = type;
	ret = open_runtime(g, err, errlen);
	if (ret == 0 && g->ops->count(g, &g->ndev) != 0) {
		snprintf(err, errlen, "No GPUs found: the %s runtime (%s) "
			 "could not count its devices", g->runtime,
			 g->lib_name);
		ret = -ENODEV;
	}
	if (ret == 0 && g->ndev <= 0) {
		snprintf(err, errlen, "No GPUs found: the %s runtime (%s) "
			 "reports no %s device", g->runtime, g->lib_name,
			 cxd_gpu_type_name(type));
		ret = -ENODEV;
	}
	if (ret) {
		cxd_gpu_close(g);
		return ret;
	}
	*g_p = g;
	return 0;
}

void cxd_gpu_close(struct cxd_gpu *g)
{
	if (g == NULL || g == (const struct cxd_gpu *) cxd_gpu_host())
		return;
	if (g->ops && g->ops->close)
		g->ops->close(g);
	if (g->lib)
		dlclose(g->lib);
	free(g);
}

int cxd_gpu_check_index(const struct cxd_gpu *g, int idx, const char *what,
			char *err, size_t errlen)
{
	if (idx >= 0 && idx < g->ndev)
		return 0;
	snprintf(err, errlen, "%s: GPU must be in the range: 0 to %d. "
		 "(got %d; %s found %d %s GPU(s))", what, g->ndev - 1, idx,
		 g->runtime, g->ndev, cxd_gpu_type_name(g->type));
	return -EINVAL;
}

/* ---- can the provider register it */

int cxd_gpu_fabric_check(const struct cxd_gpu *g, const char *provider,
			 uint64_t caps, char *err, size_t errlen)
{
	struct fi_info *hints, *list = NULL;
	uint32_t v = fi_version();
	int ret;

	if (g->iface == FI_HMEM_SYSTEM)
		return 0;
	hints = fi_allocinfo();
	if (hints == NULL)
		return -ENOMEM;
	hints->caps = caps | FI_HMEM;
	hints->ep_attr->type = FI_EP_RDM;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
				      FI_MR_ALLOCATED | FI_MR_PROV_KEY |
				      FI_MR_ENDPOINT | FI_MR_HMEM;
	hints->fabric_attr->prov_name = strdup(provider);
	ret = fi_getinfo(GPU_FI_VERSION, NULL, NULL, 0, hints, &list);
	fi_freeinfo(hints);
	if (list)
		fi_freeinfo(list);
	if (ret == 0)
		return 0;
	snprintf(err, errlen, "provider '%s' of libfabric %u.%u cannot "
		 "register %s GPU memory (no FI_HMEM); GPU memory is not used "
		 "in its place. Build a libfabric %s "
		 "(scripts/build-libfabric.sh) and rebuild with "
		 "-DCXD_LIBFABRIC_PREFIX=PREFIX (README, \"GPU memory\")",
		 provider, FI_MAJOR(v), FI_MINOR(v), cxd_gpu_type_name(g->type),
		 cxd_gpu_configure_switch(g->type));
	return -EOPNOTSUPP;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory for data buffers behind one small interface: host memory, and
 * the GPU runtimes loaded at run time (dlopen), so that one binary serves
 * nodes with and without GPUs and nothing GPU-related is needed to build.
 */
#ifndef CXD_GPU_H
#define CXD_GPU_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/fi_domain.h>

struct cxd_gpu;

struct cxd_gpu_ops {
	int (*count)(const struct cxd_gpu *g, int *n_p);
	int (*select)(const struct cxd_gpu *g, int dev);
	int (*alloc)(const struct cxd_gpu *g, void **p_p, size_t len);
	void (*free)(const struct cxd_gpu *g, void *p);
	int (*fill)(const struct cxd_gpu *g, void *p, uint8_t v, size_t len);
	int (*to_host)(const struct cxd_gpu *g, void *dst, const void *src,
		       size_t len);
	int (*from_host)(const struct cxd_gpu *g, void *dst, const void *src,
			 size_t len);
	void (*close)(const struct cxd_gpu *g);
};

struct cxd_gpu {
	const struct cxd_gpu_ops *ops;
	const char *runtime;      /* "CUDA", "HIP", "host": for messages */
	const char *lib_name;     /* the library that was loaded */
	int type;                 /* enum cxd_gpu_type; CXD_GPU_NONE: host */
	enum fi_hmem_iface iface; /* what fi_mr_regattr is told */
	int ndev;                 /* devices the runtime reports */
	void *lib;                /* dlopen handle */
	void *priv;               /* the runtime's own state */
};

/* Host memory as one more implementation (memset, memcpy). */
const struct cxd_gpu *cxd_gpu_host(void);

const char *cxd_gpu_type_name(int type); /* "AMD", "NVIDIA", "INTEL" */
/* How libfabric's configure enables a type: "configured --with-cuda ...". */
const char *cxd_gpu_configure_switch(int type);

/*
 * The default type when -g is not given: from the device files present
 * under root ("" for the real /): /dev/kfd (AMD), /dev/nvidiactl or
 * /dev/nvidia0 (NVIDIA), an Intel render node (INTEL), in that order.
 * CXD_GPU_NONE when there is none.
 */
int cxd_gpu_default_type(const char *root);

/*
 * Load the runtime of a type and count its devices. Errors name the type
 * and the library: -ENOENT (no runtime library), -ENODEV (no device).
 */
int cxd_gpu_open(int type, struct cxd_gpu **g_p, char *err, size_t errlen);
void cxd_gpu_close(struct cxd_gpu *g);
/* Index in range: 0, or -EINVAL with the originals' range message. */
int cxd_gpu_check_index(const struct cxd_gpu *g, int idx, const char *what,
			char *err, size_t errlen);

/* Runtime back ends: fill g or return -ENOENT with err. */
int cxd_gpu_open_cuda(struct cxd_gpu *g, char *err, size_t errlen);
int cxd_gpu_open_hip(struct cxd_gpu *g, char *err, size_t errlen);
int cxd_gpu_open_ze(struct cxd_gpu *g, char *err, size_t errlen);

/*
 * Test builds only (tests/support/gpu_standin.c): a stand-in GPU serving
 * "device" memory from host memory. Production binaries do not define it
 * (a weak reference stays NULL), so nothing here can select it there.
 * Returns 1 when the stand-in took the place of the runtime, 0 when it is
 * not active, or a negative errno with err.
 */
int cxd_gpu_standin_open(struct cxd_gpu *g, char *err, size_t errlen)
	__attribute__((weak));
/* Test builds only: the root for the default-type probe ("" if unset). */
const char *cxd_gpu_standin_devroot(void) __attribute__((weak));

/*
 * Whether the provider can register this memory (FI_HMEM), checked before
 * the run: 0, or -EOPNOTSUPP with a message naming provider, type and fix.
 */
int cxd_gpu_fabric_check(const struct cxd_gpu *g, const char *provider,
			 uint64_t caps, char *err, size_t errlen);

#endif

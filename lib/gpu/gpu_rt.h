/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CUDA and HIP runtime calls we use, declared by hand: no GPU header
 * is needed to build. Their runtime APIs match call for call
 * ("cudaMalloc"/"hipMalloc"), so one table serves both. The header check
 * (tests/gpu_headers/check_rt.c) compiles this against the vendors' own
 * cuda_runtime_api.h and hip_runtime_api.h: every pointer must have the
 * type of the function it is bound to, every value the vendor's.
 */
#ifndef CXD_GPU_RT_H
#define CXD_GPU_RT_H

#include <stddef.h>

/* cudaError_t, hipError_t and the memcpy kinds are enums with no negative
 * value, which GCC and Clang give the type unsigned int. */
typedef unsigned int cxd_rt_err;
typedef unsigned int cxd_rt_kind;

#define CXD_RT_SUCCESS 0u    /* cudaSuccess, hipSuccess */
#define CXD_RT_MEMCPY_H2D 1u /* cudaMemcpyHostToDevice ... */
#define CXD_RT_MEMCPY_D2H 2u /* cudaMemcpyDeviceToHost ... */

/* Field and symbol (after "cuda" or "hip"), in the order of the fields. */
#define CXD_RT_SYMBOLS(X) \
	X(count, GetDeviceCount) X(set_device, SetDevice) X(malloc, Malloc) \
	X(free, Free) X(memset, Memset) X(memcpy, Memcpy) \
	X(sync, DeviceSynchronize) X(err_name, GetErrorName) \
	X(err_text, GetErrorString)

struct cxd_rt_fns {
	cxd_rt_err (*count)(int *n);
	cxd_rt_err (*set_device)(int dev);
	cxd_rt_err (*malloc)(void **p, size_t len);
	cxd_rt_err (*free)(void *p);
	cxd_rt_err (*memset)(void *p, int v, size_t len);
	cxd_rt_err (*memcpy)(void *dst, const void *src, size_t len,
			     cxd_rt_kind kind);
	cxd_rt_err (*sync)(void);
	const char *(*err_name)(cxd_rt_err e);
	const char *(*err_text)(cxd_rt_err e);
};

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Our CUDA/HIP declarations (lib/gpu/gpu_rt.h) against the vendor's own
 * header: cuda_runtime_api.h, or hip_runtime_api.h when built with
 * CHECK_HIP. Every check is a static assertion, so a mismatch fails the
 * build; the program only says how many there were.
 */
#include <stddef.h>
#include <stdio.h>

#ifdef CHECK_HIP
#include <hip/hip_runtime_api.h>
#define VENDOR(sym) hip##sym
#define VENDOR_SUCCESS hipSuccess
#define VENDOR_H2D hipMemcpyHostToDevice
#define VENDOR_D2H hipMemcpyDeviceToHost
typedef hipError_t vendor_err;
typedef hipMemcpyKind vendor_kind;
#define WHAT "HIP: hip_runtime_api.h %d.%d", HIP_VERSION_MAJOR, \
	HIP_VERSION_MINOR
#else
#include <cuda_runtime_api.h>
#define VENDOR(sym) cuda##sym
#define VENDOR_SUCCESS cudaSuccess
#define VENDOR_H2D cudaMemcpyHostToDevice
#define VENDOR_D2H cudaMemcpyDeviceToHost
typedef cudaError_t vendor_err;
typedef enum cudaMemcpyKind vendor_kind;
#define WHAT "CUDA: cuda_runtime_api.h, CUDART_VERSION %d", CUDART_VERSION
#endif

#include "gpu/gpu_rt.h"

#define CHECK(c) do { _Static_assert(c, #c); n++; } while (0)
#define SAME_TYPE(a, b) \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define FIELD(f) (((struct cxd_rt_fns *) 0)->f)
#define FN_SIZE sizeof(void (*)(void))

/* The table is filled from dlsym in the order of CXD_RT_SYMBOLS. */
#define INDEX(f, sym) IDX_##f,
enum { CXD_RT_SYMBOLS(INDEX) N_SYMBOLS };

/* The pointer has the function's own type, at its place in the table. */
#define FN(f, sym) \
	CHECK(SAME_TYPE(FIELD(f), &VENDOR(sym))); \
	CHECK(offsetof(struct cxd_rt_fns, f) == IDX_##f * FN_SIZE);

int main(void)
{
	int n = 0;

	CXD_RT_SYMBOLS(FN)
	CHECK(sizeof(struct cxd_rt_fns) == N_SYMBOLS * FN_SIZE);
	CHECK(SAME_TYPE(cxd_rt_err, vendor_err));
	CHECK(SAME_TYPE(cxd_rt_kind, vendor_kind));
	CHECK(CXD_RT_SUCCESS == VENDOR_SUCCESS);
	CHECK(CXD_RT_MEMCPY_H2D == VENDOR_H2D);
	CHECK(CXD_RT_MEMCPY_D2H == VENDOR_D2H);
	printf(WHAT);
	printf(": %d declarations checked\n", n);
	return 0;
}

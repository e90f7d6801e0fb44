/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Level Zero calls, descriptors and values we use, declared by hand:
 * no GPU header is needed to build. The header check
 * (tests/gpu_headers/check_ze.c) compiles this against the vendor's own
 * ze_api.h: each descriptor's size and each field's offset and type, each
 * value, and each pointer's function type must be the vendor's.
 */
#ifndef CXD_GPU_ZE_H
#define CXD_GPU_ZE_H

#include <stddef.h>
#include <stdint.h>

/* ze_result_t: an enum with no negative value, unsigned int for GCC and
 * Clang; ze_structure_type_t and ze_command_queue_mode_t likewise. */
typedef unsigned int cxd_ze_result;

#define CXD_ZE_INIT_GPU_ONLY 1u          /* ZE_INIT_FLAG_GPU_ONLY */
#define CXD_ZE_STYPE_CONTEXT_DESC 0xdu   /* ZE_STRUCTURE_TYPE_... */
#define CXD_ZE_STYPE_QUEUE_DESC 0xeu
#define CXD_ZE_STYPE_DEVICE_MEM_DESC 0x15u
#define CXD_ZE_QUEUE_MODE_SYNCHRONOUS 1u /* ZE_COMMAND_QUEUE_MODE_... */

/* The results worth a name in a message: value, ZE_RESULT_ name. */
#define CXD_ZE_RESULTS(X) \
	X(0x1, NOT_READY) X(0x70000001, ERROR_DEVICE_LOST) \
	X(0x70000002, ERROR_OUT_OF_HOST_MEMORY) \
	X(0x70000003, ERROR_OUT_OF_DEVICE_MEMORY) \
	X(0x70000006, ERROR_DEVICE_REQUIRES_RESET) \
	X(0x70010000, ERROR_INSUFFICIENT_PERMISSIONS) \
	X(0x70010001, ERROR_NOT_AVAILABLE) \
	X(0x70020000, ERROR_DEPENDENCY_UNAVAILABLE) \
	X(0x78000001, ERROR_UNINITIALIZED) \
	X(0x78000002, ERROR_UNSUPPORTED_VERSION) \
	X(0x78000003, ERROR_UNSUPPORTED_FEATURE) \
	X(0x78000004, ERROR_INVALID_ARGUMENT) \
	X(0x78000005, ERROR_INVALID_NULL_HANDLE) \
	X(0x78000007, ERROR_INVALID_NULL_POINTER) \
	X(0x78000008, ERROR_INVALID_SIZE) \
	X(0x7ffffffe, ERROR_UNKNOWN)

struct cxd_ze_context_desc {
	uint32_t stype;
	const void *next;
	uint32_t flags;
};

struct cxd_ze_queue_desc {
	uint32_t stype;
	const void *next;
	uint32_t ordinal, index, flags, mode, priority;
};

struct cxd_ze_mem_desc {
	uint32_t stype;
	const void *next;
	uint32_t flags, ordinal;
};

/*
 * What the calls take. The header check defines CXD_ZE_VENDOR_TYPES and
 * the vendor's own types under these names first, to compare the calls;
 * it compares the descriptors' layouts above on their own.
 */
#ifndef CXD_ZE_VENDOR_TYPES
typedef struct cxd_ze_driver *cxd_ze_driver_h;
typedef struct cxd_ze_device *cxd_ze_device_h;
typedef struct cxd_ze_context *cxd_ze_context_h;
typedef struct cxd_ze_list *cxd_ze_list_h;
typedef struct cxd_ze_event *cxd_ze_event_h;
typedef struct cxd_ze_context_desc cxd_ze_context_desc_t;
typedef struct cxd_ze_queue_desc cxd_ze_queue_desc_t;
typedef struct cxd_ze_mem_desc cxd_ze_mem_desc_t;
#endif

/* Field and symbol, in the order of the fields. */
#define CXD_ZE_SYMBOLS(X) \
	X(init, zeInit) X(driver_get, zeDriverGet) \
	X(device_get, zeDeviceGet) X(context_create, zeContextCreate) \
	X(list_create, zeCommandListCreateImmediate) \
	X(mem_alloc, zeMemAllocDevice) X(mem_free, zeMemFree) \
	X(fill, zeCommandListAppendMemoryFill) \
	X(copy, zeCommandListAppendMemoryCopy) \
	X(list_destroy, zeCommandListDestroy) \
	X(context_destroy, zeContextDestroy)

struct cxd_ze_fns {
	cxd_ze_result (*init)(uint32_t flags);
	cxd_ze_result (*driver_get)(uint32_t *n, cxd_ze_driver_h *drivers);
	cxd_ze_result (*device_get)(cxd_ze_driver_h driver, uint32_t *n,
				    cxd_ze_device_h *devs);
	cxd_ze_result (*context_create)(cxd_ze_driver_h driver,
					const cxd_ze_context_desc_t *d,
					cxd_ze_context_h *ctx);
	cxd_ze_result (*list_create)(cxd_ze_context_h ctx,
				     cxd_ze_device_h dev,
				     const cxd_ze_queue_desc_t *d,
				     cxd_ze_list_h *list);
	cxd_ze_result (*mem_alloc)(cxd_ze_context_h ctx,
				   const cxd_ze_mem_desc_t *d, size_t len,
				   size_t align, cxd_ze_device_h dev,
				   void **p);
	cxd_ze_result (*mem_free)(cxd_ze_context_h ctx, void *p);
	cxd_ze_result (*fill)(cxd_ze_list_h list, void *p, const void *pat,
			      size_t pat_len, size_t len, cxd_ze_event_h ev,
			      uint32_t nwait, cxd_ze_event_h *wait);
	cxd_ze_result (*copy)(cxd_ze_list_h list, void *dst, const void *src,
			      size_t len, cxd_ze_event_h ev, uint32_t nwait,
			      cxd_ze_event_h *wait);
	cxd_ze_result (*list_destroy)(cxd_ze_list_h list);
	cxd_ze_result (*context_destroy)(cxd_ze_context_h ctx);
};

#endif

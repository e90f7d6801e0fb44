/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Our Level Zero declarations (lib/gpu/gpu_ze.h) against the vendor's own
 * ze_api.h: descriptors (size, each field's offset and type), values,
 * result names and each call's type. Every check is a static assertion,
 * so a mismatch fails the build; the program says how many there were.
 */
#include <stddef.h>
#include <stdio.h>

#include <level_zero/ze_api.h>

/* The calls are compared with the vendor's types in the place of ours. */
#define CXD_ZE_VENDOR_TYPES
typedef ze_driver_handle_t cxd_ze_driver_h;
typedef ze_device_handle_t cxd_ze_device_h;
typedef ze_context_handle_t cxd_ze_context_h;
typedef ze_command_list_handle_t cxd_ze_list_h;
typedef ze_event_handle_t cxd_ze_event_h;
typedef ze_context_desc_t cxd_ze_context_desc_t;
typedef ze_command_queue_desc_t cxd_ze_queue_desc_t;
typedef ze_device_mem_alloc_desc_t cxd_ze_mem_desc_t;
#include "gpu/gpu_ze.h"

#define CHECK(c) do { _Static_assert(c, #c); n++; } while (0)
#define SAME_TYPE(a, b) \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define FN_SIZE sizeof(void (*)(void))

/* One field of ours against the vendor's: same offset, same type. */
#define SAME_FIELD(ours, f, theirs, g) \
	CHECK(offsetof(struct ours, f) == offsetof(theirs, g)); \
	CHECK(SAME_TYPE(((struct ours *) 0)->f, ((theirs *) 0)->g))

#define INDEX(f, sym) IDX_##f,
enum { CXD_ZE_SYMBOLS(INDEX) N_SYMBOLS };

#define FN(f, sym) \
	CHECK(SAME_TYPE(((struct cxd_ze_fns *) 0)->f, &sym)); \
	CHECK(offsetof(struct cxd_ze_fns, f) == IDX_##f * FN_SIZE);

#define RESULT(v, name) CHECK(v == ZE_RESULT_##name);

int main(void)
{
	int n = 0;

	CHECK(sizeof(struct cxd_ze_context_desc) == sizeof(ze_context_desc_t));
	SAME_FIELD(cxd_ze_context_desc, stype, ze_context_desc_t, stype);
	SAME_FIELD(cxd_ze_context_desc, next, ze_context_desc_t, pNext);
	SAME_FIELD(cxd_ze_context_desc, flags, ze_context_desc_t, flags);
	CHECK(sizeof(struct cxd_ze_queue_desc) ==
	      sizeof(ze_command_queue_desc_t));
	SAME_FIELD(cxd_ze_queue_desc, stype, ze_command_queue_desc_t, stype);
	SAME_FIELD(cxd_ze_queue_desc, next, ze_command_queue_desc_t, pNext);
	SAME_FIELD(cxd_ze_queue_desc, ordinal, ze_command_queue_desc_t,
		   ordinal);
	SAME_FIELD(cxd_ze_queue_desc, index, ze_command_queue_desc_t, index);
	SAME_FIELD(cxd_ze_queue_desc, flags, ze_command_queue_desc_t, flags);
	SAME_FIELD(cxd_ze_queue_desc, mode, ze_command_queue_desc_t, mode);
	SAME_FIELD(cxd_ze_queue_desc, priority, ze_command_queue_desc_t,
		   priority);
	CHECK(sizeof(struct cxd_ze_mem_desc) ==
	      sizeof(ze_device_mem_alloc_desc_t));
	SAME_FIELD(cxd_ze_mem_desc, stype, ze_device_mem_alloc_desc_t, stype);
	SAME_FIELD(cxd_ze_mem_desc, next, ze_device_mem_alloc_desc_t, pNext);
	SAME_FIELD(cxd_ze_mem_desc, flags, ze_device_mem_alloc_desc_t, flags);
	SAME_FIELD(cxd_ze_mem_desc, ordinal, ze_device_mem_alloc_desc_t,
		   ordinal);

	CXD_ZE_SYMBOLS(FN)
	CHECK(sizeof(struct cxd_ze_fns) == N_SYMBOLS * FN_SIZE);
	CHECK(SAME_TYPE(cxd_ze_result, ze_result_t));
	CXD_ZE_RESULTS(RESULT)
	CHECK(CXD_ZE_INIT_GPU_ONLY == ZE_INIT_FLAG_GPU_ONLY);
	CHECK(CXD_ZE_STYPE_CONTEXT_DESC == ZE_STRUCTURE_TYPE_CONTEXT_DESC);
	CHECK(CXD_ZE_STYPE_QUEUE_DESC == ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
	CHECK(CXD_ZE_STYPE_DEVICE_MEM_DESC ==
	      ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
	CHECK(CXD_ZE_QUEUE_MODE_SYNCHRONOUS ==
	      ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
	printf("Level Zero: ze_api.h, ZE_API_VERSION_CURRENT %d.%d: "
	       "%d declarations checked\n",
	       ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT),
	       ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT), n);
	return 0;
}

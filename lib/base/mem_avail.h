/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory this process may still take: MemAvailable, or less where its
 * own cgroup, or one above it, is limited (a Slurm job's, a container's).
 * Both cgroup layouts: v2 (memory.max, memory.current under the unified
 * mount) and v1 (memory.limit_in_bytes, memory.usage_in_bytes under the
 * memory controller's mount).
 */
#ifndef CXD_BASE_MEM_AVAIL_H
#define CXD_BASE_MEM_AVAIL_H

#include <stdint.h>

/* root: "" on a real system, or a directory holding proc/ and sys/ laid
 * out the same (a test's fixture). UINT64_MAX when nothing says. */
uint64_t cxd_mem_available(const char *root);

#endif

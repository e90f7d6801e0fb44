/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPUs this process may run on (cpu_set.c): its affinity mask, as a
 * batch system's binding or cgroup leaves it, not the host's count
 * (a job given 4 of a node's 64 cores has 4). The ranks of one host
 * share their masks (a union) to know how many CPUs their work has.
 */
#ifndef CXD_BASE_CPU_SET_H
#define CXD_BASE_CPU_SET_H

#include <stddef.h>

/* Bytes of a mask: 1,024 CPUs, as glibc's cpu_set_t. */
#define CXD_CPU_MASK 128

/* This process's mask into mask; the CPUs in it (at least 1). Where
 * the kernel gives none, every online CPU (the first ones' bits). */
int cxd_cpu_mask(unsigned char mask[CXD_CPU_MASK]);
/* or |= mask; the CPUs in or afterwards. */
int cxd_cpu_mask_or(unsigned char or[CXD_CPU_MASK],
		    const unsigned char mask[CXD_CPU_MASK]);

#endif

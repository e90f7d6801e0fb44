/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPUs this process may run on (cpu_set.h). */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "cpu_set.h"

static int count(const unsigned char mask[CXD_CPU_MASK])
{
	int n = 0;

	for (int i = 0; i < CXD_CPU_MASK; i++)
		n += __builtin_popcount(mask[i]);
	return n;
}

int cxd_cpu_mask(unsigned char mask[CXD_CPU_MASK])
{
	cpu_set_t set;
	long online;

	memset(mask, 0, CXD_CPU_MASK);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int c = 0; c < CXD_CPU_MASK * 8 && c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				mask[c / 8] |= (unsigned char) (1u << (c % 8));
		if (count(mask) > 0)
			return count(mask);
	}
	online = sysconf(_SC_NPROCESSORS_ONLN);
	online = online < 1 ? 1 : online > CXD_CPU_MASK * 8 ?
		 CXD_CPU_MASK * 8 : online;
	for (long c = 0; c < online; c++)
		mask[c / 8] |= (unsigned char) (1u << (c % 8));
	return (int) online;
}

int cxd_cpu_mask_or(unsigned char or[CXD_CPU_MASK],
		    const unsigned char mask[CXD_CPU_MASK])
{
	for (int i = 0; i < CXD_CPU_MASK; i++)
		or[i] |= mask[i];
	return count(or);
}

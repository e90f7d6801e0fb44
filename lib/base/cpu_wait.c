/* SPDX-License-Identifier: BSD-3-Clause */
/* Time spent runnable but not running (see cpu_wait.h): the kernel's
 * count. The simulated build's is cpu_wait_sim.c. */
#include <inttypes.h>
#include <stdio.h>

#include "cpu_wait.h"

uint64_t cxd_cpu_wait_ns(void)
{
	FILE *f = fopen("/proc/self/schedstat", "r");
	uint64_t on_cpu = 0, waited = UINT64_MAX;

	if (f == NULL)
		return UINT64_MAX;
	if (fscanf(f, "%" SCNu64 " %" SCNu64, &on_cpu, &waited) != 2)
		waited = UINT64_MAX;
	fclose(f);
	return waited;
}

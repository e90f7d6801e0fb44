/* SPDX-License-Identifier: BSD-3-Clause */
/* Time spent runnable but not running (see cpu_wait.h). */
#include <inttypes.h>
#include <stdio.h>

#include "cpu_wait.h"

uint64_t cxd_cpu_wait_ns(void)
{
#ifdef CXD_SIM
	/* Simulated ranks share one real process: the kernel's count is
	 * not theirs, and simulated time is not what it counts. Unknown. */
	return UINT64_MAX;
#else
	FILE *f = fopen("/proc/self/schedstat", "r");
	uint64_t on_cpu = 0, waited = UINT64_MAX;

	if (f == NULL)
		return UINT64_MAX;
	if (fscanf(f, "%" SCNu64 " %" SCNu64, &on_cpu, &waited) != 2)
		waited = UINT64_MAX;
	fclose(f);
	return waited;
#endif
}

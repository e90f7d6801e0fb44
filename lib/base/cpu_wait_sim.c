/* SPDX-License-Identifier: BSD-3-Clause */
/* Time spent runnable but not running (see cpu_wait.h), in the simulated
 * build (make sim; elsewhere cpu_wait.c). */
#include "cpu_wait.h"

uint64_t cxd_cpu_wait_ns(void)
{
	/* Simulated ranks share one real process: the kernel's count is
	 * not theirs, and simulated time is not what it counts. Unknown. */
	return UINT64_MAX;
}

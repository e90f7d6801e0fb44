/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How long this process waited for a CPU while it was ready to run: the
 * kernel's per-task run_delay (/proc/self/schedstat, second field, in ns).
 * A measurement taken while a rank waited for a CPU measured the host, not
 * the fabric; the sweep uses it to tell a busy host from a slow link.
 */
#ifndef CXD_CPU_WAIT_H
#define CXD_CPU_WAIT_H

#include <stdint.h>

/* Nanoseconds waited so far, or UINT64_MAX where the kernel keeps no
 * such count (no schedstat). */
uint64_t cxd_cpu_wait_ns(void);

#endif

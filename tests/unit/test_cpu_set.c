/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPUs a process may run on (lib/base/cpu_set.c), from the kernel's
 * affinity mask: the count is the mask's, at least 1; narrowed to one
 * CPU (as a batch system's binding does) it is 1, not the host's count;
 * masks joined count each CPU once.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/cpu_set.h"
#include "support/unit_main.h"

static void test_mask_is_the_kernels(void **state)
{
	unsigned char m[CXD_CPU_MASK];
	cpu_set_t set;

	(void) state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_int_equal(cxd_cpu_mask(m), CPU_COUNT(&set));
	assert_true(cxd_cpu_mask(m) >= 1);
}

/* Bound to its first allowed CPU: 1, whatever the host has; then put
 * back. */
static void test_bound_to_one(void **state)
{
	unsigned char m[CXD_CPU_MASK], or[CXD_CPU_MASK] = { 0 };
	cpu_set_t all, one;
	int first = 0;

	(void) state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	while (!CPU_ISSET(first, &all))
		first++;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(cxd_cpu_mask(m), 1);
	assert_int_equal(m[first / 8], 1u << (first % 8));
	assert_int_equal(cxd_cpu_mask_or(or, m), 1);
	assert_int_equal(cxd_cpu_mask_or(or, m), 1); /* the same CPU: once */
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(cxd_cpu_mask_or(or, (cxd_cpu_mask(m), m)),
			 CPU_COUNT(&all));
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_mask_is_the_kernels),
	cmocka_unit_test(test_bound_to_one))

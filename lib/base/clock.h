/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one clock: CLOCK_MONOTONIC_RAW in nanoseconds, for the timed loops
 * (no NTP slewing inside a measurement) and for every deadline and
 * liveness check, so that two readings are always comparable.
 */
#ifndef CXD_CLOCK_H
#define CXD_CLOCK_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

#include <sys/resource.h>

#define CXD_NS_PER_MS 1000000ULL

static inline uint64_t cxd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

/* This process's CPU seconds so far, user and system: a planner's cost,
 * reported (getrusage: SMPI answers clock_gettime with simulated time). */
static inline double cxd_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Milliseconds to deadline, rounded up so poll() never wakes too early. */
static inline int cxd_ms_left(uint64_t deadline, uint64_t now)
{
	uint64_t ms;

	if (deadline <= now)
		return 0;
	ms = (deadline - now + CXD_NS_PER_MS - 1) / CXD_NS_PER_MS;
	return ms > INT_MAX ? INT_MAX : (int) ms;
}

static inline uint64_t cxd_deadline_in(int ms)
{
	return cxd_now_ns() + (uint64_t) (ms < 0 ? 0 : ms) * CXD_NS_PER_MS;
}

#endif

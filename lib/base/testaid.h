/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test aids: hooks that only the test copies of the tools define
 * (tests/support/test_aids.c, linked into build/standin/). In the shipped
 * tools these weak references stay NULL, so nothing a user sets can reach
 * them; tests/e2e/test_install.sh checks that the installed binaries do
 * not even contain their environment variables' names.
 */
#ifndef CXD_TESTAID_H
#define CXD_TESTAID_H

#include <stddef.h>

/* Called on entering every phase ("the timed loop"); may stop the process
 * there so that a fault test can kill, freeze or cut it off at that point. */
void cxd_testaid_phase(const char *prog, const char *phase)
	__attribute__((weak));

/* cxi_sweep, before rank's endpoint opens: may move the process into a
 * network namespace of its own. 0, or a negative errno with err set. */
int cxd_testaid_netns(int rank, char *err, size_t errlen)
	__attribute__((weak));

/* Counters (lib/counters): a directory standing in for "/" when the
 * files of /sys, /proc and /run are read, so that tests can show a NIC
 * this host lacks, or a counter this user may not read. NULL: "/". */
const char *cxd_testaid_sysroot(void) __attribute__((weak));

/* cxi_sweep: the name of the node a rank's namespace stands for, written
 * over host (CXD_TEST_NETNS_PER: several ranks per namespace); 1 when
 * written, else 0. */
int cxd_testaid_node_name(int rank, char *host, size_t len)
	__attribute__((weak));

/* cxi_sweep: a host name for rank from the test (CXD_TEST_HOST_NAMES:
 * any bytes, so that hostile names reach a real run), written over host
 * as snprintf would; returns its whole length, -1 when none is given. */
long cxd_testaid_host_name(int rank, char *host, size_t len)
	__attribute__((weak));

/* cxi_sweep: a pair's span on the monotonic clock, from its lower rank
 * (CXD_TEST_PAIR_LOG: appended to that file, to count pairs at once). */
void cxd_testaid_pair_span(int a, int b, unsigned long long t0,
			   unsigned long long t1) __attribute__((weak));

/* cxi_sweep: true when pairs are to exchange one message instead of
 * measuring (the coordination cost curve, bench/sweep_cost.sh). */
int cxd_testaid_coord_only(void) __attribute__((weak));

/* cxi_sweep: a measured figure with seeded jitter (CXD_TEST_JITTER), so
 * that the simulator's identical repeats show noise; key names the
 * draw (rank, peer, metric, the rank's count of figures). */
double cxd_testaid_jitter(double v, unsigned long long key)
	__attribute__((weak));

#endif

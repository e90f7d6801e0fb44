/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test aids (base/testaid.h): linked into the test copies of the tools
 * only (build/standin/), never into the installed ones.
 *
 *   CXD_TEST_STOP_AT=PHASE  stop (SIGSTOP) on first entering the phase
 *                           named without "the " ("timed loop"), so that
 *                           fault tests kill, freeze or cut off a peer at
 *                           a known point
 *   CXD_TEST_NETNS=PREFIX   cxi_sweep: rank r enters the network namespace
 *                           PREFIX<r> (from `ip netns add`) before its
 *                           endpoint opens, so one host can give each rank
 *                           its own, shapeable link; sockets MPI opened
 *                           already stay where they were
 *   CXD_TEST_SYSROOT=DIR    link error counters and device facts are read
 *                           under DIR (DIR/sys/class/net/...) instead of /
 *   CXD_TEST_NETNS_PER=K    with CXD_TEST_NETNS: K ranks per namespace
 *                           (rank r enters PREFIX<r / K>), each namespace
 *                           standing for a node named after it, so that
 *                           ranks share a "node" and its NICs
 *   CXD_TEST_HOST_NAMES=FILE  cxi_sweep: rank r's host name is line r
 *                           of FILE, its bytes in hex ("-": empty), so
 *                           that any name, hostile ones too, reaches a
 *                           real run (tests/e2e/test_hostile_sweep.sh);
 *                           ranks beyond its lines keep theirs
 *   CXD_TEST_PAIR_LOG=FILE  cxi_sweep: each pair's lower rank appends
 *                           "a b start_ns end_ns" (monotonic clock), so a
 *                           test can count the pairs that ran at once
 *   CXD_TEST_JITTER=PCT[:SEED]  cxi_sweep: every figure a rank measures is
 *                           multiplied by exp(PCT/100 * z), z a standard
 *                           normal drawn from SEED (default 1) and the
 *                           figure's key: the simulated build's repeats
 *                           are otherwise identical, so the noise rules
 *                           (resolution, INCONCLUSIVE) need it at scale
 *   CXD_TEST_COORD_ONLY=1   cxi_sweep: a pair swaps one message instead of
 *                           measuring, so a run times the coordination
 *                           alone (bench/sweep_cost.sh); the figures it
 *                           reports are placeholders, never a measurement
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/testaid.h"

void cxd_testaid_phase(const char *prog, const char *phase)
{
	static bool stopped; /* first entry only: one session per process */
	const char *at = getenv("CXD_TEST_STOP_AT");

	if (stopped || at == NULL || strncmp(phase, "the ", 4) != 0 ||
	    strcmp(phase + 4, at) != 0)
		return;
	stopped = true;
	fprintf(stderr, "%s: CXD_TEST_STOP_AT: stopping in %s\n", prog, phase);
	fflush(stderr);
	raise(SIGSTOP);
}

static int per_ns(void)
{
	const char *per = getenv("CXD_TEST_NETNS_PER");
	int k = per ? atoi(per) : 1;

	return k > 0 ? k : 1;
}

int cxd_testaid_node_name(int rank, char *host, size_t len)
{
	const char *pre = getenv("CXD_TEST_NETNS");

	if (pre == NULL || *pre == '\0' || !getenv("CXD_TEST_NETNS_PER"))
		return 0;
	snprintf(host, len, "%.100s%d", pre, rank / per_ns());
	return 1;
}

/* Line `rank` of the file (0 the first): hex digits, or "-" for none. */
static long hex_line(FILE *f, int rank, unsigned char *out, size_t room)
{
	char line[16384];
	size_t n = 0;

	for (int i = 0; i <= rank; i++)
		if (fgets(line, sizeof(line), f) == NULL)
			return -1;
	for (char *p = line; p[0] && p[1] && p[0] != '-' && p[0] != '\n';
	     p += 2, n++) {
		unsigned v;

		if (sscanf(p, "%2x", &v) != 1)
			return -1;
		if (n < room)
			out[n] = (unsigned char) v;
	}
	return (long) n;
}

long cxd_testaid_host_name(int rank, char *host, size_t len)
{
	const char *path = getenv("CXD_TEST_HOST_NAMES");
	unsigned char name[8192];
	FILE *f = path && *path ? fopen(path, "r") : NULL;
	long n = f ? hex_line(f, rank, name, sizeof(name)) : -1;

	if (f)
		fclose(f);
	if (n < 0 || len == 0)
		return -1;
	memcpy(host, name, (size_t) n < len - 1 ? (size_t) n : len - 1);
	host[(size_t) n < len - 1 ? (size_t) n : len - 1] = '\0';
	return n;
}

int cxd_testaid_netns(int rank, char *err, size_t errlen)
{
	const char *pre = getenv("CXD_TEST_NETNS");
	char path[256];
	int fd, e;

	if (pre == NULL || *pre == '\0')
		return 0;
	snprintf(path, sizeof(path), "/run/netns/%.200s%d", pre,
		 rank / per_ns());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && setns(fd, CLONE_NEWNET) == 0) {
		close(fd);
		return 0;
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	snprintf(err, errlen, "CXD_TEST_NETNS: cannot enter %s: %s", path,
		 strerror(e));
	return -e;
}

const char *cxd_testaid_sysroot(void)
{
	return getenv("CXD_TEST_SYSROOT");
}

int cxd_testaid_coord_only(void)
{
	const char *on = getenv("CXD_TEST_COORD_ONLY");

	return on != NULL && strcmp(on, "1") == 0;
}

void cxd_testaid_pair_span(int a, int b, unsigned long long t0,
			   unsigned long long t1)
{
	const char *path = getenv("CXD_TEST_PAIR_LOG");
	char line[128];
	int fd, n;

	if (path == NULL || *path == '\0')
		return;
	n = snprintf(line, sizeof(line), "%d %d %llu %llu\n", a, b, t0, t1);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* One write with O_APPEND: lines of several ranks never mix. */
	if (write(fd, line, (size_t) n) != n)
		fprintf(stderr, "CXD_TEST_PAIR_LOG: short write\n");
	close(fd);
}

/* splitmix64: a well-mixed 64-bit value of x (no state kept). */
static unsigned long long mix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

double cxd_testaid_jitter(double v, unsigned long long key)
{
	const char *j = getenv("CXD_TEST_JITTER");
	unsigned long long seed = 1, a, b;
	double pct = 0, u1, u2;
	char *end;

	if (j == NULL || *j == '\0')
		return v;
	pct = strtod(j, &end);
	if (*end == ':')
		seed = strtoull(end + 1, NULL, 10);
	a = mix64(seed ^ mix64(key));
	b = mix64(a);
	/* Box-Muller from two uniforms in (0, 1]. */
	u1 = ((double) (a >> 11) + 1.0) / 9007199254740992.0;
	u2 = (double) (b >> 11) / 9007199254740992.0;
	return v * exp(pct / 100.0 * sqrt(-2.0 * log(u1)) *
		       cos(6.283185307179586 * u2));
}

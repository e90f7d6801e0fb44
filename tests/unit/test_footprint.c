/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's memory figures and the up-front refusal (footprint.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem_avail.h"
#include "support/unit_main.h"
#include "sweep/model/footprint.h"
#include "sweep/model/pairs.h"

/* Growth: per rank linear plus the schedule (~4 n^2); rank 0 a summary
 * per rank on top, and the matrices only for the files that list every
 * link: ten times the ranks, a hundred times those. */
static void test_sweep_mem_rank0_growth_with_link_files(void **state)
{
	uint64_t r0_10k = cxd_footprint_rank0(10000, 5000, 0);
	uint64_t l_1k = cxd_footprint_rank0(1000, 500, CXD_MEM_LINKS) -
			cxd_footprint_rank0(1000, 500, 0);
	uint64_t l_10k = cxd_footprint_rank0(10000, 5000, CXD_MEM_LINKS);
	uint64_t j_10k = cxd_footprint_rank0(10000, 5000, CXD_MEM_LINKS |
					     CXD_MEM_JSON);
	uint64_t each_10k = cxd_footprint_rank(10000, 5000);

	(void) state;
	/* Without such files rank 0 holds little more than any rank. */
	assert_true(r0_10k - each_10k < 100000000ULL);
	/* No rank holds the schedule: 1 kB per peer and its own steps. */
	assert_true(each_10k > 10240000ULL && each_10k < 11000000ULL);
	/* Four matrices of 8 x 10^8 bytes = 3.2 GB more. */
	assert_true(l_10k - r0_10k >= 3200000000ULL &&
		    l_10k - r0_10k < 3300000000ULL);
	assert_true(l_10k - r0_10k > 99 * l_1k &&
		    l_10k - r0_10k < 101 * l_1k);
	/* The JSON document dwarfs the matrices. */
	assert_true(j_10k > 5 * l_10k);
	/* A JSON baseline costs its document; a binary one its matrices. */
	assert_true(cxd_footprint_rank0(10000, 5000, CXD_MEM_BASE_JSON) >
		    5 * cxd_footprint_rank0(10000, 5000, CXD_MEM_BASE_BIN));
	/* --json lists every round's pairs besides: (n - 1) rounds x
	 * (n / 2 + 1) slots x 8 bytes, 400 MB at 10,000. */
	assert_true(j_10k - l_10k - 4 * 240 * 100000000ULL > 400000000ULL &&
		    j_10k - l_10k - 4 * 240 * 100000000ULL < 420000000ULL);
	/* Fewer pairs at once: more, shorter rounds, each timed. */
	assert_true(cxd_footprint_rank(64, 1) > cxd_footprint_rank(64, 32));
}

static void test_sweep_mem_refusal_names_the_way_out(void **state)
{
	char err[512] = "";
	unsigned json = CXD_MEM_LINKS | CXD_MEM_JSON;
	uint64_t need = cxd_footprint_rank0(10000, 5000, json);
	uint64_t bare = cxd_footprint_rank0(10000, 5000, 0);

	(void) state;
	/* Fits: no refusal. */
	assert_int_equal(cxd_footprint_check(10000, 5000, json, need,
					     err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* Without --json the same host holds a 10,000-rank sweep. */
	assert_int_equal(cxd_footprint_check(10000, 5000, 0, bare, err,
					     sizeof(err)), 0);
	/* One byte short: refused, with the figures and the way out. */
	assert_int_equal(cxd_footprint_check(10000, 5000, json,
					     need - 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--json document"));
	assert_non_null(strstr(err, "--matrix FILE instead"));
	assert_non_null(strstr(err, "10000 ranks"));
	assert_non_null(strstr(err, "sweep fewer ranks at a time"));
	assert_non_null(strstr(err, " GB on rank 0"));
	/* Nothing to leave out: no --matrix advice, the figures still. */
	assert_int_equal(cxd_footprint_check(10000, 5000, 0, 60000000ULL,
					     err, sizeof(err)), -1);
	assert_null(strstr(err, "--matrix"));
	assert_non_null(strstr(err, "0.1 GB available"));
}

static char fix[] = "/tmp/cxd-mem-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fix, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A fixture tree laid out as the kernel's: the process's own cgroup and
 * the ones above it bound what it may take, in either cgroup layout. */
static void test_mem_available(void **state)
{
	char cmd[600];

	(void) state;
	assert_non_null(mkdtemp(fix));
	put("proc/meminfo", "MemTotal: 100 kB\nMemAvailable: 8000000 kB\n");
	/* Nothing but meminfo: MemAvailable. */
	put("proc/self/cgroup", "0::/\n");
	assert_true(cxd_mem_available(fix) == 8000000ULL * 1024);
	/* v1, as on this kind of host: the job's cgroup 5 GB with 1 GB used,
	 * its parent 3 GB with 2.5 GB used (the parent binds), the mount's
	 * "no limit" huge number ignored. */
	put("proc/self/cgroup", "4:memory:/slurm/job_7\n1:cpu:/\n0::/\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/slurm/memory.limit_in_bytes", "3000000000\n");
	put("sys/fs/cgroup/memory/slurm/memory.usage_in_bytes", "2500000000\n");
	put("sys/fs/cgroup/memory/slurm/job_7/memory.limit_in_bytes", "5000000000\n");
	put("sys/fs/cgroup/memory/slurm/job_7/memory.usage_in_bytes", "1000000000\n");
	assert_true(cxd_mem_available(fix) == 500000000ULL);
	/* v2: "max" is no bound; the job's own memory.max binds. */
	put("proc/self/cgroup", "0::/system.slice/job_9\n");
	put("sys/fs/cgroup/system.slice/memory.max", "max\n");
	put("sys/fs/cgroup/system.slice/job_9/memory.max", "2000000000\n");
	put("sys/fs/cgroup/system.slice/job_9/memory.current", "1500000000\n");
	assert_true(cxd_mem_available(fix) == 500000000ULL);
	/* Over its limit already: no room at all. */
	put("sys/fs/cgroup/system.slice/job_9/memory.current", "2100000000\n");
	assert_true(cxd_mem_available(fix) == 0);
	/* On this machine, whatever its layout: a figure, not a crash. */
	assert_true(cxd_mem_available("") > 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fix);
	assert_int_equal(system(cmd), 0);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_sweep_mem_rank0_growth_with_link_files),
	cmocka_unit_test(test_sweep_mem_refusal_names_the_way_out),
	cmocka_unit_test(test_mem_available))

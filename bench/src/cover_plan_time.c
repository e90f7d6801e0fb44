/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget's planner alone, as rank 0 runs it (cxd_topo_load,
 * cxd_topo_place, cxd_routes_build, cxd_cover_plan_build), on a
 * topology file and a hostfile (a host a line, a rank each), without MPI
 * or a simulation: for machines too large to simulate here
 * (bench/sim_budget.sh). Prints one JSON line: the ranks, the plan's
 * pairs and rounds, and the CPU seconds of the lazy pick and, with
 * --full, of the full weighing (and whether their plans are the same).
 * With --routed, the full sweep's bandwidth pass packed by routes
 * instead (cxd_routed_build): its rounds, their bound and CPU seconds.
 *   cover_plan_time TOPOLOGY HOSTFILE [--full | --routed]
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep/model/route.h"
#include "sweep/model/topo.h"
#include "sweep/model/topo_add.h"
#include "sweep/sched/plan_cover.h"
#include "sweep/sched/sched_routed.h"

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* The hostfile's hosts as ranks; their count, or -1. */
static int read_hosts(const char *path, struct cxd_sweep_rank **r)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t n = 0, cap = 0;

	if (!f)
		return -1;
	*r = NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\r\n:")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (n == cap) {
			void *p = realloc(*r, (cap = cap ? 2 * cap : 1024) *
						      sizeof(**r));
			if (!p)
				break;
			*r = p;
		}
		memset(&(*r)[n], 0, sizeof(**r));
		snprintf((*r)[n++].host, sizeof((*r)[0].host), "%.255s", line);
	}
	fclose(f);
	return (int) n;
}

/* The routes' digest (FNV-1a over their ways, shares and hops): the
 * same digest, the same routes, however they were found. */
static unsigned long long digest(const struct cxd_routes *rt)
{
	unsigned long long h = 1469598103934665603ULL;
	size_t ns2 = (size_t) rt->ns * (size_t) rt->ns;

	for (size_t i = 0; i <= ns2; i++)
		h = (h ^ rt->at[i]) * 1099511628211ULL;
	for (size_t i = 0; i < rt->nway; i++)
		h = (h ^ (unsigned long long) (rt->way[i].len +
				1000003.0 * rt->way[i].share)) * 1099511628211ULL;
	for (size_t i = 0; i < rt->nhop; i++)
		h = (h ^ (unsigned) rt->hop[i]) * 1099511628211ULL;
	return h;
}

/* One plan built, its CPU seconds; *p holds it. */
static double timed(const struct cxd_topo_map *tm, int n, bool full,
		    struct cxd_cover_plan *p, unsigned long long *dig)
{
	struct cxd_cover_opts o = { .exhaustive = full };
	struct cxd_routes rt = { 0 };
	double t0 = cpu_s();

	if (cxd_routes_build(tm, n, &rt) ||
	    cxd_cover_plan_build(tm, n, &rt, &o, p)) {
		fprintf(stderr, "cover_plan_time: no plan\n");
		exit(1);
	}
	t0 = cpu_s() - t0;
	*dig = digest(&rt);
	cxd_routes_free(&rt);
	return t0;
}

/* The topology file read and the n ranks placed into *tm; 0 or -1. */
static int place(const char *path, struct cxd_topo *t,
		 const struct cxd_sweep_rank *r, int n,
		 struct cxd_topo_map *tm)
{
	char err[512] = "";
	int *sof = calloc((size_t) n, sizeof(int));
	int *gof = calloc((size_t) n, sizeof(int));

	if (!sof || !gof || cxd_topo_load(path, t, err, sizeof(err)) ||
	    cxd_topo_place(t, r, n, sof, gof, NULL, err, sizeof(err))) {
		fprintf(stderr, "cover_plan_time: %s\n", err);
		return -1;
	}
	*tm = (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
		.nswitch = t->nswitch, .ngroup = t->ngroup, .link = t->link,
		.nlink = t->nlink, .switch_group = t->switch_group,
		.route = t->route, .nswitch_all = t->nswitch_all,
		.ngroup_all = t->ngroup_all };
	return 0;
}

/* --routed: the full sweep's pass packed by routes, a JSON line. */
static int routed(const struct cxd_topo_map *tm, int n)
{
	struct cxd_routed p;
	double t0 = cpu_s();
	int ret = cxd_routed_build(n, tm, n / 2, &p);

	if (ret != 0) {
		fprintf(stderr, "cover_plan_time: no routed plan (%d)\n", ret);
		return 1;
	}
	printf("{\"ranks\": %d, \"pairs\": %zu, \"rounds\": %d, "
	       "\"bound\": %d, \"busiest\": %d, \"routed_cpu_s\": %.3f}\n",
	       n, p.npair, p.nround, p.bound, p.busiest, cpu_s() - t0);
	cxd_routed_free(&p);
	return 0;
}

int main(int argc, char **argv)
{
	struct cxd_topo t;
	struct cxd_topo_map tm;
	struct cxd_sweep_rank *r = NULL;
	struct cxd_cover_plan p, q;
	double lazy, full = -1;
	unsigned long long dig;
	bool same = true;
	int n;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--full") &&
				     strcmp(argv[3], "--routed"))) {
		fprintf(stderr, "usage: cover_plan_time TOPOLOGY HOSTFILE "
			"[--full | --routed]\n");
		return 2;
	}
	n = read_hosts(argv[2], &r);
	if (n < 2) {
		fprintf(stderr, "cover_plan_time: %s: fewer than 2 hosts\n",
			argv[2]);
		return 2;
	}
	if (place(argv[1], &t, r, n, &tm))
		return 2;
	if (argc == 4 && strcmp(argv[3], "--routed") == 0)
		return routed(&tm, n);
	lazy = timed(&tm, n, false, &p, &dig);
	if (argc == 4) {
		full = timed(&tm, n, true, &q, &dig);
		same = p.npair == q.npair &&
		       !memcmp(p.pair, q.pair, (size_t) p.npair *
						       sizeof(*p.pair));
		cxd_cover_plan_free(&q);
	}
	printf("{\"ranks\": %d, \"pairs\": %d, \"rounds\": %d, "
	       "\"plan_cpu_s\": %.3f, \"full_cpu_s\": %.3f, "
	       "\"same\": %s, \"routes\": \"%016llx\"}\n", n, p.npair,
	       p.nround, lazy, full, same ? "true" : "false", dig);
	cxd_cover_plan_free(&p);
	cxd_topo_free(&t);
	free((void *) tm.switch_of);
	free((void *) tm.group_of);
	free(r);
	return same ? 0 : 1;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: a rank's state, its hosts and CPUs, the bootstrap. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "base/testaid.h"
#include "sweep_mpi.h"

void sw_init(struct sw *w, struct sw_engine *e)
{
	memset(w, 0, sizeof(*w));
	sw_mpi_init(&w->m);
	w->eng = e;
	w->pace.coord_only = cxd_testaid_coord_only && cxd_testaid_coord_only();
}

void sw_free(struct sw *w)
{
	if (w->out.has_matrix) /* a run that ended before writing it */
		MPI_File_close(&w->out.mfh);
	w->eng->close(w->eng);
	free(w->ranks);
	free(w->judge.bw_row);
	free(w->judge.lat_row);
	free(w->judge.busy_row);
	free(w->pace.round_s);
	free(w->judge.crowd_ratio);
	for (int m = 0; m < 2; m++) {
		free(w->judge.rep[m]);
		free(w->judge.spread[m]);
	}
	if (w->judge.has_base)
		cxd_baseline_free(&w->judge.base);
	if (w->judge.has_topo)
		cxd_topo_free(&w->judge.topo);
	free((int *) w->judge.tmap.switch_of);
	free((int *) w->judge.tmap.group_of);
}

struct host_cpus {
	char host[256];
	int cpus;
};

/* Ranks sharing a host's cores: measure fewer pairs at once (a waiting
 * side needs a core to answer, and timings would measure the scheduler). */
static void share_hosts(struct sw *w)
{
	struct host_cpus me = { "", (int) sysconf(_SC_NPROCESSORS_ONLN) };
	struct host_cpus *all = sw_alloc(&w->m, (size_t) w->m.n, sizeof(me));
	int *host = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
	int *cpus = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));

	sw_host_name(&w->m, me.host, sizeof(me.host));
	sw_allgather(&w->m, &me, all, sizeof(me), "the host exchange");
	w->pace.one_host = true;
	for (int i = 0; i < w->m.n; i++) {
		int h = 0;

		while (strcmp(all[h].host, all[i].host) != 0)
			h++;
		host[i] = h;
		cpus[h] = all[h].cpus > 0 ? all[h].cpus : 1;
		w->pace.one_host &= h == 0;
	}
	/* This rank's place among its host's ranks (one per NIC). */
	for (int i = 0; i < w->m.n; i++) {
		w->pace.nlocal += host[i] == host[w->m.rank];
		w->pace.local += i < w->m.rank && host[i] == host[w->m.rank];
	}
	w->pace.pairs_at_once = w->cfg.sweep.max_pairs ?
		(int) (w->cfg.sweep.max_pairs < (uint64_t) w->m.n ?
		       w->cfg.sweep.max_pairs : (uint64_t) w->m.n) :
		cxd_pairs_at_once(w->m.n, host, cpus);
	free(all);
	free(host);
	free(cpus);
}

/* Test copies only (base/testaid.h): a namespace of its own per rank. */
static void test_netns(struct sw *w)
{
	char err[256] = "";

	if (cxd_testaid_netns && cxd_testaid_netns(w->m.rank, err, sizeof(err)))
		sw_die(&w->m, "%s", err);
}

/* Places and CPUs first (the memory check needs pairs_at_once), then
 * the engine: provider, device, endpoint, every rank's address. */
int sw_bootstrap(struct sw *w)
{
	test_netns(w);
	share_hosts(w);
	if (sw_agree_memory(w) != 0)
		return CXD_EXIT_USAGE;
	return w->eng->open(w->eng, w);
}

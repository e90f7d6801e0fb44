/* cxi_sweep: MPI bootstrap, the fabric for every rank, bounded waits. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "base/testaid.h"
#include "sweep_mpi.h"

void sw_init(struct sw *w)
{
	memset(w, 0, sizeof(*w));
	sw_mpi_init(&w->m);
	w->tool = cxd_tool_find("cxi_sweep");
	w->bw_tool = cxd_tool_find("cxi_write_bw");
	w->lat_tool = cxd_tool_find("cxi_write_lat");
	w->partner = -1;
	w->coord_only = cxd_testaid_coord_only && cxd_testaid_coord_only();
	w->s.ctrl.fd = -1;
	w->s.ctrl.hb_pipe[0] = w->s.ctrl.hb_pipe[1] = -1;
}

void sw_free(struct sw *w)
{
	if (w->has_matrix) /* a run that ended before writing it */
		MPI_File_close(&w->mfh);
	cxd_sess_close(&w->s);
	free(w->ranks);
	free(w->addrs);
	free(w->fiaddr);
	free(w->bw_row);
	free(w->lat_row);
	free(w->busy_row);
	free(w->round_s);
	for (int m = 0; m < 2; m++) {
		free(w->rep[m]);
		free(w->spread[m]);
	}
	if (w->has_base)
		cxd_base_free(&w->base);
	if (w->has_topo)
		cxd_topo_free(&w->topo);
	free((int *) w->tmap.sw);
	free((int *) w->tmap.grp);
}

struct host_cpus {
	char host[256];
	int cpus;
};

/* Ranks sharing a host's cores: measure fewer pairs at once (a waiting
 * side needs a core to answer, and timings would measure the scheduler). */
static void share_hosts(struct sw *w, bool *same_p)
{
	struct host_cpus me = { "", (int) sysconf(_SC_NPROCESSORS_ONLN) };
	struct host_cpus *all = sw_alloc(&w->m, (size_t) w->m.n, sizeof(me));
	int *host = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
	int *cpus = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));

	sw_host_name(&w->m, me.host, sizeof(me.host));
	sw_allgather(&w->m, &me, all, sizeof(me), "the host exchange");
	*same_p = true;
	for (int i = 0; i < w->m.n; i++) {
		int h = 0;

		while (strcmp(all[h].host, all[i].host) != 0)
			h++;
		host[i] = h;
		cpus[h] = all[h].cpus > 0 ? all[h].cpus : 1;
		*same_p &= h == 0;
	}
	/* This rank's place among its host's ranks (one per NIC). */
	for (int i = 0; i < w->m.n; i++) {
		w->nlocal += host[i] == host[w->m.rank];
		w->local += i < w->m.rank && host[i] == host[w->m.rank];
	}
	w->pairs_at_once = w->cfg.sweep.max_pairs ?
		(int) (w->cfg.sweep.max_pairs < (uint64_t) w->m.n ?
		       w->cfg.sweep.max_pairs : (uint64_t) w->m.n) :
		cxd_sweep_pairs_at_once(w->m.n, host, cpus);
	free(all);
	free(host);
	free(cpus);
}

/* Rank 0 picks the provider, so every rank opens the same one. */
static void pick_provider(struct sw *w)
{
	char name[CXD_NAME_LEN] = "", err[CXD_ERR_LEN] = "";
	bool same = true;

	share_hosts(w, &same);
	if (w->m.rank == 0) {
		if (w->cfg.local.provider[0])
			cxd_fabric_core_name(w->cfg.local.provider, name,
					     sizeof(name));
		else if (cxd_fabric_pick(w->bw_tool->ops->facts.caps, same, name,
					 sizeof(name), err, sizeof(err)) != 0)
			sw_die(&w->m, "%s", err);
	}
	sw_bcast(&w->m, name, sizeof(name), MPI_CHAR, "the provider choice");
	snprintf(w->bw_run.provider, sizeof(w->bw_run.provider), "%s", name);
	snprintf(w->lat_run.provider, sizeof(w->lat_run.provider), "%s", name);
}


/* Test copies only (base/testaid.h): a namespace of its own per rank. */
static void test_netns(struct sw *w)
{
	char err[256] = "";

	if (cxd_testaid_netns && cxd_testaid_netns(w->m.rank, err, sizeof(err)))
		sw_die(&w->m, "%s", err);
}

/* Open the endpoint, swap addresses with every rank, fill the AV. */
static void open_fabric(struct sw *w)
{
	struct cxd_sess *s = &w->s;
	struct cxd_sweep_rank me;
	struct cxd_addr_msg mine;

	memset(&me, 0, sizeof(me));
	sw_host_name(&w->m, me.host, sizeof(me.host));
	s->tool = w->bw_tool;
	s->cfg = &w->cfg;
	s->run = &w->bw_run;
	s->ops = s->tool->ops;
	s->is_client = true;
	if (cxd_sess_open_local(s, &mine) != 0)
		sw_die(&w->m, "%s", s->err);
	cxd_fabric_straddr(s->fab, mine.addr, me.addr, sizeof(me.addr));
	snprintf(me.nic, sizeof(me.nic), "%s",
		 s->fab->info->domain_attr->name ?
		 s->fab->info->domain_attr->name : "?");
	w->ranks = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*w->ranks));
	w->m.host = w->ranks[w->m.rank].host; /* sw_die's, once filled */
	w->addrs = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*w->addrs));
	w->fiaddr = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*w->fiaddr));
	sw_allgather(&w->m, &me, w->ranks, sizeof(me), "the host name exchange");
	sw_allgather(&w->m, &mine, w->addrs, sizeof(mine), "the address exchange");
	for (int i = 0; i < w->m.n; i++) {
		if (i == w->m.rank)
			continue;
		if (cxd_fabric_add_peer(s->fab, w->addrs[i].addr, s->err,
					sizeof(s->err)) != 0)
			sw_die(&w->m, "rank %d (%s): %s", i, w->ranks[i].host, s->err);
		w->fiaddr[i] = s->fab->peer;
	}
}

void sw_boot_provider(struct sw *w)
{
	test_netns(w);
	pick_provider(w);
}

void sw_boot_fabric(struct sw *w)
{
	open_fabric(w);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's libfabric engine: every rank opens one endpoint with the
 * pair tools' session and knows every rank's address; a measurement is
 * one run of the pair tools' runner (cxi_write_lat or cxi_write_bw)
 * aimed at the partner, whose figure the result hook hands back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "counters/counters.h"
#include "engine_fabric.h"
#include "sweep_mpi.h"

/* Rank 0 picks the provider, so every rank opens the same one. */
static void pick_provider(struct sw_fab *f, struct sw *w)
{
	char name[CXD_NAME_LEN] = "", err[CXD_ERR_LEN] = "";

	if (w->m.rank == 0) {
		if (w->cfg.local.provider[0])
			cxd_fabric_core_name(w->cfg.local.provider, name,
					     sizeof(name));
		else if (cxd_fabric_pick(f->bw_tool->ops->facts.caps,
					 w->pace.one_host, name, sizeof(name),
					 err, sizeof(err)) != 0)
			sw_die(&w->m, "%s", err);
	}
	sw_bcast(&w->m, name, sizeof(name), MPI_CHAR, "the provider choice");
	snprintf(w->bw_run.provider, sizeof(w->bw_run.provider), "%s", name);
	snprintf(w->lat_run.provider, sizeof(w->lat_run.provider), "%s", name);
}

/* Swap every rank's host, address and NIC; fill the AV. */
static void swap_addrs(struct sw_fab *f, struct sw *w,
		       struct cxd_sweep_rank *me, struct cxd_addr_msg *mine)
{
	struct cxd_sess *s = &f->s;

	w->ranks = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*w->ranks));
	w->m.host = w->ranks[w->m.rank].host; /* sw_die's, once filled */
	f->addrs = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*f->addrs));
	f->fiaddr = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*f->fiaddr));
	sw_allgather(&w->m, me, w->ranks, sizeof(*me),
		     "the host name exchange");
	sw_allgather(&w->m, mine, f->addrs, sizeof(*mine),
		     "the address exchange");
	for (int i = 0; i < w->m.n; i++) {
		if (i == w->m.rank)
			continue;
		if (cxd_fabric_add_peer(s->fab, f->addrs[i].addr, s->err,
					sizeof(s->err)) != 0)
			sw_die(&w->m, "rank %d (%s): %s", i, w->ranks[i].host,
			       s->err);
		f->fiaddr[i] = s->fab->peer;
	}
}

/* Open the endpoint, then every rank's address. */
static void open_fabric(struct sw_fab *f, struct sw *w)
{
	struct cxd_sess *s = &f->s;
	struct cxd_sweep_rank me;
	struct cxd_addr_msg mine;

	memset(&me, 0, sizeof(me));
	sw_host_name(&w->m, me.host, sizeof(me.host));
	s->tool = f->bw_tool;
	s->cfg = &w->cfg;
	s->run = &w->bw_run;
	s->ops = s->tool->ops;
	s->is_client = true;
	/* The pair runners' liveness floor (--timeout), as in the pair
	 * tools. */
	s->timeout_ms = (uint64_t) w->cfg.local.timeout_s * 1000;
	if (cxd_sess_open_local(s, &mine) != 0)
		sw_die(&w->m, "%s", s->err);
	cxd_fabric_straddr(s->fab, mine.addr, me.addr, sizeof(me.addr));
	snprintf(me.nic, sizeof(me.nic), "%s",
		 s->fab->info->domain_attr->name ?
		 s->fab->info->domain_attr->name : "?");
	swap_addrs(f, w, &me, &mine);
}

static int fab_open(struct sw_engine *e, struct sw *w)
{
	struct sw_fab *f = e->state;

	pick_provider(f, w);
	if (sw_fab_pick_device(f, w) != 0)
		return CXD_EXIT_USAGE;
	open_fabric(f, w);
	return CXD_EXIT_OK;
}

/* One run of the pair runner; its result hook fills fig. */
static int fab_measure(struct sw_engine *e, const struct sw_dir *d,
		       struct sw_fig *fig)
{
	struct sw_fab *f = e->state;
	struct cxd_sess *s = &f->s;
	int ret;

	if (d->peer != f->partner || strcmp(d->role, f->role) != 0)
		sw_fab_aim(f, d->peer, d->role);
	*fig = (struct sw_fig){ false, NAN, NAN, NAN, NAN };
	s->is_client = s->active = d->lead;
	s->tool = d->lat ? f->lat_tool : f->bw_tool;
	s->ops = s->tool->ops;
	s->run = d->lat ? &f->w->lat_run : &f->w->bw_run;
	f->fig = fig;
	ret = s->tool->run(s, NULL);
	f->fig = NULL;
	return ret;
}

static const char *fab_why(const struct sw_engine *e)
{
	const struct sw_fab *f = e->state;

	return f->s.err;
}

static void fab_close(struct sw_engine *e)
{
	struct sw_fab *f = e->state;

	if (f == NULL)
		return;
	cxd_sess_close(&f->s);
	free(f->addrs);
	free(f->fiaddr);
	free(f);
	e->state = NULL;
}

static void fab_plan_counters(const struct sw_engine *e, struct cxd_ctrs *c,
			      const char *sysroot)
{
	const struct sw_fab *f = e->state;
	const struct fi_info *fi = f->s.fab->info;
	bool ip = fi->addr_format == FI_SOCKADDR_IN ||
		  fi->addr_format == FI_SOCKADDR_IN6;

	cxd_ctrs_plan(c, fi->fabric_attr->prov_name, fi->domain_attr->name,
		      ip ? fi->src_addr : NULL, sysroot);
}

static void fab_tclass_note(const struct sw_engine *e, unsigned tc,
			    char *buf, size_t len)
{
	const struct sw_fab *f = e->state;

	cxd_fabric_tclass_note(f->s.fab, tc, buf, len);
}

static void fab_version(char *buf, size_t len)
{
	uint32_t ver = fi_version();

	snprintf(buf, len, "%u.%u", FI_MAJOR(ver), FI_MINOR(ver));
}

void sw_engine_fabric(struct sw_engine *e, struct sw *w)
{
	struct sw_fab *f = sw_alloc(&w->m, 1, sizeof(*f));

	f->w = w;
	f->bw_tool = cxd_tool_find("cxi_write_bw");
	f->lat_tool = cxd_tool_find("cxi_write_lat");
	f->read_tool = cxd_tool_find("cxi_read_bw");
	f->partner = -1;
	f->role = "";
	f->s.via = &sw_peer_mpi; /* a pair's partner, over MPI */
	f->s.via_arg = f;
	*e = (struct sw_engine){
		.name = "fabric", .check = NULL, .open = fab_open, .measure = fab_measure, .why = fab_why,
		.close = fab_close, .progress = sw_fab_progress,
		.plan_counters = fab_plan_counters,
		.tclass_note = fab_tclass_note, .version = fab_version,
		.aggress = sw_fab_aggress, .state = f,
	};
}

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
#include "engine_fabric_state.h"

/* Rank 0 picks the provider, so every rank opens the same one. */
static void pick_provider(struct sw_fab *f, struct sw_ctx *c)
{
	char name[CXD_NAME_LEN] = "", err[CXD_ERR_LEN] = "";

	if (c->m.rank == 0) {
		if (c->cfg.local.provider[0])
			cxd_fabric_core_name(c->cfg.local.provider, name,
					     sizeof(name));
		else if (cxd_fabric_pick(f->bw_tool->ops->facts.caps,
					 c->hosts.one_host, name, sizeof(name),
					 err, sizeof(err)) != 0)
			sw_die(&c->m, "%s", err);
	}
	sw_bcast(&c->m, name, sizeof(name), MPI_CHAR, "the provider choice");
	snprintf(c->bw_run.provider, sizeof(c->bw_run.provider), "%s", name);
	snprintf(c->lat_run.provider, sizeof(c->lat_run.provider), "%s", name);
}

/* Swap every rank's host, address and NIC; fill the AV. */
static void swap_addrs(struct sw_fab *f, struct sw_ctx *c,
		       struct cxd_sweep_rank *me, struct cxd_addr_msg *mine)
{
	struct cxd_sess *s = &f->s;

	c->ranks = sw_alloc(&c->m, (size_t) c->m.n, sizeof(*c->ranks));
	c->m.host = c->ranks[c->m.rank].host; /* sw_die's, once filled */
	f->addrs = sw_alloc(&c->m, (size_t) c->m.n, sizeof(*f->addrs));
	f->fiaddr = sw_alloc(&c->m, (size_t) c->m.n, sizeof(*f->fiaddr));
	sw_allgather(&c->m, me, c->ranks, sizeof(*me),
		     "the host name exchange");
	sw_allgather(&c->m, mine, f->addrs, sizeof(*mine),
		     "the address exchange");
	for (int i = 0; i < c->m.n; i++) {
		if (i == c->m.rank)
			continue;
		if (cxd_fabric_add_peer(s->fab, f->addrs[i].addr, s->err,
					sizeof(s->err)) != 0)
			sw_die(&c->m, "rank %d (%s): %s", i, c->ranks[i].host,
			       s->err);
		f->fiaddr[i] = s->fab->peer;
	}
}

/* Open the endpoint, then every rank's address. */
static void open_fabric(struct sw_fab *f, struct sw_ctx *c)
{
	struct cxd_sess *s = &f->s;
	struct cxd_sweep_rank me;
	struct cxd_addr_msg mine;

	memset(&me, 0, sizeof(me));
	sw_host_name(&c->m, me.host, sizeof(me.host));
	s->tool = f->bw_tool;
	s->cfg = &c->cfg;
	s->run = &c->bw_run;
	s->ops = s->tool->ops;
	s->is_client = true;
	/* The pair runners' liveness floor (--timeout), as in the pair
	 * tools. */
	s->timeout_ms = (uint64_t) c->cfg.local.timeout_s * 1000;
	if (cxd_sess_open_local(s, &mine) != 0)
		sw_die(&c->m, "%s", s->err);
	cxd_fabric_straddr(s->fab, mine.addr, me.addr, sizeof(me.addr));
	snprintf(me.nic, sizeof(me.nic), "%s",
		 s->fab->info->domain_attr->name ?
		 s->fab->info->domain_attr->name : "?");
	swap_addrs(f, c, &me, &mine);
}

static int fab_open(struct sw_engine *e, struct sw_ctx *c)
{
	struct sw_fab *f = e->state;

	f->c = c;
	pick_provider(f, c);
	if (sw_fab_pick_device(f, c) != 0)
		return CXD_EXIT_USAGE;
	open_fabric(f, c);
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
	s->run = d->lat ? &f->c->lat_run : &f->c->bw_run;
	f->round = d->round;
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

void sw_engine_fabric(struct sw_engine *e, const struct sw_mpi *m)
{
	struct sw_fab *f = sw_alloc(m, 1, sizeof(*f));

	f->bw_tool = cxd_tool_find("cxi_write_bw");
	f->lat_tool = cxd_tool_find("cxi_write_lat");
	f->read_tool = cxd_tool_find("cxi_read_bw");
	f->partner = -1;
	f->role = "";
	f->s.via = &sw_peer_mpi; /* a pair's partner, over MPI */
	f->s.via_arg = f;
	*e = (struct sw_engine){
		.name = "fabric", .check = NULL, .open = fab_open,
		.measure = fab_measure, .why = fab_why,
		.close = fab_close, .progress = sw_fab_progress,
		.plan_counters = fab_plan_counters,
		.tclass_note = fab_tclass_note, .version = fab_version,
		.aggress = sw_fab_aggress, .state = f,
	};
}

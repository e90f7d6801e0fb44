/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the pacing's state, the main plan's mode and the choice of
 * schedule (routed, where the file's link lines give the routes: rank
 * 0's plan), and its narrowing (pace_mpi.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <mpi.h>

#include "sweep/model/route.h"
#include "sweep/sched/sched_routed.h"
#include "pace_mpi.h"

void sw_pacing_init(struct sw_pacing *p, const struct sw_ctx *c)
{
	*p = (struct sw_pacing){ .pairs_at_once = c->hosts.pairs_at_once };
}

struct sw_pace_mode sw_pace_mode_at(int what, int n)
{
	return (struct sw_pace_mode){ .what = what, .pairs_at_once = n };
}

struct sw_pace_mode sw_pace_mode_main(const struct sw_pacing *p, int what)
{
	return sw_pace_mode_at(what, p->pairs_at_once);
}

void sw_pacing_free(struct sw_pacing *p)
{
	cxd_sched_free(&p->routed);
	free(p->round_s);
	p->round_s = NULL;
}

/* Rank 0, where the file has link lines: the routed plan of every pair
 * (0), else nonzero (the schedule stays the one chosen from the
 * placement). */
static int routed_plan(struct sw_pacing *p, const struct sw_ctx *c,
		       struct cxd_routed_facts *f)
{
	const struct cxd_topo_map *tm = &c->place;
	struct cxd_routes rt = { 0 };
	int ret;

	if (tm->nlink <= 0 || tm->link == NULL)
		return -EINVAL;
	ret = cxd_routes_build(tm, c->m.n, &rt);
	if (ret == 0)
		ret = cxd_sched_routed(tm, &rt, c->m.n, c->width,
				       p->pairs_at_once, &p->routed, f);
	cxd_routes_free(&rt);
	if (ret == -ENOMEM)
		sw_die(&c->m, "out of memory");
	return ret;
}

/* Shared links and routes known (rank 0 has the link lines): the
 * bandwidth pass routed, every rank told so. */
static void route(struct sw_pacing *p, const struct sw_ctx *c)
{
	struct cxd_routed_facts f = { .busiest = -1 };
	int ok = 0;

	if (!cxd_sched_routable(&p->sched))
		return;
	if (c->m.rank == 0)
		ok = routed_plan(p, c, &f) == 0;
	sw_bcast(&c->m, &ok, 1, MPI_INT, "the routed schedule");
	if (ok)
		cxd_sched_route(&p->sched, &f, c->m.rank == 0 &&
				f.busiest >= 0 ?
				c->place.link[f.busiest].line : 0);
}

/* The schedule (lib/sweep/sched/sched_choose.c says which and why): with
 * shared links, the domains whose pairs take turns, and with groups of
 * several switches each rank's switch too. */
void sw_pacing_choose(struct sw_pacing *p, const struct sw_ctx *c,
		      const struct cxd_plan *pl)
{
	const struct cxd_topo_map *tm = &c->place;

	p->round_s = sw_alloc(&c->m, (size_t) pl->nrounds, sizeof(double));
	p->sched = cxd_sched_choose(c->m.n, p->pairs_at_once, tm,
				    c->width[CXD_TOPO_W_LOCAL],
				    c->width[CXD_TOPO_W_UPLINK]);
	p->shared = p->sched.kind == CXD_SCHED_ROUNDS ? NULL :
		    cxd_sched_domains(tm);
	/* kept for the schedule the routes stand in for (its fallback) */
	p->shared_sw = p->sched.kind == CXD_SCHED_NESTED ? tm->switch_of :
		       NULL;
	route(p, c);
}

void sw_pacing_timed(struct sw_pacing *p, double secs)
{
	p->sched.main_s = secs;
}

bool sw_pacing_narrow(struct sw_pacing *p, double crowd)
{
	if (p->shared == NULL || !isfinite(crowd))
		return false;
	return cxd_sched_narrow(&p->sched, crowd);
}

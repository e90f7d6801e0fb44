/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the pacing's state, the main plan's mode and the choice of
 * schedule, and its narrowing (pace_mpi.h). */
#include <math.h>
#include <stdlib.h>

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
	free(p->round_s);
	p->round_s = NULL;
}

/* The schedule (lib/sweep/sched/sched_choose.c says which and why): with
 * shared links, the domains whose pairs take turns, and with groups of
 * several switches each rank's switch too. */
void sw_pacing_choose(struct sw_pacing *p, const struct sw_ctx *c,
		      const struct cxd_plan *pl)
{
	const struct cxd_topo_map *tm = &c->place;
	/* the link lines are rank 0's; a stated uplink width is the site's
	 * word that its routing spreads a leaf's pairs so */
	int cables = c->m.rank == 0 && !c->width_stated[CXD_TOPO_W_UPLINK] ?
		     cxd_sched_uplink_cables(tm) : 0;

	p->round_s = sw_alloc(&c->m, (size_t) pl->nrounds, sizeof(double));
	sw_bcast(&c->m, &cables, 1, MPI_INT, "the uplinks' cables");
	p->sched = cxd_sched_choose(c->m.n, p->pairs_at_once, tm,
				    c->width[CXD_TOPO_W_LOCAL],
				    c->width[CXD_TOPO_W_UPLINK]);
	cxd_sched_cap_cables(&p->sched, cables);
	p->shared = p->sched.kind == CXD_SCHED_ROUNDS ? NULL :
		    cxd_sched_domains(tm);
	p->shared_sw = p->sched.kind == CXD_SCHED_NESTED ? tm->switch_of :
		       NULL;
}

bool sw_pacing_narrow(struct sw_pacing *p, double crowd)
{
	if (p->shared == NULL || !isfinite(crowd))
		return false;
	return cxd_sched_narrow(&p->sched, crowd);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the pacing's state, the main plan's mode and the choice of
 * schedule, and its narrowing (pace_mpi.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pace_mpi.h"
#include "sweep/sched/sched_dealt.h"

static void drop_routed(struct sw_pacing *p)
{
	if (p->routed)
		cxd_routed_free(p->routed);
	free(p->routed);
	p->routed = NULL;
}

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
	drop_routed(p);
}

/* The dealt bandwidth pass's plans (p->sched chose it, lib/sweep/sched/
 * sched_choose.c) at k pairs at once: nested where groups hold several
 * switches (p->shared_sw), whose switch pairs share a few links: the
 * pairs within groups dealt by switch (in), then those across groups by
 * group (out; cxd_sched_dealt_within, _across); else out alone. 0, or
 * the error. */
int sw_pacing_dealt(const struct sw_ctx *c, const struct sw_pacing *p, int k,
		    struct cxd_plan *in, struct cxd_plan *out)
{
	bool nested = p->sched.kind == CXD_SCHED_NESTED;
	int n = c->m.n, cap = cxd_sched_cap(&p->sched);
	int ret = nested ? cxd_sched_dealt_within(n, p->shared_sw, p->shared,
						  k, in) : 0;

	if (ret == 0)
		ret = nested ? cxd_sched_dealt_across(n, p->shared, k, cap,
						      out) :
		      cxd_sched_dealt_capped(n, p->shared, k, cap, out);
	return ret;
}

/* The slots of the dealt pass p->sched chose, at k pairs at once; -1:
 * none (not dealt, or not made). */
static int dealt_rounds(const struct sw_ctx *c, const struct sw_pacing *p,
			int k)
{
	struct cxd_plan in = { .ops = NULL }, out = { .ops = NULL };
	int n = -1;

	if ((p->sched.kind == CXD_SCHED_NESTED ||
	     p->sched.kind == CXD_SCHED_DEALT) &&
	    sw_pacing_dealt(c, p, k, &in, &out) == 0)
		n = (in.ops ? in.nrounds : 0) + out.nrounds;
	cxd_sched_free(&in);
	cxd_sched_free(&out);
	return n;
}

/* The routed pass's rounds against the dealt plan's slots where it is
 * chosen: a round ends at a barrier, and slots overlap where a group's
 * chain runs ahead. Simulated at 512 ranks, bundles of 9 landing on
 * every switch: 28,747 rounds took 5.28 s where 31,551 slots took
 * about 5.2. */
#define SW_ROUTED_GAIN 0.8

/* Rank 0, with link lines: the full sweep's bandwidth pass packed by
 * its routes where that takes a fifth fewer rounds than the dealt
 * plan's slots (p->routed holds it; the others are told its figures). */
static void choose_routed(struct sw_pacing *p, const struct sw_ctx *c,
			  const struct cxd_plan *pl)
{
	struct cxd_sched_choice *ch = &p->sched;
	int say[4] = { 0, 0, 0, 0 };

	if (!cxd_sched_sweep(pl) || (ch->kind != CXD_SCHED_NESTED &&
				     ch->kind != CXD_SCHED_DEALT))
		return;
	if (c->m.rank == 0 && c->place.link) {
		double t0 = cxd_cpu_s();

		p->routed = sw_alloc(&c->m, 1, sizeof(*p->routed));
		if (cxd_routed_build(c->m.n, &c->place, p->pairs_at_once,
				     p->routed) == 0) {
			ch->routed_cpu_s = cxd_cpu_s() - t0;
			say[1] = p->routed->nround;
			say[2] = p->routed->bound;
			say[3] = dealt_rounds(c, p, p->pairs_at_once);
			say[0] = say[3] < 0 ||
				 say[1] < SW_ROUTED_GAIN * say[3];
		}
		if (!say[0])
			drop_routed(p);
	}
	sw_bcast(&c->m, say, 4, MPI_INT, "the routed plan's figures");
	ch->routed = say[0];
	ch->routed_rounds = say[1];
	ch->routed_bound = say[2];
	ch->dealt_rounds = say[3];
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
	choose_routed(p, c, pl);
}

bool sw_pacing_narrow(struct sw_pacing *p, double crowd)
{
	if (p->shared == NULL || !isfinite(crowd))
		return false;
	if (!cxd_sched_narrow(&p->sched, crowd))
		return false;
	if (!p->sched.routed)
		drop_routed(p);
	return true;
}

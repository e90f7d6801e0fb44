/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which schedule the sweep's rounds follow, and why (sched_choose.c),
 * pure: the choice is a kind, a reason code and the facts its words
 * need; the words are the text writer's (out_sched.c), so the pacing
 * (tools/sweep/pace/pace_schedule.c) and the report read one choice.
 */
#ifndef CXD_SWEEP_SCHED_CHOOSE_H
#define CXD_SWEEP_SCHED_CHOOSE_H

#include <stdbool.h>

#include "sweep/model/topo_types.h"

/* How the bandwidth pass runs. */
enum cxd_sched_kind {
	CXD_SCHED_ROUNDS,  /* plain rounds, both metrics at once */
	/* Shared links (latency in full rounds first): */
	CXD_SCHED_NESTED,  /* within groups by switch, then across, dealt */
	CXD_SCHED_DEALT,   /* dealt into slots by domain pair */
	CXD_SCHED_CHAINED, /* the rounds chained by domain pair */
};

/* Why: one code per sentence of the report. */
enum cxd_sched_why {
	CXD_SCHED_WHY_NONE,       /* nothing chosen (yet) */
	CXD_SCHED_WHY_ONE_PAIR,   /* rounds: one pair at a time */
	CXD_SCHED_WHY_NO_TOPO,    /* rounds: who shares links unknown */
	CXD_SCHED_WHY_ONE_DOM,    /* rounds: one domain shares nothing */
	CXD_SCHED_WHY_MANY_DOMS,  /* rounds: too many domain pairs to track */
	CXD_SCHED_WHY_NESTED,     /* groups of several switches */
	CXD_SCHED_WHY_DEALT,      /* dealing pays */
	/* Chained, not dealt (cxd_sched_undealt's reasons): */
	CXD_SCHED_WHY_UNDEALT_ROUND,  /* fewer pairs at once than a round */
	CXD_SCHED_WHY_UNDEALT_PLACE,  /* some ranks not placed */
	CXD_SCHED_WHY_UNDEALT_MANY,   /* over 40,000 domains, or ranks in one */
	CXD_SCHED_WHY_UNDEALT_ONE,    /* one domain */
};

/* The cap halves each time from at most an int: 31 times. */
#define CXD_SCHED_NARROW_MAX 32

/* One narrowing: the pairs across at once per domain were `was`, the
 * links measured alone came crowd faster (median ratio - 1), now cap. */
struct cxd_sched_narrow {
	int was, cap;
	double crowd;
};

struct cxd_sched_choice {
	enum cxd_sched_kind kind;
	enum cxd_sched_why why;
	/* The facts the words need: the domains (groups, or switches
	 * without groups), the switches, and a domain's pairs across at
	 * once as chosen (0: no bound). */
	int nd, nswitch;
	bool groups;
	int cap;
	/* cap is the narrowest uplink's cables (ecmp link lines): the
	 * hash may put all of a leaf's pairs on it */
	bool cap_links;
	/* The bandwidth pass packed by the routes instead (rank 0 packs
	 * it from its link lines: sched_routed.h) where that takes fewer
	 * rounds than the dealt plan's slots: its rounds and their bound;
	 * dropped when the calibration found its pairs crowded (alone
	 * faster by routed_crowd), the dealt plan then measuring again. */
	bool routed, routed_dropped;
	int routed_rounds, routed_bound, dealt_rounds;
	double routed_crowd;
	/* Rank 0, after the pass: its seconds and the median round's
	 * longest pair (sched_routed.h's pass_s, pair_s). */
	double routed_s, routed_pair_s;
	double routed_cpu_s; /* rank 0's packing */
	/* The narrowings since (sw_narrow), in order. */
	int nnarrow;
	struct cxd_sched_narrow narrow[CXD_SCHED_NARROW_MAX];
};

/*
 * The schedule for n ranks at pairs_at_once on placement tm (switch_of
 * NULL: no --topology); local_w, uplink_w: the pairs one switch pair's
 * links, one leaf's uplinks carry at once (0: unknown). With shared
 * links the domains are tm's groups, or its switches without groups.
 */
struct cxd_sched_choice cxd_sched_choose(int n, int pairs_at_once,
					 const struct cxd_topo_map *tm,
					 int local_w, int uplink_w);
/* The fewest cables of one link line from a switch holding ranks (a
 * leaf) where tm's routes are ecmp, 0: none known (no link lines: other
 * ranks than 0 have none, so rank 0 asks and tells). */
int cxd_sched_uplink_cables(const struct cxd_topo_map *tm);
/* A leaf's pairs at once (ch's cap, without groups) at most cables: the
 * hash may put them all on its narrowest uplink. */
void cxd_sched_cap_cables(struct cxd_sched_choice *ch, int cables);
/* The shared-links schedule's domains per rank on tm. */
const int *cxd_sched_domains(const struct cxd_topo_map *tm);
/* A domain's pairs across at once now (the latest narrowing's). */
int cxd_sched_cap(const struct cxd_sched_choice *ch);
/* Crowded across by crowd: the routed pass dropped for the dealt one at
 * its cap; else fewer pairs at once across (half; with no bound yet,
 * half of all the other domains), kept as a narrowing; false when no
 * fewer are possible, or the schedule is chained (it has no cap per
 * domain to lower). */
bool cxd_sched_narrow(struct cxd_sched_choice *ch, double crowd);

#endif

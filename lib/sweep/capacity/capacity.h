/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's capacity pass, pure (capacity.c plans it, capacity_judge.c
 * judges it; tools/sweep/phases/capacity_mpi.c runs it). A bundle of global
 * links, a switch's links to another switch of its group or a leaf's
 * uplinks lose capacity when some of their cables or ports are down, but
 * one pair still runs at full rate over the ones left: the main sweep,
 * one pair per shared link at a time, cannot see it. So each such unit
 * is loaded with more pairs than it should carry (its width), which
 * makes its aggregate its capacity rather than the load's, and units of
 * a kind are set against each other (or against the stated width).
 */
#ifndef CXD_SWEEP_CAPACITY_H
#define CXD_SWEEP_CAPACITY_H

#include <stdbool.h>

#include "sweep/judge/suspect_types.h"
#include "sweep/model/topo_types.h"

/* The most pairs on one unit: a Slingshot bundle or switch connection
 * of 1-4 links overloaded by one, few enough to cost little. */
#define CXD_CAP_LOAD 8
/* Each round measured this many times, the larger aggregate kept: noise
 * (a stalled host, cross traffic) only lowers what a link carries. */
#define CXD_CAP_REPS 2
/* Leaves: each against this many others (circle rounds), so that one
 * bad partner cannot name a good leaf (the median of its units). */
#define CXD_CAP_LEAF_ROUNDS 3

struct cxd_cap_model;

/* What a unit is (a pair of parts) and what its parts are. */
enum cxd_cap_scope {
	CXD_CAP_BUNDLE,   /* two groups: the global links between them */
	CXD_CAP_SWITCHES, /* two switches of a group: the links between */
	CXD_CAP_LEAVES,   /* two leaves (no groups): their uplinks */
	CXD_CAP_SCOPES
};

/* needs links: short, but the fabric's routes are unknown (no link
 * lines in --topology): the unit's own links or others on its pairs'
 * ways may be the narrow ones, which only routes could tell. */
/* alone: a leaf pair short while neither leaf is short in most of its
 * units: which spine a pair takes is a hash, and a few pairs may meet
 * on few spines; a leaf that lost uplinks is short against every leaf
 * it meets. */
/* cleared: short, then not when loaded again from other hosts (a
 * collision of the first load's pairs, not the unit's links). */
/* one way: a leaf pair short, but full one way: a fat tree's hash by
 * destination puts the traffic into a leaf on few of its uplinks where
 * the job's hosts there fall in few of its classes (d-mod-k on a job's
 * even hosts), while the traffic out of it, spread by the other leaf's
 * hosts, runs in full; uplinks down slow it both ways. (Not so for a
 * bundle: a dragonfly's hash by destination switch may spare one way
 * the links down, so a bundle short one way is short.) */
enum cxd_cap_state { CXD_CAP_OK, CXD_CAP_SHORT, CXD_CAP_UNSURE,
		     CXD_CAP_SKIPPED, CXD_CAP_NEEDS_LINKS, CXD_CAP_ALONE,
		     CXD_CAP_CLEARED, CXD_CAP_ONE_WAY, CXD_CAP_UNPROVEN };

struct cxd_cap_unit {
	enum cxd_cap_scope scope;
	int a, b;              /* groups or switches, a < b */
	int round;
	int np;                /* pairs loaded; < 2: skipped */
	/* each repeat's ranks (p[rep][i].a on part a), which it pairs its
	 * own way (cxd_cap_pair) */
	struct cxd_pair p[CXD_CAP_REPS][CXD_CAP_LOAD];
	/* Rank 0, once judged: MB/s carried at once (the larger of the
	 * repeats, each the sum over its pairs of the slower direction),
	 * what it should carry, their ratio and the state. */
	double carried, expected, ratio;
	/* the model's median draw (0: no model), for the JSON: its
	 * expected is a low draw, and how far the two lie shows how much
	 * the hash may cost the unit */
	double mid;
	double one_way;        /* the better direction's aggregate */
	double busy;           /* its runs' longest share waiting for a CPU */
	enum cxd_cap_state state;
	bool named;            /* short and named for its parts */
};

/* One scope's figures: what loads it and what it should carry. */
struct cxd_cap_class {
	bool present;
	int width;             /* pairs at full rate across it; 0 unknown */
	bool stated;           /* from the topology file */
	int load;              /* pairs loaded: width + 1, capped */
	int units, first_round, nrounds;
	double expected;       /* typical unit, MB/s (rank 0) */
	/* A unit carrying less than bound x its expected is short: the
	 * bandwidth tolerance, or half a pair's worth of its width when
	 * wider (a cable down takes a whole pair's; less is the aggregate's
	 * own loss, flows that end unevenly or queue). */
	double bound;
	bool from_width;       /* stated width x the typical pair */
	/* A typical pair of the scope's class of link (lclass.h: across
	 * groups or leaves, within a group), MB/s; NAN or 0: the run's
	 * typical pair stands in. Set by the caller before the judging: a
	 * pair across groups crosses more hops, and on a simulated
	 * dragonfly ran 13 % under the run's typical one, so a bundle
	 * stated at 48 pairs and loaded with 8 was "short" at 87 %. */
	double pair;
	/* each unit's expected is the routes' model's (its own pairs'
	 * ways), not the typical unit's */
	bool from_model;
	/* stated, and each unit's expected the lower of the width's and
	 * the model's at the stated rates (capacity_stated.c) */
	bool width_routes;
	char why[96];          /* present but not run: why */
};

struct cxd_cap_plan {
	int nunits, nrounds;
	int nparts[CXD_CAP_SCOPES]; /* groups, switches, switches */
	struct cxd_cap_unit *unit; /* round by round */
	struct cxd_cap_class cls[CXD_CAP_SCOPES];
};

/* Class cl's pair, MB/s: its own (cl->pair) where it is a figure, else
 * the run's typical pair (capacity_stated.c). */
double cxd_cap_class_pair(const struct cxd_cap_class *cl, double pair);
/* The width each scope's load comes from (topo_types.h's kinds). */
enum cxd_topo_wkind cxd_cap_width_kind(enum cxd_cap_scope s);

/*
 * The plan for n ranks on the placement tm (r: their hosts and NICs):
 * with groups, every group pair (circle rounds over the groups), then
 * every switch pair inside each group (circle rounds over each group's
 * switches, all groups at once); without groups, every switch is a leaf
 * and meets CXD_CAP_LEAF_ROUNDS others, as w asks (below). 0, -ENOMEM.
 */
struct cxd_cap_want {
	/* Ranks with skip[i] set take no part (their NIC is named
	 * already; NULL: none) nor units with skip_pair[a * parts + b]
	 * set (a bundle or leaf pair named already; cxd_cap_skip_parts). */
	const bool *skip, *skip_pair;
	/* per topo kind; a scope whose width is unknown is present but
	 * not run (why says) */
	const int *width;
	const bool *stated;
	int max_at_once;       /* the most pairs a round holds */
	/* 1: the load again, from other hosts of each part where it has
	 * them (a short unit confirmed before it is named); 0: first */
	int reload;
};
int cxd_cap_plan(const struct cxd_topo_map *tm,
		 const struct cxd_sweep_rank *r, int n,
		 const struct cxd_cap_want *w, struct cxd_cap_plan *pl);
void cxd_cap_plan_free(struct cxd_cap_plan *pl);

/* Pair i of unit u in repeat rep: its a end with the b end rep places
 * on (rotated), each repeat with its own hosts where the parts have
 * them, so that the repeats load the unit's links along other paths:
 * where pairs meet on a group's own links on their way to a bundle
 * depends on where its global links land, and on a fat tree's uplinks
 * on how it hashes destinations, which no topology says; a collision
 * there is not the unit's. */
struct cxd_pair cxd_cap_pair(const struct cxd_cap_unit *u, int rep, int i);

/* A unit's figures: fig[(u * CXD_CAP_LOAD + i) * 2 * CXD_CAP_REPS +
 * rep * 2 + dir], MB/s, of cxd_cap_pair(u, rep, i); dir 0: from its a
 * end; <= 0 or NAN: none. */
#define CXD_CAP_FIG(u, i, rep, dir) \
	((((size_t) (u) * CXD_CAP_LOAD + (size_t) (i)) * CXD_CAP_REPS + \
	  (size_t) (rep)) * 2 + (size_t) (dir))
#define CXD_CAP_NFIG(nunits) CXD_CAP_FIG(nunits, 0, 0, 0)

/* A capacity suspect: a unit, or a part most of whose units are short. */
struct cxd_cap_found {
	enum cxd_cap_scope scope;
	bool part;             /* one part (a group, switch, leaf), id a */
	int a, b;
	int pairs;
	int units, nshort;     /* a part: its units, and those short */
	double carried, expected, ratio; /* a part: its units' medians */
};

/* What the judging makes of the plan's figures. */
struct cxd_cap_res {
	const struct cxd_cap_plan *plan;
	bool ran;
	char why[128];         /* not run: why */
	double seconds;
	struct cxd_cap_found *found;
	int nfound, nunsure;
	int nneeds; /* units short where only routes could tell */
	int nunproven; /* short once, a reload that could not load as much */
};

/*
 * Judge every unit of pl from its figures (CXD_CAP_FIG): carried; the
 * expected from the stated width x pair_mb_s (the run's typical pair)
 * or else the median of the scope's units; short below its class's
 * bound (1 - tol, or less by half a pair of its width),
 * unsure instead where the tolerance is poor or one of its runs waited
 * for a CPU more than CXD_JUDGE_BUSY_MAX of its time beyond the typical
 * unit's busiest run (busy: the share of each run, laid out as fig;
 * NULL: none known). With model (capacity_model.h: the fabric's
 * routes) a unit's expected is the model's, from the rates fitted to
 * all units; without (no link lines in --topology)
 * a short unit needs links instead: never named, the verdict stays
 * inconclusive. Then the parts most of whose units (and at least 2) are
 * short, and the short units none of them covers, into res (found
 * allocated). 0, -ENOMEM.
 */
int cxd_cap_judge(struct cxd_cap_plan *pl, const double *fig,
		  const double *busy, double pair_mb_s, double tol, bool poor,
		  const struct cxd_cap_model *model, struct cxd_cap_res *res);
/* A short unit of pl (or one short that needs links) is confirmed by
 * the same unit of again, the load from other hosts (cxd_cap_want's
 * reload), judged the same way: short there too, it stays; at full
 * capacity there, it is cleared; not judged there (a busy host), it
 * cannot be vouched for either way (unsure). Then res's suspects are
 * named again. 0, -ENOMEM. */
int cxd_cap_confirm(struct cxd_cap_plan *pl, const struct cxd_cap_plan *again,
		    struct cxd_cap_res *res);
/* Does pl hold a unit a reload could confirm or clear? */
bool cxd_cap_to_confirm(const struct cxd_cap_plan *pl);
void cxd_cap_res_free(struct cxd_cap_res *res);

/* Suspect s, named before the pass, sets in skip_pair (its parts
 * squared, cxd_cap_skip_parts: ngroup, or nswitch without groups; g < h
 * at g * parts + h) the units whose shortfall it may explain, for it
 * and each component alike with it: a bundle, the bundle of a link, a
 * group's bundles, and a switch's: those with a link on it, or (no link
 * lines) every bundle of its group. Without groups, the leaf pairs: a
 * leaf's, and a spine's (every pair of leaves with links to it). n:
 * ranks (tm places them). */
int cxd_cap_skip_parts(const struct cxd_topo_map *tm);
void cxd_cap_skip_named(const struct cxd_topo_map *tm, int n,
			const struct cxd_suspect *s, char *skip_pair);

/* Words: a scope's and a part's JSON names ("bundle", "group"). */
const char *cxd_cap_scope_name(enum cxd_cap_scope s, bool part);

#endif

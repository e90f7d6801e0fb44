/* SPDX-License-Identifier: BSD-3-Clause */
/* The types the suspects are named with and from (judge_suspects.h,
 * judge_cover.h): a suspect, the counts (the placement is the model's,
 * topo_types.h). */
#ifndef CXD_SWEEP_SUSPECT_TYPES_H
#define CXD_SWEEP_SUSPECT_TYPES_H

#include <stdbool.h>

#include "judge_kinds.h"
#include "sweep/model/pairs.h"
#include "sweep/model/topo_types.h"

/* Most components another suspect cannot be told apart from (below). */
#define CXD_SUSPECT_ALIKE 15

/* A component whose links cross exactly the measured pairs a suspect's
 * cross (a rank alone on its switch and that switch; a switch that is
 * its whole group; a group's links when one other group holds the rest
 * and the bundle between them): no measurement can say which is at
 * fault. The suspect is the most specific of them (fewest ranks). */
/* Which of a switch's links a switch suspect means. A slow switch shows
 * only where its links are too narrow to hide it (a gateway's global
 * links at 2/3 while its lanes inside the group still carry a pair at
 * full rate), so over the routes a switch is also a component by the
 * kind of its links. */
enum cxd_switch_links {
	CXD_SWL_ALL = -1,   /* every link of it (as id2 of any other kind) */
	CXD_SWL_GLOBAL = 1, /* its links to other groups */
	CXD_SWL_LOCAL = 2,  /* its links to switches of its own group */
};

struct cxd_alike {
	enum cxd_suspect_kind kind;
	int id, id2; /* as a suspect's */
};

struct cxd_suspect {
	enum cxd_suspect_kind kind;
	enum cxd_metric metric;
	int id;          /* rank, or switch/group index in the topology */
	int bad, links;  /* out of the links it carries */
	int bad_in, in;  /* switch/group: links inside it */
	int id2;         /* a bundle: the links between groups id and id2;
			  * a switch: which of its links (cxd_switch_links) */
	/* A set or bundle: ranks named for their NIC, whose links are left
	 * out of bad, links, bad_in and in (explained already). */
	int aside;
	int nalike;      /* the components it cannot be told apart from */
	struct cxd_alike alike[CXD_SUSPECT_ALIKE];
	int more_alike;  /* those beyond CXD_SUSPECT_ALIKE, counted only */
	int cap;         /* capacity: its finding in the result's cap */
	/* named over the routes (judge_route.c): bad and links count the
	 * pairs whose ways cross it, transit included */
	bool routed;
	/* named as a way some of its bad pairs may take, none for sure (a
	 * fat tree's spine: the hash unknown; judge_budget_ways.c): bad
	 * and links count the pairs that may cross it */
	bool maybe;
	/* named by the latency fit (judge_lat.h): the us it adds to each
	 * of its pairs beyond its kind; 0: not named so */
	double lat_excess;
	/* and the bound it was beyond (its own: the noise is relative, so
	 * a rank whose pairs are slower by design gets a wider one) */
	double lat_bound;
};

/* The sweep result's section of suspects (out_types.h), in the order
 * the outputs list them. */
struct cxd_sweep_suspects {
	const struct cxd_suspect *list;
	size_t n;
};

/*
 * What the suspects are named from: outlying links counted per rank (at
 * both ends; those to its own switch and its own group apart) and
 * between switches. Small enough to sum over ranks (3n + nswitch^2 per
 * metric), where the outliers are not.
 */
struct cxd_tally {
	int n, nswitch, ngroup;
	int *rank[2];      /* per metric: outliers with rank r at either end */
	int *mate[2];      /* of those, to a rank on r's switch */
	int *kin[2];       /* to a rank in r's group (its switch's too) */
	int *by_switch[2]; /* nswitch^2: from switch a to switch b */
};

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The suspect kinds' table (judge_kinds.h). */
#include <stddef.h>

#include "judge_kinds.h"
#include "suspect_types.h"

static const struct cxd_suspect_row rows[CXD_S_KINDS] = {
	[CXD_S_RANK] = {
		.name = "rank", .shape = CXD_SHAPE_RANK, .drain = true,
		.where = "",
		.advice = ": suspect its NIC, cable or switch port",
		.evidence = true,
	},
	[CXD_S_SWITCH] = {
		.name = "switch", .shape = CXD_SHAPE_SET,
		.level = CXD_LEVEL_SWITCH, .drain = true,
		.where = "leaving it ", .inside = true,
		.advice = ": suspect the switch's uplinks",
		.advice_inside = ": suspect the switch itself",
	},
	/* Most links inside it out: its switch is meant (the words are
	 * the switch's, as ever). */
	[CXD_S_GROUP] = {
		.name = "group", .shape = CXD_SHAPE_SET,
		.level = CXD_LEVEL_GROUP, .drain = true,
		.where = "leaving it ", .inside = true,
		.advice = ": suspect the group's global links",
		.advice_inside = ": suspect the switch itself",
	},
	[CXD_S_FABRIC] = {
		.name = "fabric", .title = "the whole fabric",
		.shape = CXD_SHAPE_ALL,
		.where = "",
		.advice = ", on most ranks: a change everywhere (firmware, "
			  "settings, cabling), not one node",
	},
	[CXD_S_BUNDLE] = {
		.name = "bundle",
		.title = "the links between groups",
		.shape = CXD_SHAPE_PAIR,
		.level = CXD_LEVEL_GROUP,
		.where = "between them ",
		.advice = ": suspect the global links between the two groups "
			  "(a cable, a port or their routing), not a node",
	},
	/* Short of capacity, every pair at full rate alone: links down
	 * behind the redundancy, no node to drain. */
	[CXD_S_CAPACITY] = {
		.name = "capacity", .shape = CXD_SHAPE_CAP,
		.where = "",
		.advice = ": suspect links down there (a cable, a port, a "
			  "link's settings), not a node",
	},
	/* A link line of --topology: found from the routes (judge_route.c). */
	[CXD_S_LINK] = {
		.name = "link",
		.title = "the links between switches",
		.shape = CXD_SHAPE_PAIR,
		.level = CXD_LEVEL_SWITCH,
		.where = "crossing them ",
		.advice = ": suspect the cables between the two switches (a "
			  "cable, a port, a link's settings), not a node",
	},
};

const struct cxd_suspect_row *cxd_judge_kind(enum cxd_suspect_kind k)
{
	return &rows[k];
}

const char *cxd_judge_switch_links(int id2)
{
	return id2 == CXD_SWL_GLOBAL ? "its links to other groups" :
	       id2 == CXD_SWL_LOCAL ? "its links inside its group" : NULL;
}

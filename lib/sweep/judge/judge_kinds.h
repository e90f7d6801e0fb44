/* SPDX-License-Identifier: BSD-3-Clause */
/* The suspect kinds' table (judge_kinds.c): one row per kind. */
#ifndef CXD_SWEEP_JUDGE_KINDS_H
#define CXD_SWEEP_JUDGE_KINDS_H

#include <stdbool.h>

/*
 * Suspects: a rank most of whose links are out (or a switch or group,
 * from --topology), the links between two groups (a bundle of global
 * links, from --topology), the links between two switches (a link
 * line of --topology), or the whole fabric. Their kinds, one row
 * each (judge_kinds.c): the JSON's name (the schema's enum), which ranks
 * a suspect stands for, and the words of the text report and the drain
 * reason. The writers read the row, never the kind; a new kind is a row
 * there and the logic that finds it (judge_suspects.c).
 */
enum cxd_suspect_kind { CXD_S_RANK, CXD_S_SWITCH, CXD_S_GROUP,
			CXD_S_FABRIC, CXD_S_BUNDLE, CXD_S_CAPACITY,
			CXD_S_LINK, CXD_S_KINDS };

/* What a suspect's id names, and so how it is named and which links
 * and ranks it explains. */
enum cxd_suspect_shape {
	CXD_SHAPE_RANK,  /* id: a rank */
	CXD_SHAPE_SET,   /* id: a set of ranks in the topology (level) */
	CXD_SHAPE_PAIR,  /* id, id2: two groups, the links between them */
	CXD_SHAPE_ALL,   /* every link, no one rank */
	/* cap: a finding of the capacity pass (capacity.h), which names
	 * no link and no rank: a unit or a part short of capacity */
	CXD_SHAPE_CAP,
};

/* Which index of the topology a set's id is (struct cxd_topo_map). */
enum cxd_suspect_level { CXD_LEVEL_NONE, CXD_LEVEL_SWITCH, CXD_LEVEL_GROUP };

struct cxd_suspect_row {
	const char *name;  /* the JSON's "kind"; a set's name starts with it */
	/* The name of all, or of a pair before "A and B" (its groups'
	 * names); NULL: a rank (its host) or a set (its name, its ranks). */
	const char *title;
	enum cxd_suspect_shape shape;
	enum cxd_suspect_level level;
	/* Its ranks are named: a drain line each in --suspects, in the
	 * JSON's "ranks", cxi_sweep_rank_suspect 1. */
	bool drain;
	/* The text's line: "NAME: B of L links " WHERE WHAT [", B of I
	 * inside it"] ADVICE; ADVICE_INSIDE instead when most links inside
	 * it are out (NULL: never). Evidence: the counters that moved on
	 * its rank follow. */
	const char *where;
	bool inside;
	const char *advice;
	const char *advice_inside;
	bool evidence;
};

/* The row of kind k (k < CXD_S_KINDS). */
const struct cxd_suspect_row *cxd_judge_kind(enum cxd_suspect_kind k);

/* The words for a switch suspect's links (id2, enum cxd_switch_links):
 * NULL for all of them. */
const char *cxd_judge_switch_links(int id2);

#endif

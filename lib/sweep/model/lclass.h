/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's classes of link, pure (lclass.c): what a pair's traffic
 * crosses besides its two NICs, as --topology places the ranks. Pairs of
 * one class share links alike (a switch pair inside a group, a bundle
 * between groups, a leaf's uplinks), so the calibration measures some of
 * each class alone and sets them against their rounds (calib.c).
 */
#ifndef CXD_SWEEP_LCLASS_H
#define CXD_SWEEP_LCLASS_H

#include "pairs.h"

enum cxd_lclass {
	CXD_LC_SWITCH,  /* both on one switch: nothing shared */
	CXD_LC_GROUP,   /* one group, two switches: their few links */
	CXD_LC_ACROSS,  /* two groups (or two switches, no groups) */
	CXD_LC_ANY,     /* not placed (no --topology) */
	CXD_LC_N
};

/* Pair (a, b)'s class; sw/grp: each rank's switch and group (NULL: not
 * known; grp NULL or -1: no groups). */
enum cxd_lclass cxd_lclass_of(const int *sw, const int *grp, int a, int b);
/* The class's words in the report: "on one switch", "within a group",
 * "across groups" or "across switches" (groups: whether there are). */
const char *cxd_lclass_name(enum cxd_lclass c, int groups);
/* The JSON key: "switch", "group", "across", "any". */
const char *cxd_lclass_key(enum cxd_lclass c);
/*
 * Up to per pairs of each class present, spread over the ranks, no rank
 * in two (the calibration measures them one at a time): into out (room
 * for CXD_LC_N * per), each pair's class into cls; returns the count.
 */
int cxd_lclass_sample(int n, const int *sw, const int *grp, int per,
		      struct cxd_pair *out, enum cxd_lclass *cls);

#endif

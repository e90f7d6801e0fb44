/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's retest alone per shared link (retest_claims.c), pure: the
 * links a retest pair may load, named by the domains that own them.
 * With no routing known the rule is conservative: a pair on one switch
 * loads no shared link; a pair of one group on two switches loads its
 * group's internal links; a pair across two groups loads both groups'
 * internal links and the bundle between them (a bundle is only ever
 * loaded with both its groups, so the two groups stand for it); without
 * groups (a fat tree, switches as leaves) a pair across two leaves loads
 * both leaves' uplinks.
 */
#ifndef CXD_SWEEP_RETEST_CLAIMS_H
#define CXD_SWEEP_RETEST_CLAIMS_H

#include "sweep/model/pairs.h"

/* A pair's claims at most. */
#define CXD_RETEST_CLAIMS 2

/*
 * Pair p's claims into key[] (domain indices: groups when group_of is
 * not NULL, else switches), returning their count (0: it shares
 * nothing), or -1 when a rank's switch or group is unknown (< 0): the
 * pair may then load any link and claims them all.
 */
int cxd_retest_claims(const int *switch_of, const int *group_of,
		      struct cxd_pair p, int key[CXD_RETEST_CLAIMS]);
/* How many claim keys n ranks' placement can name: the largest domain
 * index + 1. */
int cxd_retest_nkeys(int n, const int *switch_of, const int *group_of);

#endif

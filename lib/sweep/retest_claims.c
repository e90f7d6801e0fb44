/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest claims: which domains' links a pair may load
 * (retest_claims.h has the rule). */
#include "retest_claims.h"

int cxd_retest_claims(const int *switch_of, const int *group_of,
		      struct cxd_pair p, int key[CXD_RETEST_CLAIMS])
{
	int sa = switch_of[p.a], sb = switch_of[p.b];
	const int *dom = group_of ? group_of : switch_of;

	if (sa < 0 || sb < 0)
		return -1;
	if (sa == sb)
		return 0;
	if (dom[p.a] < 0 || dom[p.b] < 0)
		return -1;
	key[0] = dom[p.a];
	key[1] = dom[p.b];
	return key[0] == key[1] ? 1 : 2;
}

int cxd_retest_nkeys(int n, const int *switch_of, const int *group_of)
{
	const int *dom = group_of ? group_of : switch_of;
	int k = 0;

	for (int r = 0; r < n; r++)
		if (dom[r] >= k)
			k = dom[r] + 1;
	return k;
}

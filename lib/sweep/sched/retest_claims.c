/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest claims: which domains' links a pair may load
 * (retest_claims.h has the rule). */
#include "sweep/model/lclass.h"
#include "retest_claims.h"

int cxd_retest_claims(const int *switch_of, const int *group_of,
		      struct cxd_pair p, int key[CXD_RETEST_CLAIMS])
{
	const int *dom = group_of ? group_of : switch_of;

	/* The classes of link the calibration knows (lclass.h). */
	switch (cxd_lclass_of(switch_of, group_of, p.a, p.b)) {
	case CXD_LC_SWITCH:
		return 0;
	case CXD_LC_ANY:
		return -1;
	default:
		break;
	}
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

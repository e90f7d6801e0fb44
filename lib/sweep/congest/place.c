/* SPDX-License-Identifier: BSD-3-Clause */
/* The congestion mode's placement, with plain parameters (the MPI side:
 * tools/sweep/phases/congest_mpi.c). */
#include <string.h>

#include "place.h"

int cxd_place_turn_ranks(const int *victims, int nv, int per, int t, int *r)
{
	int k = 0;

	for (int i = 2 * t * per; i < nv && i < 2 * (t + 1) * per; i++)
		r[k++] = victims[i];
	return k;
}

int cxd_place_turn_of(const int *victims, int nv, int per, int rank)
{
	for (int i = 0; i < nv; i++)
		if (victims[i] == rank)
			return i / (2 * per);
	return -1;
}

bool cxd_place_crowded(const struct cxd_sweep_rank *ranks, int n, int rank,
		       long cpus)
{
	int here = 0;

	for (int i = 0; i < n; i++)
		here += strcmp(ranks[i].host, ranks[rank].host) == 0;
	return here > (cpus > 0 ? cpus : 1);
}

int cxd_place_nhosts(const struct cxd_sweep_rank *ranks, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int j = 0;

		while (strcmp(ranks[j].host, ranks[i].host) != 0)
			j++;
		k += j == i;
	}
	return k;
}

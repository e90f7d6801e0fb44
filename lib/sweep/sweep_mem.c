/* cxi_sweep: what a run holds in memory, by rank count (pure). */
#include <stdio.h>

#include "sweep.h"

/* The schedule every rank builds: n - 1 circle rounds (n when odd) of
 * n / 2 + 1 pair slots, 8 bytes each, cut into more rounds when fewer
 * pairs may run at once. */
static uint64_t plan_bytes(uint64_t n, uint64_t at_once)
{
	uint64_t half = n / 2 ? n / 2 : 1, per = at_once && at_once < half ?
						  at_once : half;
	uint64_t rounds = (n % 2 ? n : n - 1) * ((half + per - 1) / per);

	return rounds * ((n / 2 + 1) * 8 + 4 + 8 + 8 + 16);
}

uint64_t cxd_sweep_rank_bytes(int n, int pairs_at_once)
{
	uint64_t un = n > 0 ? (uint64_t) n : 0;

	return un * CXD_SWEEP_PER_PEER_BYTES +
	       plan_bytes(un, (uint64_t) (pairs_at_once > 0 ? pairs_at_once :
					  0));
}

uint64_t cxd_sweep_rank0_bytes(int n, int pairs_at_once, bool json)
{
	uint64_t nn = n > 0 ? (uint64_t) n * (uint64_t) n : 0;

	/* Five matrices gathered (medians, spreads, CPU waits), five more
	 * for the retest, and the JSON document's tree and text (four
	 * matrices), both whole in memory while written. */
	return cxd_sweep_rank_bytes(n, pairs_at_once) + 10 * 8 * nn +
	       (json ? 4 * CXD_SWEEP_JSON_VALUE_BYTES * nn : 0);
}

int cxd_sweep_mem_check(int n, int pairs_at_once, bool json, uint64_t avail,
			char *err, size_t errlen)
{
	uint64_t need = cxd_sweep_rank0_bytes(n, pairs_at_once, json);

	if (need <= avail)
		return 0;
	snprintf(err, errlen, "the sweep at %d ranks needs about %.1f GB on "
		 "rank 0 (the %d x %d matrices it gathers, judges and "
		 "retests%s), but rank 0's host has %.1f GB available: sweep "
		 "fewer ranks at a time (a switch group or a partition)%s", n,
		 (double) need / 1e9, n, n, json ? ", and the --json document" :
		 "", (double) avail / 1e9, json ? ", or leave out --json" : "");
	return -1;
}

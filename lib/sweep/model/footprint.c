/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: what a run holds in memory, by rank count (pure). */
#include <stdio.h>

#include "footprint.h"
#include "pairs.h"

/* Rounds as run: n - 1 circle rounds (n when odd) of n / 2 pairs, cut
 * into more rounds when fewer pairs may run at once. */
static uint64_t rounds(uint64_t n, uint64_t at_once)
{
	uint64_t half = n / 2 ? n / 2 : 1, per = at_once && at_once < half ?
						  at_once : half;

	return (n % 2 ? n : n - 1) * ((half + per - 1) / per);
}

/* Each rank computes its own steps (16 bytes each, one per circle
 * round) and times each round as run (8 bytes, twice). */
static uint64_t plan_bytes(uint64_t n, uint64_t at_once)
{
	return n * 16 + rounds(n, at_once) * 16;
}

/* --json lists every round's pairs: rank 0 builds the whole list. */
static uint64_t listed_bytes(uint64_t n, uint64_t at_once)
{
	return rounds(n, at_once) * 8 + n * (n / 2 + 1) * 8;
}

uint64_t cxd_footprint_rank(int n, int pairs_at_once)
{
	uint64_t un = n > 0 ? (uint64_t) n : 0;

	return un * CXD_SWEEP_PER_PEER_BYTES +
	       plan_bytes(un, (uint64_t) (pairs_at_once > 0 ? pairs_at_once :
					  0));
}

uint64_t cxd_footprint_rank0(int n, int pairs_at_once, unsigned what)
{
	uint64_t un = n > 0 ? (uint64_t) n : 0, nn = un * un, b;

	b = cxd_footprint_rank(n, pairs_at_once) +
	    un * CXD_SWEEP_RANK0_PER_RANK;
	if (what & CXD_MEM_LINKS) /* medians and spreads, both metrics */
		b += 4 * 8 * nn;
	if (what & CXD_MEM_JSON)
		b += 4 * CXD_SWEEP_JSON_VALUE_BYTES * nn +
		     listed_bytes(un, (uint64_t) (pairs_at_once > 0 ?
						  pairs_at_once : 0));
	if (what & (CXD_MEM_BASE_JSON | CXD_MEM_BASE_BIN)) /* read, matched */
		b += 4 * 8 * nn;
	if (what & CXD_MEM_BASE_JSON) /* its document, four matrices */
		b += 4 * CXD_SWEEP_JSON_VALUE_BYTES * nn;
	return b;
}

/* What holds the bulk of rank 0's share, in words. */
static const char *bulk(unsigned what)
{
	if (what & CXD_MEM_JSON)
		return "the --json document of every link";
	if (what & (CXD_MEM_BASE_JSON | CXD_MEM_BASE_BIN))
		return "the --baseline, read whole";
	if (what & CXD_MEM_LINKS)
		return "every link gathered for --csv or --metrics";
	return "a summary of each rank and the schedule";
}

int cxd_footprint_check(int n, int pairs_at_once, unsigned what,
			uint64_t avail, char *err, size_t errlen)
{
	uint64_t need = cxd_footprint_rank0(n, pairs_at_once, what);

	if (need <= avail)
		return 0;
	snprintf(err, errlen, "the sweep at %d ranks needs about %.1f GB on "
		 "rank 0 (%s), but rank 0's host has %.1f GB available: %s"
		 "sweep fewer ranks at a time (a switch group or a partition)",
		 n, (double) need / 1e9, bulk(what), (double) avail / 1e9,
		 what & (CXD_MEM_LINKS | CXD_MEM_BASE_JSON) ?
		 "write every link with --matrix FILE instead (each rank "
		 "writes its own rows; a --baseline may be one), or " : "");
	return -1;
}

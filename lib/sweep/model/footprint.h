/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's memory model (footprint.c): what a rank and rank 0 hold at n
 * ranks, checked before the sweep starts. */
#ifndef CXD_SWEEP_FOOTPRINT_H
#define CXD_SWEEP_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Memory at n ranks (footprint.c), in bytes. Every rank: per peer its
 * host, address and fabric address (CXD_SWEEP_PER_PEER_BYTES), plus its
 * own steps and the rounds' times (computed, never the whole schedule:
 * 32 bytes per circle round with whole rounds). Rank 0 besides:
 * a summary per rank (CXD_SWEEP_RANK0_PER_RANK: medians, noise, the worst
 * links, the outliers listed), and only for what lists every link:
 * --json, --csv and --metrics (up to 64 ranks) gather four n x n
 * matrices (--json's document, CXD_SWEEP_JSON_VALUE_BYTES per value,
 * four matrices: json-c's tree and text; measured at 256 ranks, 31 MB
 * more peak than without; and its list of every round's pairs, about
 * 4 n^2 bytes);
 * a --baseline is read whole (its matrices and their match to this run,
 * and a JSON one's document).
 */
#define CXD_SWEEP_PER_PEER_BYTES 1024
#define CXD_SWEEP_RANK0_PER_RANK 9216
#define CXD_SWEEP_JSON_VALUE_BYTES 240
enum {
	CXD_MEM_LINKS = 1,     /* --json, --csv, or --metrics up to 64 ranks */
	CXD_MEM_JSON = 2,      /* --json */
	CXD_MEM_BASE_JSON = 4, /* --baseline of a --json file */
	CXD_MEM_BASE_BIN = 8,  /* --baseline of a --matrix file */
};
uint64_t cxd_footprint_rank(int n, int pairs_at_once);
uint64_t cxd_footprint_rank0(int n, int pairs_at_once, unsigned what);
/* 0 when rank 0's share fits avail bytes; else -1 with err giving the
 * figures and the way out. */
int cxd_footprint_check(int n, int pairs_at_once, unsigned what,
			uint64_t avail, char *err, size_t errlen);

#endif

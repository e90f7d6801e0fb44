/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --baseline FILE: an earlier sweep's --json output. Each link is judged
 * against its own earlier figure, matched by host and NIC, or by fabric
 * address where host names repeat; never by rank number (ranks move
 * between launches).
 */
#ifndef CXD_SWEEP_BASELINE_H
#define CXD_SWEEP_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pairs.h"

#define CXD_BASE_NOTES 4

struct cxd_baseline {
	char path[256];
	char provider[CXD_NAME_LEN];
	uint64_t size;              /* bandwidth transfer size, bytes */
	int n;                      /* ranks in the file */
	struct cxd_sweep_rank *ranks;
	double *bw, *lat;           /* its n x n matrices */
	double tol[2];              /* its own tolerance (0: not recorded) */
	/* After matching against this run: */
	int *map;                   /* this run's rank -> the file's, or -1 */
	int matched;
	const char *by;             /* "host and NIC", "address", "mixed" */
	bool use[2];                /* metric comparable (provider, size) */
	char notes[CXD_BASE_NOTES][256]; /* what differs, in words */
	int nnotes;
};

/* Read the file; err names it (and what is wrong in it). */
int cxd_baseline_load(const char *path, struct cxd_baseline *b, char *err,
		      size_t len);
/* Match this run's n ranks, note what differs (provider, size, hosts),
 * and fill per-link references (n x n, NAN unmatched) for each metric
 * that can be compared (else the array is left NULL). */
int cxd_baseline_match(struct cxd_baseline *b, const struct cxd_sweep_rank *r,
		       int n, const char *provider, uint64_t size, double **bw,
		       double **lat);
void cxd_baseline_free(struct cxd_baseline *b);

#endif

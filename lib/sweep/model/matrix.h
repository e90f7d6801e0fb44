/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --matrix FILE: every link's figures at any scale, written by
 * the ranks themselves (each its own record and rows, with MPI-IO), read
 * back by cxi_plot and --baseline. Native byte order, checked by a mark
 * (every host these run on is little-endian):
 *
 *   0    "CXDSWMAT", u32 version (1), u32 0x01020304, u32 n, u32 0,
 *        u64 bandwidth transfer size, u64 repeats, f64 tolerance of
 *        bandwidth and of latency (relative), provider (64 bytes, NUL
 *        padded); 128 bytes in all
 *   128  n rank records of 512 bytes: host (256), address (160), NIC (64)
 *   then the n x n bandwidth matrix (f64, MB/s), row i = rank i's links
 *        to each rank (NaN: the diagonal, or not measured), then the
 *        latency matrix (f64, us)
 */
#ifndef CXD_SWEEP_MATRIX_H
#define CXD_SWEEP_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "pairs.h"

#define CXD_MATRIX_MAGIC "CXDSWMAT"
#define CXD_MATRIX_VERSION 1
#define CXD_MATRIX_HEAD 128
#define CXD_MATRIX_REC 512

struct cxd_matrix_head {
	int n;
	uint64_t size, repeat;
	double tol[2];
	char provider[64];
};

void cxd_matrix_put_head(const struct cxd_matrix_head *h, unsigned char *out);
/* 0, or -EINVAL with err saying what is wrong (not such a file, another
 * version or byte order). */
int cxd_matrix_get_head(const unsigned char *in, struct cxd_matrix_head *h,
			char *err, size_t len);
void cxd_matrix_put_rank(const struct cxd_sweep_rank *r, unsigned char *out);
void cxd_matrix_get_rank(const unsigned char *in, struct cxd_sweep_rank *r);
/* Byte offsets: rank i's record; row i of metric m (0 bw, 1 lat). */
uint64_t cxd_matrix_rank_off(int i);
uint64_t cxd_matrix_row_off(int n, int m, int i);
uint64_t cxd_matrix_bytes(int n);
/* Does the file start with the magic? */
int cxd_matrix_is(const char *path);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the tests that read --matrix files
 * (test_sweep_inputs.c, test_names.c): the head and the rank records
 * written the way cxi_sweep writes them, so that each test states only
 * what it changes. Static inline, with cmocka's asserts: the test
 * includes <cmocka.h> first.
 */
#ifndef CXD_TEST_MATRIX_FILE_H
#define CXD_TEST_MATRIX_FILE_H

#include <stdio.h>

#include "sweep/model/matrix.h"

/* path made anew holding h's head and the first n records of r (fewer
 * than h->n for a file cut short), open for the matrices that follow;
 * the caller closes it. */
static inline FILE *matrix_open(const char *path,
				const struct cxd_matrix_head *h,
				const struct cxd_sweep_rank *r, int n)
{
	unsigned char head[CXD_MATRIX_HEAD], rec[CXD_MATRIX_REC];
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	cxd_matrix_put_head(h, head);
	fwrite(head, 1, sizeof(head), f);
	for (int i = 0; i < n; i++) {
		cxd_matrix_put_rank(&r[i], rec);
		fwrite(rec, 1, sizeof(rec), f);
	}
	return f;
}

#endif

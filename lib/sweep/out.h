/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's results on rank 0 (out.c): the JSON document, CSV. */
#ifndef CXD_SWEEP_OUT_H
#define CXD_SWEEP_OUT_H

#include <stddef.h>

#include "out_types.h"

int cxd_out_json(const struct cxd_sweep_res *r, const char *path,
		 char *err, size_t errlen);
int cxd_out_csv(const struct cxd_sweep_res *r, const char *path,
		char *err, size_t errlen);

#endif

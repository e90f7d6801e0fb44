/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's results on rank 0 (out.c): the JSON document, CSV. */
#ifndef CXD_SWEEP_OUT_H
#define CXD_SWEEP_OUT_H

#include "out_types.h"

cxd_out_writer_fn cxd_out_json;
cxd_out_writer_fn cxd_out_csv;

#endif

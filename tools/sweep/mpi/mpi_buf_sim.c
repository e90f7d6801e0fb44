/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's measurement buffers in the simulated build (make sim; the
 * normal build's are mpi_buf_real.c's). */
#include <mpi.h>

#include "mpi_util.h"

/* The ranks are threads of one process, and the bytes are never read:
 * one block shared by all. */
void *sw_buf_alloc(size_t len)
{
	return SMPI_SHARED_MALLOC(len);
}

void sw_buf_release(void *p)
{
	SMPI_SHARED_FREE(p);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's measurement buffers in the normal build: the heap's (the
 * simulated build's are mpi_buf_sim.c's). */
#include <stdlib.h>

#include "mpi_util.h"

void *sw_buf_alloc(size_t len)
{
	return malloc(len);
}

void sw_buf_release(void *p)
{
	free(p);
}

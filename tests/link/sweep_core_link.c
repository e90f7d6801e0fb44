/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sweep's core links without libfabric (tests/tests.cmake): a program
 * that takes every entry point cxi_sweep's main uses, with no engine of
 * its own; the linker must resolve each from the core and the lower
 * layers of cxdcore, and libfabric is not on its command line.
 */
#include <stdio.h>

#include "phases/boot.h"
#include "phases/congest_mpi.h"
#include "phases/health.h"
#include "phases/preflight.h"
#include "phases/run.h"

typedef void any_fn(void);

int main(int argc, char **argv)
{
	/* Taken, not called: a volatile table the linker cannot drop. */
	any_fn *volatile keep[] = {
		(any_fn *) sw_ctx_init, (any_fn *) sw_bootstrap,
		(any_fn *) sw_agree_opts, (any_fn *) sw_inputs_read,
		(any_fn *) sw_run, (any_fn *) sw_congest,
		(any_fn *) sw_congest_check, (any_fn *) sw_health,
		(any_fn *) sw_pace, (any_fn *) sw_measure_pair,
		(any_fn *) sw_help_scale, (any_fn *) sw_counters_free,
		(any_fn *) sw_ctx_free,
	};

	(void) argc;
	(void) argv;
	printf("sweep core: %zu entry points linked\n",
	       sizeof(keep) / sizeof(keep[0]));
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank 0's progress line in the simulated build (make sim; the normal
 * build's is progress_tty_real.c): none. Every rank is a thread of one
 * process whose stderr is the simulation's log, and the rounds take
 * simulated time, which the line's clock does not see. */
#include "progress_tty.h"

FILE *sw_progress_tty(const struct sw_ctx *c)
{
	(void) c;
	return NULL;
}

void sw_progress_part(const struct cxd_rprog *p)
{
	(void) p;
}

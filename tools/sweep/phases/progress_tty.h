/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where rank 0's progress line goes (lib/base/progress_rounds.h): each
 * build's own answer, progress_tty_real.c (a terminal, looked for) or
 * progress_tty_sim.c (none: make sim).
 */
#ifndef CXD_SWEEP_PROGRESS_TTY_H
#define CXD_SWEEP_PROGRESS_TTY_H

#include <stdio.h>

#include "engine/context.h"

struct cxd_rprog;

/* Rank 0: stderr when the line is wanted there (--progress, or a
 * terminal and no --json: cxd_rprog_wanted); NULL on every other rank
 * and when it is not. */
FILE *sw_progress_tty(const struct sw_ctx *c);
/* Rank 0, before the report: where a line was drawn (p->widest) on a
 * launcher's terminal that rank 0's stdout reaches through the launcher
 * too, the report opens by blanking that line on stdout. The launcher
 * forwards stdout and stderr apart, so the erase sent on stderr may
 * reach the terminal after the report's first line; either order then
 * leaves the report alone on its lines. */
void sw_progress_part(const struct cxd_rprog *p);

#endif

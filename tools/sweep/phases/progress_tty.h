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

/* Rank 0: stderr when the line is wanted there (--progress, or a
 * terminal and no --json: cxd_rprog_wanted); NULL on every other rank
 * and when it is not. */
FILE *sw_progress_tty(const struct sw_ctx *c);

#endif

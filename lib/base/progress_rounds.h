/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Progress of a run made of phases of rounds (cxi_sweep's), for a
 * person at a terminal: one line on stderr, as the pair tools' (see
 * progress.h), rewritten with '\r':
 *     cxi_sweep: main pass (phase 2 of 4), round 5 of 12, about 8.0 s left
 * The time left is the phase's: its rounds still to come at the pace of
 * those done. The phases after it are not estimated (whether the retest
 * runs, and for how long, depends on what the main pass finds).
 *
 * No clock and no terminal of its own: the caller hands in the time and
 * the stream, so the tests drive it. Drawn only when a round ends or a
 * phase starts (never inside a timed loop), not before
 * CXD_PROGRESS_AFTER_NS of the run, at most once per CXD_RPROG_EVERY_NS,
 * and erased for good by cxd_rprog_end before anything else is printed.
 * Every call takes NULL (a rank that draws nothing) and does nothing.
 */
#ifndef CXD_PROGRESS_ROUNDS_H
#define CXD_PROGRESS_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "progress.h"

#define CXD_RPROG_EVERY_NS 200000000ULL /* a terminal need not see more */
#define CXD_RPROG_COLS 80 /* the line stays under a terminal's width */

/* --progress, --no-progress, or neither. */
enum cxd_rprog_want { CXD_RPROG_AUTO, CXD_RPROG_ON, CXD_RPROG_OFF };

struct cxd_rprog {
	FILE *out;             /* NULL: nothing is drawn */
	const char *tool;      /* the line's first word */
	const char *phase;     /* NULL before the first phase */
	unsigned x, y;         /* phase x of y */
	bool counted;          /* its rounds known ahead: "of N", time left */
	/* Rounds of the phase: done, planned (0: none known), those before
	 * the plan under way, and that plan's. */
	unsigned done, planned, base, cur;
	uint64_t start_ns, phase_ns, drawn_ns; /* drawn_ns: the last draw */
	bool shown;            /* drawn once: drawn_ns is set */
	size_t drawn;          /* characters on screen, 0 when clear */
	size_t widest;         /* the widest line drawn: 0, none was */
};

/* Shown when asked (--progress), never with --no-progress; else only on
 * a terminal (rank 0's stderr, or the stderr of the launcher that
 * forwards it) and not with --json: a run whose output a program reads
 * is not watched. */
bool cxd_rprog_wanted(enum cxd_rprog_want want, bool json, bool stderr_tty,
		      bool launcher_tty);
/* Phase k (0-based) of a list whose planned ones are the bits of mask:
 * its place among them (*x, 1-based) and their count (*y). */
void cxd_rprog_place(unsigned mask, unsigned k, unsigned *x, unsigned *y);
/* Time left, ns: the rounds still planned at the pace of the done ones,
 * which took spent_ns; UINT64_MAX while none is done or none planned. */
uint64_t cxd_rprog_left_ns(uint64_t spent_ns, unsigned done,
			   unsigned planned);
/* The line as it stands at now_ns: its length (cut to len - 1). Under
 * CXD_RPROG_COLS characters where it can be: "about" is dropped first. */
size_t cxd_rprog_format(char *buf, size_t len, const struct cxd_rprog *p,
			uint64_t now_ns);

/* out NULL: the line stays off (p may still be passed around). */
void cxd_rprog_init(struct cxd_rprog *p, FILE *out, const char *tool,
		    uint64_t now_ns);
/* A phase starts: its name (a literal), its place x of y; counted: its
 * rounds are known ahead (cxd_rprog_expect, or its plans as they start)
 * else only the round under way is shown. Drawn if due. */
void cxd_rprog_phase(struct cxd_rprog *p, const char *name, unsigned x,
		     unsigned y, bool counted, uint64_t now_ns);
/* n more rounds are planned in this phase from now on (replacing what
 * was expected before). */
void cxd_rprog_expect(struct cxd_rprog *p, unsigned n);
/* The pacing starts a plan of nrounds rounds; plan_end: it is over. */
void cxd_rprog_plan(struct cxd_rprog *p, unsigned nrounds);
void cxd_rprog_plan_end(struct cxd_rprog *p, uint64_t now_ns);
/* Round r (0-based) of the plan under way is over here. Drawn if due. */
void cxd_rprog_round(struct cxd_rprog *p, unsigned r, uint64_t now_ns);
/* The line erased and off from now on: before a report or a message. */
void cxd_rprog_end(struct cxd_rprog *p);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --interval: a duration run cut into windows. The timed loops already
 * read the clock every iteration; they call in here only when a window
 * boundary has passed (now >= wr->next), so the loop's work per
 * iteration is one comparison more. Memory is taken once, before the
 * first size: the rows (-D / --interval of them, at most
 * CXD_MAX_WINDOWS) and, for latency, two histograms.
 */
#ifndef CXD_RUN_WINDOWS_H
#define CXD_RUN_WINDOWS_H

#include <stdint.h>
#include <stdio.h>

#include "base/stats.h"
#include "session/session.h"

struct cxd_winrec {
	uint64_t next;       /* the next boundary; UINT64_MAX: no windows */
	uint64_t step, t0;   /* window length; the loop's start */
	uint64_t last_t, last_count; /* the open window's start and count */
	uint64_t size;
	struct cxd_windows win;
	struct cxd_lat_stats *prev, *diff; /* latency: the open window's
					      start, and its own figures */
	FILE *live; /* rows as they close (text output), or NULL */
};

/* Off (next = UINT64_MAX) unless --interval; -ENOMEM with s->err set. */
int cxd_win_init(struct cxd_sess *s, struct cxd_winrec *wr, bool lat);
void cxd_win_free(struct cxd_winrec *wr);
/* A size's loop starts at t0 (latency: its stats are reset). */
void cxd_win_start(struct cxd_winrec *wr, uint64_t size, uint64_t t0);
/* A boundary passed: close the window at now. count: operations done
 * so far (bandwidth); st: the size's statistics so far (latency). */
void cxd_win_pass(struct cxd_winrec *wr, uint64_t now, uint64_t count,
		  const struct cxd_lat_stats *st);
/* The loop ended at end: the last window if it is at least half long,
 * then the worst and median windows. */
void cxd_win_finish(struct cxd_winrec *wr, uint64_t end, uint64_t count,
		    const struct cxd_lat_stats *st);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress of a multi-size run on stderr, for people at a terminal. */
#ifndef CXD_PROGRESS_H
#define CXD_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CXD_PROGRESS_AFTER_NS 2000000000ULL /* quiet for short runs */
#define CXD_PROGRESS_LINE 128

/*
 * One line, rewritten with '\r', updated only between sizes (never in a
 * timed loop) and erased before a result row is printed.
 */
struct cxd_progress {
	FILE *out;          /* NULL: disabled */
	const char *name;   /* the tool, first word of the line */
	unsigned k, n;      /* size k of n, 1-based; 0 before the first */
	uint64_t max_size, size, duration_ns; /* duration_ns: -D, else 0 */
	uint64_t start_ns, size_start_ns;
	uint64_t t_prev, t_last; /* how long the two sizes before took */
	size_t drawn;       /* characters on screen now, 0 when clear */
};

/* Shown only on a terminal, and only by the side that chose the run. */
bool cxd_progress_wanted(bool stderr_tty, bool is_client);
/* How many sizes a MIN:MAX power-of-two sweep has. */
unsigned cxd_progress_nsizes(uint64_t min_size, uint64_t max_size);
/*
 * Time left from the start of `size` through max_size, ns: duration
 * runs take duration_ns a size; iteration runs fit t = a + b * size to
 * the last two sizes (t_prev for size / 4, t_last for size / 2; 0 when
 * not run). Returns UINT64_MAX when nothing is known yet.
 */
uint64_t cxd_progress_left_ns(uint64_t size, uint64_t max_size,
			      uint64_t duration_ns, uint64_t t_prev,
			      uint64_t t_last);
/* "cxi_write_bw: size 5 of 13 (16 KiB), 4.2 s elapsed, about 12 s left" */
size_t cxd_progress_format(char *buf, size_t len, const char *name,
			   unsigned k, unsigned n, uint64_t size,
			   uint64_t elapsed_ns, uint64_t left_ns);

/* "4.2 s", "1 min 05 s", "2 h 03 min": a time as the lines show it. */
void cxd_progress_fmt_time(char *buf, size_t len, uint64_t ns);
/* Line (len characters) drawn over the one on screen, *drawn characters
 * long, which it pads over; *drawn becomes the longer of the two. */
void cxd_progress_draw(FILE *out, const char *line, size_t len,
		       size_t *drawn);
/* The *drawn characters on screen erased, the cursor back at the start. */
void cxd_progress_erase(FILE *out, size_t *drawn);

/* out NULL disables every call below. */
void cxd_progress_init(struct cxd_progress *p, FILE *out, const char *name,
		       uint64_t min_size, uint64_t max_size,
		       uint64_t duration_ns, uint64_t now_ns);
/* A size starts: record the last one's time, redraw once 2 s have gone. */
void cxd_progress_size(struct cxd_progress *p, uint64_t size, uint64_t now_ns);
/* Erase the line (before a row is printed, and at the end). */
void cxd_progress_clear(struct cxd_progress *p);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The runners (run_bw.c, run_lat.c), --validate (validate.c) and the
 * summary (summary.c): a session's sizes, driven through its ops and peer. */
#ifndef CXD_RUN_H
#define CXD_RUN_H

#include <stdint.h>

#include "base/progress.h"
#include "session/session.h"

/* run_bw.c, run_lat.c: every size of a session, reported. */
/* Progress on stderr for this run (disabled unless cxd_progress_wanted). */
void cxd_runner_progress(struct cxd_sess *s, struct cxd_progress *p);
int cxd_runner_bw(struct cxd_sess *s, struct cxd_report *rep);
int cxd_runner_lat(struct cxd_sess *s, struct cxd_report *rep);
int cxd_runner_loopback(struct cxd_sess *s, struct cxd_report *rep);

/* validate.c: --validate, outside the timed loop. Byte j of every
 * operation of a size carries cxd_validate_byte(size, j). */
uint8_t cxd_validate_byte(uint64_t size, uint64_t j);
int cxd_validate_prepare(struct cxd_sess *s, uint64_t size);
/* Check this side's target bytes after a size; peer_ops and own_ops are
 * the operations the peer and this side initiated. Exchanges verdicts
 * with the peer; a mismatch fails the run naming size, offset, bytes. */
int cxd_validate_finish(struct cxd_sess *s, uint64_t size, uint64_t own_ops,
			uint64_t peer_ops, struct cxd_result *res);

/* evidence.c: the link error counters of the device in use, read before
 * the first size (begin: NULL when out of memory, then none are shown)
 * and after the last (end: into the report, and freed). */
struct cxd_ctrs *cxd_run_counters_begin(struct cxd_sess *s);
int cxd_run_counters_end(struct cxd_ctrs *c, struct cxd_report *rep);

/* summary.c: the summary block's lines, in s->info. */
void cxd_summary_build(struct cxd_sess *s);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The schedule's words from its choice (out_sched.c): the text report's
 * "Schedule:" line and the JSON's schedule object. */
#ifndef CXD_SWEEP_OUT_SCHED_H
#define CXD_SWEEP_OUT_SCHED_H

#include <stddef.h>

#include "sweep/sched/sched_choose.h"

/* The sentence's room: a choice's words and every narrowing fit. */
#define CXD_OUT_SCHED_LEN 768

/* The kind's word: "rounds", "shared links"; "" when none was chosen. */
const char *cxd_out_sched_kind(const struct cxd_sched_choice *ch);
/* "KIND: why", then each narrowing, into buf (len bytes, cut short
 * there); "" when none was chosen. */
void cxd_out_sched(const struct cxd_sched_choice *ch, char *buf, size_t len);

#endif

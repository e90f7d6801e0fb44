/* SPDX-License-Identifier: BSD-3-Clause */
/* The operations the tool rows point at, and the rule they share with
 * the summary. */
#ifndef CXD_OPS_H
#define CXD_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "session/session.h"

extern const struct cxd_ops cxd_write_ops, cxd_read_ops, cxd_send_ops,
	cxd_atomic_ops;

/*
 * Whether an operation of this size is posted with FI_INJECT (ops.c): the
 * one rule the posting code and the summary's IDC line share. inject_size
 * is the provider's limit (s->fab->inject_size).
 */
bool cxd_ops_injects(const struct cxd_ops *ops, const struct cxd_run_opts *run,
		     uint64_t size, uint64_t inject_size);

#endif

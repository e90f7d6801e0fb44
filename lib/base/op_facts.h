/* SPDX-License-Identifier: BSD-3-Clause */
/* What an operation kind is, as the layers below the session read it. */
#ifndef CXD_OP_FACTS_H
#define CXD_OP_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cxd/tool.h"

/* Which of the cxi provider's command classes carries an operation
 * (fi_cxi(7)): its knobs (IDC, HRP, restricted) differ per class. */
enum cxd_cxi_class { CXD_CXI_WRITE, CXD_CXI_READ, CXD_CXI_MSG, CXD_CXI_AMO };

/* Facts the core, the summary, the memory plan (wire/hs.c) and the
 * Cassini knobs (fabric/cxi_knobs.c) need about the operation. */
struct cxd_op_facts {
	uint64_t caps;
	bool to_initiator; /* data lands at the initiator (read): the roles
			      of tx and rx swap */
	bool two_sided;    /* send/receive: each side needs both buffers */
	bool amo;          /* atomics: fetching results land behind the
			      operands; fetching and compare kinds never
			      inject; one packet per operation */
	uint32_t slot;     /* bytes per operation in the buffers; 0: its
			      size rounded up to --buf-align */
	bool injects;      /* may be posted with FI_INJECT (IDC) */
	uint64_t inject_cap; /* at most this many bytes; 0: the provider's */
	enum cxd_cxi_class cxi;
};

/*
 * A tool row's operation facts. struct cxd_ops (session/session.h)
 * begins with its facts, so a pointer to it is one to them (C11
 * 6.7.2.1p15; session.h asserts the offset): the lower layers read
 * them without knowing the session's hooks.
 */
static inline const struct cxd_op_facts *
cxd_tool_facts(const struct cxd_tool *tool)
{
	return (const struct cxd_op_facts *)(const void *)tool->ops;
}

#endif

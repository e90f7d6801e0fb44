/* SPDX-License-Identifier: BSD-3-Clause */
/* Traffic class names (--tclass): libfabric's FI_TC_* labels, by index. */
#ifndef CXD_TCLASS_H
#define CXD_TCLASS_H

/* Index 0: no class asked for, the provider's default (FI_TC_UNSPEC). */
enum cxd_tclass {
	CXD_TC_UNSPEC, CXD_TC_LOW_LATENCY, CXD_TC_BULK_DATA,
	CXD_TC_DEDICATED_ACCESS, CXD_TC_BEST_EFFORT, CXD_TC_SCAVENGER,
	CXD_TC_COUNT
};

/* "low_latency"...; "default" for CXD_TC_UNSPEC, "?" out of range. */
const char *cxd_tclass_name(unsigned tc);
/* Case-insensitive, the five class names only; -1 when unknown. */
int cxd_tclass_parse(const char *s);

#endif

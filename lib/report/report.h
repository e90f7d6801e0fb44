/* SPDX-License-Identifier: BSD-3-Clause */
/* Results rendered three ways: the seed text table, JSON, CSV. */
#ifndef CXD_REPORT_REPORT_H
#define CXD_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/stats.h"
#include "cxd/config.h"
#include "cxd/result.h"
#include "cxd/tool.h"

/* figures.c: every figure of a result is computed there. */
/* One side's timed span of a bandwidth size. */
struct cxd_span {
	uint64_t count;      /* operations initiated */
	uint64_t elapsed_ns;
};

/* Packets per operation: one per 2048 bytes, or one (atomics). */
uint64_t cxd_packets(bool one_per_op, uint64_t size);
/* res->bw_mb_s and rate_m_s for res->size: each side's span (NULL: it
 * did not post) at its own rate, summed. */
void cxd_bw_combine(struct cxd_result *res, uint64_t pkts_per_op,
		    const struct cxd_span *mine, const struct cxd_span *peer);

#define CXD_LAT_FIGURES 8 /* min max mean stddev p50 p90 p99 p99.9 */
#define CXD_GAP_FIGURES 4 /* min p50 mean max */
struct cxd_figures {
	double elapsed_us;
	double bw_mb_s;  /* MB = 10^6 bytes */
	double bw_gb_s;  /* Gb = 10^9 bits: the loopback tool's column */
	double rate_m_s; /* packets (or operations) per microsecond */
	uint64_t lat_ns[CXD_LAT_FIGURES]; /* when res->lat */
	uint64_t gap_ns[CXD_GAP_FIGURES]; /* when has_gaps */
	bool has_gaps;
};
void cxd_result_figures(const struct cxd_result *res, struct cxd_figures *f);

struct cxd_report;

/*
 * begin prints the summary block (text) and, for text output on a
 * client or bandwidth server, the column header. For JSON nothing is
 * printed until end. Returns 0 or -ENOMEM.
 */
int cxd_report_begin(struct cxd_report **rep_p, const struct cxd_tool *tool,
		     const struct cxd_cfg *cfg, const struct cxd_summary_info *info,
		     FILE *out);
int cxd_report_result(struct cxd_report *rep, const struct cxd_result *res);
/* Closing separator (text) or the whole document (JSON); frees rep. */
int cxd_report_end(struct cxd_report *rep);
/* report_after.c: what is known only after the sizes. The device's
 * counters ("Link errors" line, JSON "counters"); call before end. */
struct cxd_ctrs;
int cxd_report_counters(struct cxd_report *rep, const struct cxd_ctrs *c);
/* The worst window's words, for a summary line. */
void cxd_window_words(const struct cxd_windows *w, char *buf, size_t len);
/* --expect-bw/--expect-lat: a size missed its bound (lib/report/gate.c;
 * the caller exits 3). Ask before end, which frees rep. */
bool cxd_report_gate_missed(const struct cxd_report *rep);
/* --metrics FILE (metrics.h): write it now, if asked; call before end.
 * 0, or a negative errno with err naming the file. */
int cxd_report_metrics(struct cxd_report *rep, char *err, size_t len);
/* Frees without printing (error paths). */
void cxd_report_free(struct cxd_report *rep);

/* Helpers shared with tests. */
size_t cxd_report_header(const struct cxd_tool *tool, char *buf, size_t len);
void cxd_kv_set(struct cxd_summary_info *info, const char *key, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The report's types: what a run resolved to and one record per size.
 * The functions that render them: lib/report/report.h. */
#ifndef CXD_RESULT_H
#define CXD_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "cxd/config.h"

struct cxd_lat_stats; /* base/stats.h: the latency tools' figures */

#define CXD_SUMMARY_MAX 40
#define CXD_KV_KEY 32
#define CXD_KV_VAL 160

/* One summary line: "Device           : cxi0". */
struct cxd_kv {
	char key[CXD_KV_KEY];
	char val[CXD_KV_VAL];
};

/* What the run resolved to, for the header and the JSON document. */
struct cxd_summary_info {
	bool is_server;
	char provider[CXD_NAME_LEN];
	char domain[CXD_NAME_LEN];
	char local_ep[160];  /* printable fabric address of this side */
	char remote_ep[160]; /* of the peer ("" for loopback tools) */
	char peer[128];      /* control-channel peer "host:port" */
	uint64_t inject_size; /* the provider's FI_INJECT limit (JSON) */
	struct cxd_kv summary[CXD_SUMMARY_MAX];
	unsigned nsummary;
};

/* --interval: one window of a duration run, from the timed loop's start. */
struct cxd_window {
	double start_s, end_s;
	uint64_t count;  /* operations (bandwidth) or samples (latency) */
	double bw_mb_s;  /* this side's posts; MB = 10^6 bytes */
	uint64_t p50_ns, p99_ns, max_ns, mean_ns; /* latency */
};

/* A size's windows; the worst is the lowest bandwidth or the highest
 * median latency, dist_pct its distance from the median window. */
struct cxd_windows {
	bool lat;
	uint64_t n, cap;
	struct cxd_window *w;
	uint64_t worst;
	double worst_v, median_v, dist_pct;
};

/* One record per size. */
struct cxd_result {
	uint64_t size;
	uint64_t count;       /* operations this side initiated */
	bool count_shown;     /* false: text prints "-" (uni-dir server) */
	uint64_t elapsed_ns;  /* this side's timed span; 0 when passive */
	double bw_mb_s;       /* combined as reported; MB = 10^6 */
	double rate_m_s;      /* packets (or ops) per microsecond */
	/* Latency tools (client): NULL for bandwidth tools. */
	const struct cxd_lat_stats *lat;
	const struct cxd_lat_stats *gaps; /* the inter-iteration gaps kept */
	const uint64_t *samples; /* --report-all: every latency in ns */
	uint64_t nsamples;
	int verify; /* atomic target check: 1 ok, 0 mismatch, -1 not done */
	int validated; /* --validate: 1 checked and right, -1 not asked */
	const struct cxd_windows *win; /* --interval, or NULL */
};

#endif

/* Results rendered three ways: the seed text table, JSON, CSV. */
#ifndef CXD_REPORT_H
#define CXD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cxd/config.h"
#include "base/stats.h"
#include "cxd/tool.h"

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
/* Frees without printing (error paths). */
void cxd_report_free(struct cxd_report *rep);

/* Helpers shared with tests. */
size_t cxd_report_header(const struct cxd_tool *tool, char *buf, size_t len);
void cxd_kv_set(struct cxd_summary_info *info, const char *key, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

#endif

/* Results rendered three ways: the seed text table, JSON, CSV. */
#ifndef CXD_REPORT_H
#define CXD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cxd/config.h"
#include "cxd/stats.h"
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
struct cxd_run_info {
	bool is_server;
	char provider[CXD_NAME_LEN];
	char domain[CXD_NAME_LEN];
	char local_ep[160];  /* printable fabric address of this side */
	char remote_ep[160]; /* of the peer ("" for loopback tools) */
	char peer[128];      /* control-channel peer "host:port" */
	struct cxd_kv summary[CXD_SUMMARY_MAX];
	unsigned nsummary;
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
};

struct cxd_report;

/*
 * begin prints the summary block (text) and, for text output on a
 * client or bandwidth server, the column header. For JSON nothing is
 * printed until end. Returns 0 or -ENOMEM.
 */
int cxd_report_begin(struct cxd_report **rep_p, const struct cxd_tool *tool,
		     const struct cxd_cfg *cfg, const struct cxd_run_info *info,
		     FILE *out);
int cxd_report_result(struct cxd_report *rep, const struct cxd_result *res);
/* Closing separator (text) or the whole document (JSON); frees rep. */
int cxd_report_end(struct cxd_report *rep);
/* Frees without printing (error paths). */
void cxd_report_free(struct cxd_report *rep);

/* Helpers shared with tests. */
size_t cxd_report_header(const struct cxd_tool *tool, char *buf, size_t len);
void cxd_kv_set(struct cxd_run_info *info, const char *key, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

#endif

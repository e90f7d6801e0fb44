/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the report: its state, shared by report.c and report_json.c. */
#ifndef CXD_REPORT_PRIV_H
#define CXD_REPORT_PRIV_H

#include <json-c/json.h>

#include "report/report.h"

#define HEADER_MAX 160
#define CXD_TRAIL_MAX 96 /* windows and gate lines: 32 sizes each */
#define CXD_TRAIL_VAL 1024

/* gate.c: --expect-bw / --expect-lat against each size (the client). */
#define CXD_GATE_MISS_MAX 40 /* sizes of a run: 33 at most */
struct cxd_gate_miss {
	uint64_t size;
	double v;
};
struct cxd_gate {
	bool on, lat;
	double bound;         /* MB/s floor, or us ceiling on the median */
	uint64_t checked;     /* sizes judged */
	uint64_t worst_size;  /* the lowest bandwidth, highest latency */
	double worst;
	unsigned nmiss;
	struct cxd_gate_miss miss[CXD_GATE_MISS_MAX];
};

struct cxd_report {
	const struct cxd_tool *tool;
	const struct cxd_cfg *cfg;
	const struct cxd_summary_info *info; /* read only during begin */
	FILE *out;
	int format;
	bool lat, gb_col, server, report_all;
	char header[HEADER_MAX];
	size_t hlen;
	/*
	 * The originals open every per-size block (report-all listing, "See
	 * client for results.") with a separator; the summary block already
	 * ends with one, so a block that follows it directly skips its own.
	 */
	bool at_sep;
	json_object *doc, *results; /* JSON only; results is owned by doc */
	json_object *jsum; /* the document's "summary", owned by doc */
	/* Lines known only after the sizes (report_after.c): text prints
	 * them after the table, CSV on stderr, JSON in "summary". */
	struct { char key[CXD_KV_KEY]; char val[CXD_TRAIL_VAL]; }
		trail[CXD_TRAIL_MAX];
	unsigned ntrail;
	struct cxd_gate gate;
	struct cxd_metrics *mx; /* --metrics FILE, or NULL */
};

/* Latency figures' names, the same in CSV and JSON (cxd_figures order). */
extern const char *const cxd_lat_keys[CXD_LAT_FIGURES];

/* report_json.c: the document is built as results come, printed at end. */
int cxd_jadd(json_object *o, const char *key, json_object *v, bool null_ok);
/* report_after.c */
int cxd_report_windows(struct cxd_report *rep, const struct cxd_result *res,
		       json_object *o);
void cxd_report_trailer(struct cxd_report *rep);
int cxd_json_begin(struct cxd_report *rep);
/* gate.c */
void cxd_gate_begin(struct cxd_report *rep);
void cxd_gate_result(struct cxd_report *rep, const struct cxd_result *res);
/* The verdict lines (text, CSV) or the "gate" object (JSON). */
int cxd_gate_end(struct cxd_report *rep);
int cxd_json_result(struct cxd_report *rep, const struct cxd_result *res);

#endif

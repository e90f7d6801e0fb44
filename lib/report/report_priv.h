/* Internal to the report: its state, shared by report.c and report_json.c. */
#ifndef CXD_REPORT_PRIV_H
#define CXD_REPORT_PRIV_H

#include <json-c/json.h>

#include "report/report.h"

#define HEADER_MAX 160
#define CXD_TRAIL_MAX 48
#define CXD_TRAIL_VAL 1024

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
int cxd_json_result(struct cxd_report *rep, const struct cxd_result *res);

#endif

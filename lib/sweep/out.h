/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's results on rank 0 (out.c: the JSON document, CSV; out_json.c:
 * its parts; out_text.c: the report; out_files.c: metrics, suspects). */
#ifndef CXD_SWEEP_OUT_H
#define CXD_SWEEP_OUT_H

#include <stdio.h>

#include <json-c/json.h>

#include "base/json_num.h"
#include "baseline.h"
#include "judge.h"
#include "topo.h"
#include "verdict.h"

#define CXD_SWEEP_WORST 3
/* Outliers each rank sends rank 0 to be listed (confirmed, and again
 * not judged); beyond, only counted (8 kB per rank at most). Every link
 * is listed up to 33 ranks. */
#define CXD_SWEEP_LISTED 64
/* --metrics lists every link up to this many ranks (rank 0 gathers the
 * matrices for it); beyond, each rank's median only: 10^8 series at
 * 10,000 ranks would swamp any Prometheus. */
#define CXD_SWEEP_METRICS_LINKS 64

/* One metric over every link, computed where the rows are. */
struct cxd_sweep_stat {
	double min, med, max;
	double p5, p95;       /* nearest-rank percentiles */
	struct cxd_link_val worst[CXD_SWEEP_WORST]; /* lowest bw, highest lat */
	int nworst;
};

/* Everything rank 0 writes out. */
struct cxd_sweep_res {
	int n;
	const struct cxd_sweep_rank *ranks;
	/* n x n medians of the repeats, NAN diagonal, and their spread
	 * ((max - min) / median, %): gathered only for the files that hold
	 * every link (--json, --csv, --metrics), else NULL. */
	const double *bw, *lat;
	const double *spread[2];
	struct cxd_sweep_stat stat[2]; /* per metric */
	/* Per rank, the median of its links (bw, lat), latest figures. */
	const double *rank_med;
	/* The outliers listed (at most CXD_SWEEP_LISTED per rank) of
	 * nout_all confirmed, and of nbusy_all whose retest ran on a busy
	 * host (not judged). */
	const struct cxd_outlier *out;
	size_t nout, nout_all;
	const struct cxd_outlier *busy;
	size_t nbusy, nbusy_all;
	const struct cxd_rules *rules;
	const struct cxd_suspect *sus;
	size_t nsus;
	const struct cxd_topo *topo;     /* NULL: no --topology */
	const struct cxd_topo_map *tmap;
	const struct cxd_baseline *base; /* NULL: no --baseline */
	/* Per rank, the link error counters that moved during the sweep
	 * ("" none); NULL: not read. Evidence beside the outliers. */
	const char *const *moved;
	/* The rounds as run: round r's count[r] pairs at pairs + first[r],
	 * which took round_s[r] seconds. */
	int nrounds, pairs_at_once;
	const int *round_first;
	const int *round_count;
	const struct cxd_pair *round_pairs;
	const double *round_s;
	double total_s;
	/* Which schedule ran and why: "rounds: ..." or "shared links: ..."
	 * (the word before the colon is the JSON's schedule.kind). */
	const char *schedule;
	/* The pairs measured again to confirm the outliers (0: none), and
	 * in which metrics: bit 1 << CXD_M_BW, 1 << CXD_M_LAT. */
	int retest_pairs;
	unsigned retest_metrics;
	char provider[CXD_NAME_LEN]; /* "mpi" with the MPI engine */
	char engine[16];        /* --engine: fabric, mpi */
	char engine_version[128]; /* libfabric's ("2.1"), or the MPI
				   * library's first phrase */
	const struct cxd_cfg *cfg;
	uint64_t lat_iters, repeat; /* resolved */
	enum cxd_verdict verdict;
};

#define CXD_SWEEP_SCHED_LEN 320

int cxd_out_json(const struct cxd_sweep_res *r, const char *path,
		 char *err, size_t errlen);
int cxd_out_csv(const struct cxd_sweep_res *r, const char *path,
		char *err, size_t errlen);
/* OpenMetrics text (Prometheus' textfile collector reads it): every link
 * where the matrices were gathered (bw not NULL), each rank's median. */
int cxd_out_metrics(const struct cxd_sweep_res *r, const char *path,
		    char *err, size_t errlen);
/* The hosts of the suspects, one per line (scontrol ... state=drain). */
int cxd_out_suspects(const struct cxd_sweep_res *r, const char *path,
		     char *err, size_t errlen);
/* The report: figures, resolution, baseline, outliers, suspects, verdict. */
void cxd_out_text(const struct cxd_sweep_res *r, FILE *out);
/* "vm3 (rank 2, swp0)", "switch x1 (ranks 2, 3)", "the fabric". */
void cxd_out_suspect_name(const struct cxd_sweep_res *r,
			  const struct cxd_suspect *s, char *buf, size_t len);

/* The JSON parts of the document (out_json.c), for out.c. */
json_object *cxd_out_json_resolution(const struct cxd_sweep_res *r);
/* Every link's min, p5, median, p95, max per metric (nearest rank). */
json_object *cxd_out_json_link_stats(const struct cxd_sweep_res *r);
json_object *cxd_out_json_suspects(const struct cxd_sweep_res *r);
json_object *cxd_out_json_baseline(const struct cxd_sweep_res *r);
/* "bw_mb_s" or "lat_us": the matrices' keys. */
const char *cxd_out_metric_key(enum cxd_metric m);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* What cxi_sweep's outputs on rank 0 are given (out.h, out_json.h,
 * out_text.h, out_files.h, verdict.h): the result and its figures. */
#ifndef CXD_SWEEP_OUT_TYPES_H
#define CXD_SWEEP_OUT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "baseline.h"
#include "capacity.h"
#include "judge.h"
#include "judge_suspects.h"
#include "topo_types.h"

struct cxd_sched_choice;

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

/* PASS, FAIL or INCONCLUSIVE (verdict.h decides it). */
enum cxd_verdict { CXD_V_PASS, CXD_V_FAIL, CXD_V_INCONCLUSIVE };

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
	/* The capacity pass: ran or why not, its plan and findings (a
	 * capacity suspect's cap indexes found); NULL: no such pass. */
	const struct cxd_cap_res *cap;
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
	/* Which schedule ran and why, as chosen (sched_choose.h; the
	 * writers say it, out_sched.h); NULL: none. */
	const struct cxd_sched_choice *schedule;
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

#endif

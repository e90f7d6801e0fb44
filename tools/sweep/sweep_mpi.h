/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's MPI side: the state of one rank and its entry points. */
#ifndef CXD_SWEEP_MPI_H
#define CXD_SWEEP_MPI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#include "base/clock.h"
#include "base/exit_codes.h"
#include "cxd/opts.h"
#include "sweep/sched.h"
#include "sweep/out.h"
#include "engine.h"
#include "sw_mpi.h"

/* How the rounds are paced: the ranks' places, the round being run. */
struct sw_pacing {
	int pairs_at_once;     /* per round: --max-pairs or by host CPUs */
	int local, nlocal;     /* place among this host's ranks, and count */
	bool one_host;         /* every rank on one host */
	int round;             /* the round being run (for messages) */
	double *round_s;       /* rank 0: each round's longest pair, s */
	bool coord_only;       /* test copies: time the pacing alone */
	/* What a pair measures now (SW_RUN_*), and when not NULL each
	 * rank's domain: pairs crossing between two domains take turns,
	 * SW_KEY_CAP at once (cxd_sched_keys; the shared-links schedule). */
	int what;
	const int *key_dom;
	/* The shared-links schedule's domains for the whole sweep (its
	 * retests too), NULL: plain rounds (sweep_all.c). */
	const int *shared;
	/* Which schedule ran and why, for the report (sweep_all.c). */
	char schedule[CXD_SWEEP_SCHED_LEN];
};

enum { SW_RUN_BOTH, SW_RUN_LAT, SW_RUN_BW };

/* Pairs of one domain pair measuring bandwidth at once: one, since the
 * topology file does not say how many global links a bundle has. */
#define SW_KEY_CAP 1

/* What the judging works on: this rank's figures, rank 0's references. */
struct sw_judging {
	double *rep[2];        /* this rank's links, repeat k of link to p at
				* [p * repeat + k]; per metric */
	double *bw_row, *lat_row; /* this rank's links to each rank: medians */
	double *spread[2];     /* (max - min) / median of the repeats, % */
	double noise[2];       /* median relative difference of repeats */
	double *busy_row;      /* share of each pair's time spent waiting
				* for a CPU (this rank's side), NAN unknown */
	/* rank 0: --baseline and --topology, read before any traffic */
	struct cxd_baseline base;
	struct cxd_topo topo;
	struct cxd_topo_map tmap;
	bool has_base, has_topo;
	/* sweep_calib.c: the link this rank led alone, and rank 0's ratios
	 * (alone / in the round, one per rank, NAN none; NULL: no
	 * calibration ran). */
	int alone_peer;
	double alone_v;
	double *crowd_ratio;
	/* sweep_judge.c: the retest's pairs and metrics (for the report) */
	int retest_pairs;
	unsigned retest_metrics;
};

/* Outputs and evidence kept open across the sweep. */
struct sw_outputs {
	struct sw_ctrs *ctrs;  /* health.c: counters around the sweep */
	MPI_File mfh;          /* --matrix, open from before the traffic */
	bool has_matrix;
};

/* One rank of the sweep: its MPI place, the engine it measures with,
 * the options, every rank's host, and the three parts' state. */
struct sw {
	struct sw_mpi m;       /* rank, n, the wait bound (sw_mpi.h) */
	struct sw_engine *eng; /* how a pair is measured (engine.h) */
	struct cxd_cfg cfg;
	struct cxd_run_opts bw_run, lat_run; /* the engine's two runs */
	uint64_t lat_iters, repeat;
	struct cxd_sweep_rank *ranks; /* every rank's host and address */
	struct sw_pacing pace;
	struct sw_judging judge;
	struct sw_outputs out;
	uint64_t nfig;         /* figures this rank led (test jitter's key) */
};

/* The outliers rank 0 lists: confirmed ones, then those not judged. */
struct sw_listed {
	struct cxd_outlier *o;
	size_t nout, nbusy;         /* listed */
	size_t nout_all, nbusy_all; /* found, over all ranks */
};

/* A rank's state, measuring through engine e (its open still to come). */
void sw_init(struct sw *w, struct sw_engine *e);
/* Every rank's host and CPUs (how many pairs at once), the memory check,
 * then the engine's open (sweep_boot.c): 0, or 2 with rank 0 having said
 * why. */
int sw_bootstrap(struct sw *w);
/* Collectives (sweep_agree.c): 0 when no rank has an error, else rank 0
 * prints the first failing rank's, named with its host, and all get 2. */
int sw_agree_err(struct sw *w, const char *err);
int sw_agree_opts(struct sw *w, int argc, char **argv);
/* -h's paragraphs on NICs and on memory at N ranks (sweep_agree.c). */
void sw_help_scale(FILE *out);
/* Rank 0: refuse a full-matrix output that its host cannot hold. */
int sw_agree_memory(struct sw *w);
/* A pair's runs with rank p through the engine (sweep_run.c): latency
 * each way, then bandwidth each way, repeat times interleaved; the lower
 * rank leads first. keep(arg, k, d, f) gets each figure of repeat k this
 * rank led. 0, or the engine's error (e->why says). */
typedef void sw_keep_fn(void *arg, uint64_t k, const struct sw_dir *d,
			const struct sw_fig *f);
int sw_pair_runs(struct sw *w, int p, uint64_t repeat, const char *role,
		 sw_keep_fn *keep, void *arg);
/* The sweep's pair: sw_pair_runs x --repeat into this rank's repeats; a
 * failure ends the job. */
void sw_measure_pair(struct sw *w, int p);
/* Run a plan's rounds (lib/sweep/sched.h: cxd_sched_main, retest.h:
 * cxd_retest_plan), paced pairwise (sweep_pace.c), measure(w, p) for
 * each pair with rank p; secs: rank 0 gets each round's longest pair, in
 * seconds (NULL: not wanted). */
typedef void sw_measure_fn(struct sw *w, int p);
void sw_pace(struct sw *w, const struct cxd_plan *pl,
	     sw_measure_fn *measure, double *secs);
/* Plan pl's pairs measured with sw_measure_pair (sweep_pace.c): both
 * metrics at once, or (dom not NULL, the shared-links schedule) latency
 * in full rounds, then bandwidth one pair per domain pair at a time;
 * secs as sw_pace's, the two passes added. */
void sw_pace_plan(struct sw *w, const struct cxd_plan *pl, const int *dom,
		  int what, double *secs);
/* With more than one pair at once: a sample of a round's pairs
 * measured again alone (sweep_calib.c),
 * rank 0's judge.crowd_ratio filled. Collective. */
void sw_calibrate(struct sw *w);
/* The whole sweep (sweep_all.c); returns the exit status (rank 0
 * decides). */
int sw_run(struct sw *w);
/* Forget the measurements of this rank's row (before a pass). */
void sw_reset_rows(struct sw *w);

/* sweep_judge.c: rank 0 reads --baseline and --topology before any
 * traffic; 0, or 2 on every rank when one is unusable. */
int sw_read_inputs(struct sw *w);
/* After the ranks are known: --topology must place every one (0 or 2). */
int sw_place_ranks(struct sw *w);
/* Judge the first pass, retest, report: the exit status (rank 0's). */
int sw_verdict(struct sw *w, const struct cxd_plan *pl, uint64_t t0);
void sw_free(struct sw *w);

/* sweep_reduce.c: every rank takes part; rank 0 gets the results. */
/* Min, median (exact) and max of all links, and the worst ones. */
void sw_link_stats(struct sw *w, struct cxd_sweep_stat st[2]);
/* Rank 0's --topology placement on every rank (tm->switch_of NULL: none);
 * tm's arrays are the caller's to free. */
void sw_share_topo(struct sw *w, struct cxd_topo_map *tm);
/* Sum every rank's counts of its n outliers into rank 0's sum. */
void sw_tally(struct sw *w, const struct cxd_topo_map *tm,
	      const struct cxd_outlier *o, size_t n, struct cxd_tally *sum);
/* o: this rank's nout confirmed outliers, then nbusy not judged; rank 0
 * gets at most CXD_SWEEP_LISTED of each per rank, in link order. */
void sw_gather_outliers(struct sw *w, const struct cxd_outlier *o,
			size_t nout, size_t nbusy, struct sw_listed *l);

/* sweep_matrix.c: --matrix. Opened (and truncated) before any traffic:
 * 0, or 2 on every rank when it cannot be written. */
int sw_matrix_open(struct sw *w);
/* Each rank writes its record and rows (this pass's medians); tol: the
 * run's tolerances. 0, or 1 on every rank with rank 0 saying why. */
int sw_matrix_write(struct sw *w, const double tol[2]);

#endif

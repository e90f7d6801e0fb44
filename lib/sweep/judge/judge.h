/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's verdict (pure): the run's noise and resolution, the typical
 * link, the rules a link is judged by (its peers, a baseline, an expected
 * figure); the suspects named from the outliers are judge_suspects.h's.
 */
#ifndef CXD_SWEEP_JUDGE_H
#define CXD_SWEEP_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sweep/model/lclass.h"
#include "sweep/model/pairs.h"

/* With no --min-bw/--max-lat a link is judged against its peers by the
 * run's own noise: NOISE_K sigmas, never under the floor. A tolerance over
 * the "poor" mark means the run cannot tell a lane-down link (-25 %) from
 * a healthy one, and the verdict says so. */
#define CXD_JUDGE_NOISE_K 4.0
#define CXD_JUDGE_BW_FLOOR 0.10
#define CXD_JUDGE_LAT_FLOOR 1.00
/* A lane down must lie clearly beyond the bandwidth tolerance: on a busy
 * host the typical link sinks too, and at 20 % a 3/4-rate uplink passed
 * as healthy (load 3 on 2 cores). */
#define CXD_JUDGE_BW_POOR 0.15
#define CXD_JUDGE_LAT_POOR 2.00
/* A pair during which either rank waited for a CPU over this share of the
 * time measured the host: its links are not judged on that measurement.
 * Two ranks sharing one CPU each wait about half of the time (47-77 % in
 * the retests of 8 ranks on 2 loaded cores, latency 2.5 times typical),
 * and a median moves only when over half of its samples were taken so: a
 * wait over a quarter of the time. 20 % leaves room for sharing that fell
 * on one metric, and is far above a quiet pair's 2-3 %. (At 50 % pairs
 * that waited 49 % were judged, and failed.) */
#define CXD_JUDGE_BUSY_MAX 0.20

/* Relative pairwise differences of k repeats: |x_i - x_j| / median. */
size_t cxd_judge_rel_diffs(const double *x, size_t k, double *out);
/* Median of relative pairwise differences -> sigma: for normal noise the
 * median of |X - Y| is 0.954 sigma. NAN in, NAN out. */
double cxd_judge_sigma(double median_rel_diff);
/* The typical link: the median over ranks of each rank's median link (its
 * row). A slow rank spoils its own row only, so this holds while fewer
 * than half of the ranks are slow, where a median over links does not
 * (at 4 ranks one slow rank owns half the links). */
double cxd_judge_typical(const double *m, int n);

/* One metric's rule against the run's peers. */
struct cxd_tol {
	/* A poor tolerance judges no link against its peers: differences
	 * under it are the host's or the fabric's noise, not a link's. */
	double noise;   /* relative sigma from the repeats; NAN: unknown */
	double tol;     /* relative tolerance judged by (0.1 = 10 %) */
	bool explicit_; /* --min-bw/--max-lat gave it */
	bool poor;      /* from the noise, and too wide to catch a lane down */
	/* Pairs measured alone did better than in their rounds by more
	 * than the tolerance (crowd, below): the round's pairs shared links
	 * or CPUs, so no link is judged against its peers (poor). */
	bool crowded;
	double crowd;   /* how much better alone - 1 (bandwidth alone / in
			 * the round, latency in the round / alone), the
			 * median; NAN: not tried */
	int crowd_pairs; /* the pairs measured alone */
	/* The same per class of link (lclass.h); crowded when any class
	 * is faster alone by more than the tolerance the noise did not
	 * widen: crowding raises the noise, and must not hide in it. */
	double crowd_of[CXD_LC_N];
	int crowd_pairs_of[CXD_LC_N];
};

/* pct: --min-bw (bandwidth) or --max-lat (latency), 0 when not given. */
struct cxd_tol cxd_judge_tol(enum cxd_metric m, double noise, uint64_t pct);
/* Metric m's pairs measured alone (calibration) against the same pairs
 * in their rounds: ratio[i] how much better alone (bandwidth alone / in
 * the round, latency in the round / alone), NAN skipped, cls[i] its
 * class (enum cxd_lclass; -1 none; cls NULL: all one). Sets t->crowd
 * and t->crowd_pairs (all), the same per class, and t->crowded and
 * t->poor when some class's pairs did better alone by more than the
 * tolerance without the noise (--min-bw's or --max-lat's, or the
 * floor). */
void cxd_judge_crowd(struct cxd_tol *t, enum cxd_metric m,
		     const double *ratio, const int *cls, size_t n);
/* Is a relative tolerance of m too wide to see a lane down? */
bool cxd_judge_poor(enum cxd_metric m, double tol);


enum cxd_reason {
	CXD_R_PEERS = 1,    /* against the typical link */
	CXD_R_BASELINE = 2, /* against the same link in --baseline */
	CXD_R_EXPECT = 4,   /* against --expect-bw/--expect-lat */
};

/* What a link is judged against; pointers may be NULL. */
struct cxd_rules {
	int n;
	double typical[2];       /* per metric (enum cxd_metric) */
	/* Latency's typical link per class of link (NAN: none): a pair
	 * across groups crosses more hops than one on a switch, so each is
	 * judged against its own kind. sw, grp: the placement (this rank's
	 * pointers, NULL: none), as lclass.h takes it. */
	double lat_typical_of[CXD_LC_N];
	/* --budget: bandwidth's too. A covering plan holds far more pairs
	 * on one switch, for its size, than the job does, so its median is
	 * not the job's: where a pair between groups runs slower than one
	 * on a switch by the fabric's design (a global cable narrower than
	 * a node link), the plan's would make every such pair an outlier.
	 * The full sweep's median is its most numerous class's. */
	double bw_typical_of[CXD_LC_N];
	bool bw_by_class;
	/* Classes whose lone pair the stated widths let run at full rate
	 * and whose typical pair ran below a pair on one switch beyond the
	 * tolerance (judge_full.h): their bandwidth is held to a pair on one
	 * switch (bw_typical_of[CXD_LC_SWITCH]). */
	bool bw_full[CXD_LC_N];
	const int *sw, *grp;
	struct cxd_tol tol[2];
	/* n x n, NAN where no match; NULL: none. With base_row, the row of
	 * one rank only (a rank judging its own links). */
	const double *base[2];
	bool base_row;
	double base_tol[2];      /* the baseline's own tolerance, 0: none */
	/* The baseline's own tolerance is poor (its run could not vouch
	 * for a link): no link is judged against it on that metric, and
	 * the verdict cannot be PASS. */
	bool base_poor[2];
	double expect[2];        /* absolute floor (bw) / ceiling (lat); 0 */
};

/* The sweep result's section of the judging (out_types.h): the rules
 * the links were judged by, and what the retest measured again. */
struct cxd_sweep_judged {
	const struct cxd_rules *rules;
	/* The pairs measured again to confirm the outliers (0: none), and
	 * in which metrics: bit 1 << CXD_M_BW, 1 << CXD_M_LAT. */
	int retest_pairs;
	unsigned retest_metrics;
	/* The main pass's pair measurements counted from each end (sides),
	 * and those where that end waited for a CPU over
	 * CXD_JUDGE_BUSY_MAX of the time (busy_sides). */
	int sides, busy_sides;
};

/* Too busy a host to vouch for the links: where over half the main
 * pass's measurements waited for a CPU, the typical link (a median) may
 * be the CPU's rate, not the fabric's, and a slow link (a lane down)
 * would measure as typical: no link standing out proves nothing. Under
 * half, the typical is a measurement that did not wait. */
bool cxd_judge_too_busy(const struct cxd_sweep_judged *j);

/* The typical link that link (src, dst) is judged against in metric m:
 * latency's of its class where known (bandwidth's too under --budget),
 * else the run's; for bandwidth in a class of bw_full, at least a pair
 * on one switch. */
double cxd_judge_typical_for(const struct cxd_rules *r, enum cxd_metric m,
			     int src, int dst);
/* The tolerance links are judged by against the baseline: the wider of
 * the two runs'. */
double cxd_judge_baseline_tol(const struct cxd_rules *r, enum cxd_metric m);
/* Which rules value v of link (src, dst) breaks (CXD_R_* bits); a value
 * that could not be measured breaks CXD_R_PEERS. */
unsigned cxd_judge_link(const struct cxd_rules *r, enum cxd_metric m,
			int src, int dst, double v);
/* The reference and limit of the first rule in bits (expect, baseline,
 * peers): what the report shows beside the value. */
void cxd_judge_limit(const struct cxd_rules *r, enum cxd_metric m, int src,
		     int dst, unsigned bits, double *ref, double *limit);
const char *cxd_judge_reason_name(unsigned bits); /* the first rule's name */

/* Flag every link of m (n x n) by the rules: the count of outliers, the
 * first cap of them written to out. */
size_t cxd_judge_flag(const struct cxd_rules *r, const double *m,
		      enum cxd_metric metric, struct cxd_outlier *out,
		      size_t cap);
/* The same for one rank's links: row[j] is link (src, j). */
size_t cxd_judge_flag_row(const struct cxd_rules *r, const double *row,
			  enum cxd_metric metric, int src,
			  struct cxd_outlier *out, size_t cap);
/*
 * After the retest: the outliers whose retest breaks a rule too come
 * first (the count is returned); those whose retest ran while a rank
 * waited for a CPU over CXD_JUDGE_BUSY_MAX of the time (or, for bandwidth,
 * long enough to explain its shortfall: cxd_judge_held) follow (*nbusy):
 * not judged, the host was busy. busy: n x n, rank i's share of waiting
 * during its retest with j at [i * n + j] (NAN: unknown), or NULL when
 * each outlier's busy share is set already.
 */
size_t cxd_judge_confirm(const struct cxd_rules *r, struct cxd_outlier *o,
			 size_t n, const double *busy, size_t *nbusy);
/* The link's busy share: the larger of its two ranks' (of two shares,
 * either unknown: NAN). */
double cxd_judge_busy(const double *busy, int n, int src, int dst);
double cxd_judge_busier(double a, double b);
/* Was the outlier held back as not judged (its retest's CPU wait: over
 * CXD_JUDGE_BUSY_MAX, or for bandwidth as much as the link fell short)? */
bool cxd_judge_held(const struct cxd_outlier *o);

#endif

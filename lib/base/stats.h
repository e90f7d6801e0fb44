/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency statistics: exact min/max/mean/stddev, percentiles from a
 * log-linear histogram so memory stays bounded in duration mode. */
#ifndef CXD_STATS_H
#define CXD_STATS_H

#include <stdint.h>

/*
 * Values below 2^CXD_HIST_EXACT_BITS ns land in exact buckets; above,
 * each power of two is split into 2^CXD_HIST_SUB_BITS buckets, so a
 * percentile is within 1/128 (0.8 %) of the true sample.
 */
#define CXD_HIST_EXACT_BITS 8
#define CXD_HIST_SUB_BITS 7
#define CXD_HIST_BUCKETS \
	((1u << CXD_HIST_EXACT_BITS) + \
	 (64 - CXD_HIST_EXACT_BITS) * (1u << CXD_HIST_SUB_BITS))

struct cxd_lat_stats {
	uint64_t n;
	uint64_t min_ns, max_ns;
	long double sum, sum2;
	uint64_t hist[CXD_HIST_BUCKETS];
};

void cxd_stats_reset(struct cxd_lat_stats *s);
void cxd_stats_add(struct cxd_lat_stats *s, uint64_t ns);
/* Integer ns, truncated as the originals print them; 0 when n == 0. */
uint64_t cxd_stats_mean_ns(const struct cxd_lat_stats *s);
/* Population standard deviation (divide by n). */
uint64_t cxd_stats_stddev_ns(const struct cxd_lat_stats *s);
/*
 * Nearest-rank percentile (smallest sample with at least p % of samples
 * at or below it), p in (0, 100]. Exact for values below 256 ns; above,
 * the midpoint of the histogram bucket, clamped to [min, max].
 */
uint64_t cxd_stats_percentile_ns(const struct cxd_lat_stats *s, double p);

/* Bucket helpers, exposed for tests. */
unsigned cxd_hist_bucket(uint64_t ns);
uint64_t cxd_hist_bucket_low(unsigned b);
uint64_t cxd_hist_bucket_width(unsigned b);

#endif

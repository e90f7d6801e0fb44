/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every figure a result shows is computed here from what the runners
 * count and time; report.c only formats them. MB = 10^6 bytes. One step
 * happens where a sample is taken instead: a ping-pong's round trip is
 * halved in run/run_lat.c, so that each stored sample (percentiles,
 * --report-all) is one operation's latency.
 */
#include <string.h>

#include "report/report.h"

#define CXD_MTU 2048 /* the originals count packets of 2048 bytes */

static double per_us(uint64_t amount, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double) amount / ((double) elapsed_ns / 1e3) : 0.0;
}

uint64_t cxd_packets(bool one_per_op, uint64_t size)
{
	return one_per_op ? 1 : (size - 1) / CXD_MTU + 1;
}

/* Each side's rate over its own span, summed, as the originals add them. */
void cxd_bw_combine(struct cxd_result *res, uint64_t pkts_per_op,
		    const struct cxd_span *mine, const struct cxd_span *peer)
{
	const struct cxd_span *sides[2] = { mine, peer };

	res->bw_mb_s = 0.0;
	res->rate_m_s = 0.0;
	for (int i = 0; i < 2; i++) {
		if (sides[i] == NULL)
			continue;
		res->bw_mb_s += per_us(res->size * sides[i]->count,
				       sides[i]->elapsed_ns);
		res->rate_m_s += per_us(sides[i]->count * pkts_per_op,
					sides[i]->elapsed_ns);
	}
}

void cxd_result_figures(const struct cxd_result *res, struct cxd_figures *f)
{
	const struct cxd_lat_stats *s = res->lat, *g = res->gaps;

	memset(f, 0, sizeof(*f));
	f->elapsed_us = res->elapsed_ns / 1000.0;
	f->bw_mb_s = res->bw_mb_s;
	f->bw_gb_s = res->bw_mb_s * 8 / 1000; /* bits, 10^9 */
	f->rate_m_s = res->rate_m_s;
	if (s != NULL) {
		f->lat_ns[0] = s->min_ns;
		f->lat_ns[1] = s->max_ns;
		f->lat_ns[2] = cxd_stats_mean_ns(s);
		f->lat_ns[3] = cxd_stats_stddev_ns(s);
		f->lat_ns[4] = cxd_stats_percentile_ns(s, 50);
		f->lat_ns[5] = cxd_stats_percentile_ns(s, 90);
		f->lat_ns[6] = cxd_stats_percentile_ns(s, 99);
		f->lat_ns[7] = cxd_stats_percentile_ns(s, 99.9);
	}
	f->has_gaps = g != NULL && g->n > 0;
	if (f->has_gaps) {
		f->gap_ns[0] = g->min_ns;
		f->gap_ns[1] = cxd_stats_percentile_ns(g, 50);
		f->gap_ns[2] = cxd_stats_mean_ns(g);
		f->gap_ns[3] = g->max_ns;
	}
}

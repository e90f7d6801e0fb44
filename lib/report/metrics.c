/* SPDX-License-Identifier: BSD-3-Clause */
/* The pair tools' --metrics file (metrics.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/afile.h"
#include "base/openmetrics.h"
#include "metrics.h"

#define LAT_NAMES { "min", "max", "mean", "stddev", "p50", "p90", "p99", \
		    "p99.9" }

struct row {
	uint64_t size;
	struct cxd_figures f;
	bool lat;
};

struct cxd_metrics {
	const char *path;
	char tool[CXD_NAME_LEN], provider[CXD_NAME_LEN], peer[160];
	bool lat, server;
	struct row *r;
	size_t n;
	struct { bool on, lat, pass; double bound; unsigned missed; } gate;
};

struct cxd_metrics *cxd_metrics_new(const struct cxd_tool *tool,
				    const struct cxd_cfg *cfg,
				    const struct cxd_summary_info *info)
{
	struct cxd_metrics *m;
	char *colon;

	if (cfg->out.metrics[0] == '\0' || !(m = calloc(1, sizeof(*m))))
		return NULL;
	m->path = cfg->out.metrics;
	m->lat = cxd_tool_is(tool, CXD_TRAIT_SAMPLES);
	m->server = info->is_server;
	snprintf(m->tool, sizeof(m->tool), "%s", tool->name);
	snprintf(m->provider, sizeof(m->provider), "%s", info->provider);
	/* The peer's host, not the port a run happened to get. */
	snprintf(m->peer, sizeof(m->peer), "%s", info->peer[0] ? info->peer :
		 "self");
	colon = strrchr(m->peer, ':');
	if (colon && info->peer[0] && !strchr(colon, ']'))
		*colon = '\0';
	return m;
}

int cxd_metrics_add(struct cxd_metrics *m, const struct cxd_result *res)
{
	struct row *grown;

	if (m == NULL)
		return -ENOMEM;
	grown = realloc(m->r, (m->n + 1) * sizeof(*m->r));
	if (grown == NULL)
		return -ENOMEM;
	m->r = grown;
	m->r[m->n].size = res->size;
	m->r[m->n].lat = res->lat != NULL;
	cxd_result_figures(res, &m->r[m->n].f);
	m->n++;
	return 0;
}

/* NAME{tool=..,provider=..,peer=..[,size=..] */
static void start(FILE *f, const struct cxd_metrics *m, const char *name,
		  const struct row *r)
{
	cxd_om_sample(f, name);
	cxd_om_label(f, "tool", m->tool);
	fputc(',', f);
	cxd_om_label(f, "provider", m->provider);
	fputc(',', f);
	cxd_om_label(f, "peer", m->peer);
	if (r)
		fprintf(f, ",size=\"%llu\"", (unsigned long long) r->size);
}

static void bandwidth(FILE *f, const struct cxd_metrics *m)
{
	cxd_om_gauge(f, "cxd_pair_bandwidth_bytes_per_second", "Bandwidth of a "
		     "message size as the tool reports it (MB/s x 10^6).");
	for (size_t i = 0; i < m->n; i++) {
		start(f, m, "cxd_pair_bandwidth_bytes_per_second", &m->r[i]);
		fprintf(f, "} %.9g\n", m->r[i].f.bw_mb_s * 1e6);
	}
	cxd_om_gauge(f, "cxd_pair_rate_per_second", "Packets (atomics: "
		     "operations) per second of a message size.");
	for (size_t i = 0; i < m->n; i++) {
		start(f, m, "cxd_pair_rate_per_second", &m->r[i]);
		fprintf(f, "} %.9g\n", m->r[i].f.rate_m_s * 1e6);
	}
}

static void latency(FILE *f, const struct cxd_metrics *m)
{
	static const char *const stat[CXD_LAT_FIGURES] = LAT_NAMES;

	cxd_om_gauge(f, "cxd_pair_latency_seconds", "Latency of a message "
		     "size: min, max, mean, stddev and percentiles (stat).");
	for (size_t i = 0; i < m->n; i++) {
		if (!m->r[i].lat)
			continue;
		for (int k = 0; k < CXD_LAT_FIGURES; k++) {
			start(f, m, "cxd_pair_latency_seconds", &m->r[i]);
			fprintf(f, ",stat=\"%s\"} %.9g\n", stat[k],
				(double) m->r[i].f.lat_ns[k] * 1e-9);
		}
	}
}

void cxd_metrics_gate(struct cxd_metrics *m, bool lat, double bound,
		      bool pass, unsigned missed)
{
	if (m == NULL)
		return;
	m->gate.on = true;
	m->gate.lat = lat;
	m->gate.bound = bound;
	m->gate.pass = pass;
	m->gate.missed = missed;
}

/* The gate's families, in base units as the figures: a dashboard puts
 * the bound beside the figures, an alert fires on the pass gauge. */
static void gate(FILE *f, const struct cxd_metrics *m)
{
	const char *bound = m->gate.lat ? "cxd_pair_gate_max_latency_seconds" :
		"cxd_pair_gate_min_bandwidth_bytes_per_second";

	if (!m->gate.on)
		return;
	cxd_om_gauge(f, "cxd_pair_gate_pass", "1 when every size met the gate "
		     "(--expect-bw or --expect-lat), 0 when one missed it.");
	start(f, m, "cxd_pair_gate_pass", NULL);
	fprintf(f, "} %d\n", m->gate.pass ? 1 : 0);
	if (m->gate.lat)
		cxd_om_gauge(f, bound, "The gate's bound on each size's median "
			     "latency (--expect-lat).");
	else
		cxd_om_gauge(f, bound, "The gate's bound on each size's "
			     "bandwidth (--expect-bw, MB/s x 10^6).");
	start(f, m, bound, NULL);
	fprintf(f, "} %.9g\n", m->gate.bound * (m->gate.lat ? 1e-6 : 1e6));
	cxd_om_gauge(f, "cxd_pair_gate_sizes_missed", "Message sizes that "
		     "missed the gate's bound.");
	start(f, m, "cxd_pair_gate_sizes_missed", NULL);
	fprintf(f, "} %u\n", m->gate.missed);
}

int cxd_metrics_write(struct cxd_metrics *m, char *err, size_t len)
{
	struct cxd_afile a;
	int ret;

	if (m == NULL) {
		snprintf(err, len, "cannot keep the metrics: out of memory");
		return -ENOMEM;
	}
	ret = cxd_afile_open(&a, m->path, "metrics", err, len);
	if (ret)
		return ret;
	if (m->lat)
		latency(a.f, m);
	else
		bandwidth(a.f, m);
	cxd_om_gauge(a.f, "cxd_pair_sizes", "Message sizes measured.");
	start(a.f, m, "cxd_pair_sizes", NULL);
	fprintf(a.f, "} %zu\n", m->n);
	gate(a.f, m);
	cxd_om_gauge(a.f, "cxd_pair_end_time_seconds", "When the run ended "
		     "(Unix time): a stale file shows.");
	start(a.f, m, "cxd_pair_end_time_seconds", NULL);
	fprintf(a.f, "} %lld\n", (long long) time(NULL));
	return cxd_afile_commit(&a, err, len);
}

void cxd_metrics_free(struct cxd_metrics *m)
{
	if (m == NULL)
		return;
	free(m->r);
	free(m);
}

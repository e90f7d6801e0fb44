/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's files for site tooling: OpenMetrics text for Prometheus'
 * node_exporter textfile collector (--metrics), and the suspect hosts one
 * per line for scontrol (--suspects). Base units as Prometheus asks:
 * bytes per second (MB = 10^6 B) and seconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/afile.h"
#include "base/openmetrics.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/judge/judge_suspects.h"
#include "out_cap.h"
#include "out_files.h"
#include "out_text.h"
#include "out_types.h"
#include "verdict.h"

static void end_rank(FILE *f, const char *side, int rank,
		     const struct cxd_sweep_rank *x)
{
	char key[16];

	snprintf(key, sizeof(key), "%s_host", side);
	cxd_om_label(f, key, x->host);
	snprintf(key, sizeof(key), "%s_nic", side);
	fputc(',', f);
	cxd_om_label(f, key, x->nic);
	fprintf(f, ",%s_rank=\"%d\"", side, rank);
}

static void links(const struct cxd_sweep_res *r, FILE *f, enum cxd_metric m)
{
	const double *v = m == CXD_M_BW ? r->links.bw : r->links.lat;
	double scale = m == CXD_M_BW ? 1e6 : 1e-6;

	if (v == NULL)
		return;
	if (m == CXD_M_BW)
		cxd_om_gauge(f, "cxi_sweep_link_bandwidth_bytes_per_second",
			     "One way bandwidth of a link, the median of its "
			     "repeats.");
	else
		cxd_om_gauge(f, "cxi_sweep_link_latency_seconds", "8-byte "
			     "write latency of a link, the median of its "
			     "repeats.");
	for (int i = 0; i < r->run.n; i++)
		for (int j = 0; j < r->run.n; j++) {
			double x = v[(size_t) i * r->run.n + j];

			if (i == j || !isfinite(x))
				continue;
			cxd_om_sample(f, m == CXD_M_BW ?
				"cxi_sweep_link_bandwidth_bytes_per_second" :
				"cxi_sweep_link_latency_seconds");
			end_rank(f, "src", i, &r->run.ranks[i]);
			fputc(',', f);
			end_rank(f, "dst", j, &r->run.ranks[j]);
			fprintf(f, "} %.9g\n", x * scale);
		}
}

static void outliers(const struct cxd_sweep_res *r, FILE *f)
{
	cxd_om_gauge(f, "cxi_sweep_link_outlier", "1 for a link out of "
		     "tolerance (confirmed by a retest); reason: the rule it "
		     "broke.");
	for (size_t i = 0; i < r->outliers.nout; i++) {
		const struct cxd_outlier *o = &r->outliers.out[i];

		cxd_om_sample(f, "cxi_sweep_link_outlier");
		end_rank(f, "src", o->src, &r->run.ranks[o->src]);
		fputc(',', f);
		end_rank(f, "dst", o->dst, &r->run.ranks[o->dst]);
		fprintf(f, ",metric=\"%s\",reason=\"%s\"} 1\n",
			o->metric == CXD_M_BW ? "bandwidth" : "latency",
			cxd_judge_reason_name(o->why));
	}
}

/* Each rank's median link: the per-node view at any scale. */
static void rank_medians(const struct cxd_sweep_res *r, FILE *f,
			 enum cxd_metric m)
{
	const char *name = m == CXD_M_BW ?
		"cxi_sweep_rank_bandwidth_bytes_per_second" :
		"cxi_sweep_rank_latency_seconds";

	if (r->links.rank_med == NULL)
		return;
	cxd_om_gauge(f, name, m == CXD_M_BW ?
		     "Median one way bandwidth of a rank's links to the "
		     "others." :
		     "Median 8-byte write latency of a rank's links to the "
		     "others.");
	for (int i = 0; i < r->run.n; i++) {
		double x = r->links.rank_med[2 * i + m];

		if (!isfinite(x))
			continue;
		cxd_om_sample(f, name);
		cxd_om_label(f, "host", r->run.ranks[i].host);
		fputc(',', f);
		cxd_om_label(f, "nic", r->run.ranks[i].nic);
		fprintf(f, ",rank=\"%d\"} %.9g\n", i,
			x * (m == CXD_M_BW ? 1e6 : 1e-6));
	}
}

static void ranks(const struct cxd_sweep_res *r, FILE *f)
{
	cxd_om_gauge(f, "cxi_sweep_rank_suspect", "1 when the verdict names "
		     "this rank (alone, or by its switch or group) as a "
		     "suspect.");
	for (int i = 0; i < r->run.n; i++) {
		cxd_om_sample(f, "cxi_sweep_rank_suspect");
		cxd_om_label(f, "host", r->run.ranks[i].host);
		fputc(',', f);
		cxd_om_label(f, "nic", r->run.ranks[i].nic);
		fprintf(f, ",rank=\"%d\"} %d\n", i, cxd_out_rank_suspect(r, i));
	}
}

static void summary(const struct cxd_sweep_res *r, FILE *f)
{
	static const char *const mname[2] = { "bandwidth", "latency" };
	enum cxd_verdict v[] = { CXD_V_PASS, CXD_V_FAIL, CXD_V_INCONCLUSIVE };

	cxd_om_gauge(f, "cxi_sweep_tolerance_ratio", "Relative tolerance links "
		     "were judged by against the typical link (0.1: 10 %).");
	for (int m = 0; m < 2; m++)
		fprintf(f, "cxi_sweep_tolerance_ratio{metric=\"%s\"} %.6g\n",
			mname[m], r->judged.rules->tol[m].tol);
	cxd_om_gauge(f, "cxi_sweep_noise_ratio", "Relative noise (sigma) "
		     "between repeats of a link.");
	for (int m = 0; m < 2; m++)
		if (isfinite(r->judged.rules->tol[m].noise))
			fprintf(f, "cxi_sweep_noise_ratio{metric=\"%s\"} "
				"%.6g\n", mname[m],
				r->judged.rules->tol[m].noise);
	cxd_om_gauge(f, "cxi_sweep_verdict", "1 for the sweep's verdict, 0 for "
		     "the others.");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		fprintf(f, "cxi_sweep_verdict{verdict=\"%s\"} %d\n",
			cxd_verdict_name(v[i]), r->verdict == v[i]);
	cxd_om_gauge(f, "cxi_sweep_ranks", "Ranks in the sweep.");
	fprintf(f, "cxi_sweep_ranks %d\n", r->run.n);
	cxd_om_gauge(f, "cxi_sweep_duration_seconds",
		     "How long the sweep took.");
	fprintf(f, "cxi_sweep_duration_seconds %.3f\n", r->rounds.total_s);
	cxd_om_gauge(f, "cxi_sweep_end_time_seconds", "When the sweep ended "
		     "(Unix time): a stale file shows.");
	fprintf(f, "cxi_sweep_end_time_seconds %lld\n",
		(long long) time(NULL));
}

int cxd_out_write(const char *path, const char *what,
		  cxd_out_body_fn *body, const void *arg, char *err,
		  size_t errlen)
{
	struct cxd_afile a;
	int ret = cxd_afile_open(&a, path, what, err, errlen);

	if (ret)
		return ret;
	body(arg, a.f);
	return cxd_afile_commit(&a, err, errlen);
}

static void metrics_body(const void *arg, FILE *f)
{
	const struct cxd_sweep_res *r = arg;

	summary(r, f);
	ranks(r, f);
	rank_medians(r, f, CXD_M_BW);
	rank_medians(r, f, CXD_M_LAT);
	links(r, f, CXD_M_BW);
	links(r, f, CXD_M_LAT);
	outliers(r, f);
	cxd_out_cap_metrics(r, f);
	cxd_om_eof(f);
}

int cxd_out_metrics(const struct cxd_sweep_res *r, const char *path,
		    char *err, size_t errlen)
{
	return cxd_out_write(path, "metrics", metrics_body, r, err, errlen);
}

/* Why a host is suspect, in words fit for Slurm's drain reason: one
 * line, no tab or double quote (scontrol's reason="..."). */
static void reason(const struct cxd_sweep_res *r, int rank, FILE *f)
{
	char buf[CXD_OUT_NAME_LEN + 160], name[CXD_OUT_NAME_LEN];
	const struct cxd_suspect *s = NULL;
	const struct cxd_suspect_row *row;

	for (size_t i = 0; i < r->suspects.n && s == NULL; i++)
		if (cxd_judge_rank_suspect(&r->suspects.list[i], 1, rank,
					   r->in.tmap))
			s = &r->suspects.list[i];
	if (s == NULL)
		return;
	row = cxd_judge_kind(s->kind);
	if (row->shape == CXD_SHAPE_RANK)
		snprintf(name, sizeof(name), "rank %d %s", s->id,
			 r->run.ranks[s->id].nic);
	else
		cxd_out_suspect_name(r, s, name, sizeof(name));
	/* not named alone: another component (its switch) may be the
	 * fault, and a drain should not take the node on this word alone */
	snprintf(buf, sizeof(buf), "cxi_sweep %s: %d of %d links %s%s%s",
		 name, s->bad, s->links, cxd_judge_where(s),
		 s->metric == CXD_M_BW ? "slow" : "high in latency",
		 s->nalike ? ", not told apart from another component" : "");
	for (char *c = buf; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '"')
			*c = ' ';
	fprintf(f, "\t%s", buf);
}

/* HOST<TAB>REASON per line: read into scontrol update nodename=HOST
 * state=drain reason="REASON" (docs/site.md). */
static void suspects_body(const void *arg, FILE *f)
{
	const struct cxd_sweep_res *r = arg;

	/* Each host once, even with several suspect NICs or metrics. */
	for (int i = 0; i < r->run.n; i++) {
		const char *host = r->run.ranks[i].host;
		bool seen = false;

		if (!cxd_out_rank_suspect(r, i))
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(r->run.ranks[j].host, host) == 0 &&
			       cxd_out_rank_suspect(r, j);
		if (seen)
			continue;
		fprintf(f, "%s", host);
		reason(r, i, f);
		fputc('\n', f);
	}
}

int cxd_out_suspects(const struct cxd_sweep_res *r, const char *path,
		     char *err, size_t errlen)
{
	return cxd_out_write(path, "suspects", suspects_body, r, err, errlen);
}

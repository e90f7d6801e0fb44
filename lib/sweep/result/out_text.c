/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's text report: figures, resolution, outliers, suspects. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/model/baseline.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_kinds.h"
#include "sweep/judge/judge_suspects.h"
#include "out_budget.h"
#include "out_cap.h"
#include "out_lat.h"
#include "out_sched.h"
#include "out_text.h"
#include "out_text_res.h"
#include "out_types.h"
#include "sweep/model/topo_types.h"
#include "verdict.h"

static const char *const noun[2] = { "bandwidth", "latency" };
static const char *const unit[2] = { "MB/s", "us" };

static int count_in(const struct cxd_sweep_res *r, const struct cxd_suspect *s,
		    char *buf, size_t len)
{
	size_t n = 0;
	int k = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->run.n; i++) {
		if (!cxd_judge_rank_suspect(s, 1, i, r->in.tmap))
			continue;
		if (n < len)
			n += (size_t) snprintf(buf + n, len - n, "%s%d",
					       k ? ", " : "", i);
		k++;
	}
	return k;
}

/* The topology's name of set id at a level. */
static const char *set_name(const struct cxd_topo *t,
			    enum cxd_suspect_level l, int id)
{
	return l == CXD_LEVEL_SWITCH ? t->switch_name[id] : t->group_name[id];
}

void cxd_out_suspect_name(const struct cxd_sweep_res *r,
			  const struct cxd_suspect *s, char *buf, size_t len)
{
	const struct cxd_suspect_row *row = cxd_judge_kind(s->kind);
	const struct cxd_sweep_rank *x = &r->run.ranks[s->id];
	const char *part;
	char ranks[128];
	int k;

	switch (row->shape) {
	case CXD_SHAPE_RANK:
		snprintf(buf, len, "%s (rank %d, %s)", x->host, s->id, x->nic);
		break;
	case CXD_SHAPE_SET:
		k = count_in(r, s, ranks, sizeof(ranks));
		part = s->kind == CXD_S_SWITCH ? cxd_judge_switch_links(s->id2) :
						 NULL;
		snprintf(buf, len, "%s %s (%s%s%s%s%s)", row->name,
			 set_name(r->in.topo, row->level, s->id),
			 k == 0 ? "" : k == 1 ? "rank " : "ranks ", ranks,
			 k && part ? "; " : "", part ? part : "",
			 !k && !part ? "no rank" : "");
		break;
	case CXD_SHAPE_PAIR:
		snprintf(buf, len, "%s %s and %s", row->title,
			 set_name(r->in.topo, row->level, s->id),
			 set_name(r->in.topo, row->level, s->id2));
		break;
	case CXD_SHAPE_CAP:
		cxd_out_cap_name(r, &r->cap->found[s->cap], buf, len);
		break;
	default:
		snprintf(buf, len, "%s", row->title);
		break;
	}
}

bool cxd_out_rank_suspect(const struct cxd_sweep_res *r, int i)
{
	return cxd_judge_rank_suspect(r->suspects.list, r->suspects.n, i,
				      r->in.tmap);
}

void cxd_out_alike_name(const struct cxd_sweep_res *r,
			const struct cxd_alike *a, char *buf, size_t len)
{
	const struct cxd_suspect_row *row = cxd_judge_kind(a->kind);
	const char *part = a->kind == CXD_S_SWITCH ?
			   cxd_judge_switch_links(a->id2) : NULL;

	if (row->shape == CXD_SHAPE_SET)
		snprintf(buf, len, "%s %s%s%s%s", row->name,
			 set_name(r->in.topo, row->level, a->id),
			 part ? " (" : "", part ? part : "", part ? ")" : "");
	else if (row->shape == CXD_SHAPE_PAIR)
		snprintf(buf, len, "%s %s and %s", row->title,
			 set_name(r->in.topo, row->level, a->id),
			 set_name(r->in.topo, row->level, a->id2));
	else if (row->shape == CXD_SHAPE_RANK)
		snprintf(buf, len, "%s (rank %d)", r->run.ranks[a->id].host,
			 a->id);
	else
		snprintf(buf, len, "%s", row->title);
}

/* Where no measured pair separates the suspect from other components,
 * the report says so rather than guess. */
static void alike(const struct cxd_sweep_res *r, const struct cxd_suspect *s,
		  FILE *out)
{
	char name[CXD_OUT_NAME_LEN];

	if (s->nalike == 0)
		return;
	fprintf(out, "      cannot be told apart from");
	for (int i = 0; i < s->nalike; i++) {
		cxd_out_alike_name(r, &s->alike[i], name, sizeof(name));
		fprintf(out, "%s %s", i ? "," : "", name);
	}
	if (s->more_alike)
		fprintf(out, " and %d more", s->more_alike);
	fprintf(out, "%s\n", s->maybe ?
		": its bad pairs may take any of them (the fabric's hash "
		"picks the way, unknown here)" :
		": no measured pair crosses one and not the other");
}

static void stat_line(FILE *out, const char *name, const char *u,
		      const struct cxd_sweep_stat *st)
{
	fprintf(out, "%-14s min %10.2f  median %10.2f  max %10.2f %s\n", name,
		st->min, st->med, st->max, u);
}

static void worst_links(const struct cxd_sweep_res *r, FILE *out,
			enum cxd_metric m)
{
	const struct cxd_sweep_stat *st = &r->links.stat[m];

	fprintf(out, "%s", m == CXD_M_BW ? "Lowest bandwidth:" :
					   "Highest latency: ");
	for (int j = 0; j < st->nworst; j++)
		fprintf(out, "%s %s(%d)->%s(%d) %.2f", j ? "," : "",
			r->run.ranks[st->worst[j].src].host, st->worst[j].src,
			r->run.ranks[st->worst[j].dst].host, st->worst[j].dst,
			st->worst[j].v);
	fprintf(out, "\n");
}

static void baseline(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_baseline *b = r->in.base;

	if (b == NULL)
		return;
	fprintf(out, "Baseline: %s: %d of %d ranks matched by %s\n", b->path,
		b->matched, r->run.n, b->by);
	for (int i = 0; i < b->nnotes; i++)
		fprintf(out, "  differs: %s\n", b->notes[i]);
	for (int m = 0; m < 2; m++)
		if (cxd_verdict_baseline_poor(r, m))
			fprintf(out, "  not compared for %s: the baseline's own "
				"tolerance is %.0f %% (its run was too noisy to "
				"vouch for a link)\n", noun[m],
				100 * r->judged.rules->base_tol[m]);
}

/* Is the outlier's link explained by a suspect (one of its ends)? */
static bool explained(const struct cxd_sweep_res *r,
		      const struct cxd_outlier *x)
{
	for (size_t i = 0; i < r->suspects.n; i++)
		if (r->suspects.list[i].metric == x->metric &&
		    cxd_judge_link_suspect(&r->suspects.list[i], 1, x->src,
					   x->dst, r->in.tmap))
			return true;
	return false;
}

static const char *moved(const struct cxd_sweep_res *r, int rank)
{
	return r->moved && r->moved[rank] ? r->moved[rank] : "";
}

/* The counters that moved on either end: the outlier's evidence. */
static void evidence(const struct cxd_sweep_res *r, int a, int b, FILE *out)
{
	if (moved(r, a)[0])
		fprintf(out, "      counters on rank %d: %s\n", a, moved(r, a));
	if (b >= 0 && moved(r, b)[0])
		fprintf(out, "      counters on rank %d: %s\n", b, moved(r, b));
}

/* "vm3:cxi1 (rank 5) -> vm4:cxi0 (rank 6)", and whether both NICs are
 * in one node (a link that leaves no node is not the fabric's). */
static void link_name(const struct cxd_sweep_res *r, int a, int b, FILE *out)
{
	const struct cxd_sweep_rank *x = &r->run.ranks[a];
	const struct cxd_sweep_rank *y = &r->run.ranks[b];

	fprintf(out, "  %s:%s (rank %d) -> %s:%s (rank %d)%s", x->host, x->nic,
		a, y->host, y->nic, b, strcmp(x->host, y->host) == 0 ?
		" [same node]" : "");
}

static void outlier_line(const struct cxd_sweep_res *r,
			 const struct cxd_outlier *x, FILE *out)
{
	int m = x->metric;

	link_name(r, x->src, x->dst, out);
	fprintf(out, ": %s %.2f %s, retest %.2f, %s %.2f (%s %.2f)\n",
		noun[m], x->value, unit[m], x->retest,
		m ? "above" : "below", x->limit,
		x->why & CXD_R_EXPECT ? "expected" : x->why & CXD_R_BASELINE ?
		"baseline" : "typical", x->reference);
	evidence(r, x->src, x->dst, out);
}

#define SHOWN 20

static void outliers(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_sweep_outliers *o = &r->outliers;
	size_t shown = 0, hidden = 0;

	for (size_t i = 0; i < o->nout; i++) {
		if (explained(r, &o->out[i])) {
			hidden++;
			continue;
		}
		if (shown++ == 0)
			fprintf(out, "Outliers (confirmed by a retest):\n");
		if (shown <= SHOWN)
			outlier_line(r, &o->out[i], out);
	}
	if (shown > SHOWN)
		fprintf(out, "  ... and %zu more (all in --json)\n",
			shown - SHOWN);
	if (hidden)
		fprintf(out, "%zu outlying link measurement%s explained by the "
			"suspects below (all in --json)\n", hidden,
			hidden == 1 ? "" : "s");
	if (o->nout_all > o->nout)
		fprintf(out, "%zu more outlying link measurements not listed "
			"(at most %d per rank are gathered; --matrix keeps "
			"every link)\n", o->nout_all - o->nout,
			CXD_SWEEP_LISTED);
}

static void busy(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_sweep_outliers *o = &r->outliers;

	if (o->nbusy_all)
		fprintf(out, "Not judged (a rank waited for a CPU over %.0f %% "
			"of the retest, or as long as the link fell short: the "
			"host was busy, not the link):\n",
			100 * CXD_JUDGE_BUSY_MAX);
	for (size_t i = 0; i < o->nbusy && i < SHOWN; i++) {
		const struct cxd_outlier *x = &o->busy[i];

		link_name(r, x->src, x->dst, out);
		fprintf(out, ": %s %.2f %s, retest %.2f, CPU wait %.0f %%\n",
			noun[x->metric], x->value, unit[x->metric], x->retest,
			100 * x->busy);
	}
	if (o->nbusy_all > SHOWN)
		fprintf(out, "  ... and %zu more (in --json)\n",
			o->nbusy_all - SHOWN);
}

static void suspects(const struct cxd_sweep_res *r, FILE *out)
{
	char name[CXD_OUT_NAME_LEN];

	if (r->suspects.n)
		fprintf(out, "Suspects:\n");
	for (size_t i = 0; i < r->suspects.n; i++) {
		const struct cxd_suspect *s = &r->suspects.list[i];
		const struct cxd_suspect_row *row = cxd_judge_kind(s->kind);
		const char *what = s->metric == CXD_M_BW ? "slow" :
				   "high in latency";

		if (row->shape == CXD_SHAPE_CAP) {
			cxd_out_cap_suspect(r, s, out);
			continue;
		}
		cxd_out_suspect_name(r, s, name, sizeof(name));
		if (s->lat_excess > 0) {
			cxd_out_lat_suspect(r, s, name, out);
			evidence(r, s->id, -1, out);
			continue;
		}
		fprintf(out, "  %s: %d of %d links %s%s", name, s->bad,
			s->links, cxd_judge_where(s), what);
		if (s->maybe) {
			fprintf(out, ": one of the ways the fabric's hash "
				"picks (its ports' counters tell which)\n");
			alike(r, s, out);
			continue;
		}
		if (row->inside)
			fprintf(out, ", %d of %d inside it", s->bad_in, s->in);
		if (s->aside)
			fprintf(out, " (the links of the %d rank%s named for "
				"%s NIC aside)", s->aside, s->aside == 1 ?
				"" : "s", s->aside == 1 ? "its" : "their");
		fprintf(out, "%s\n", row->advice_inside &&
			2 * s->bad_in > s->in ? row->advice_inside :
			row->advice);
		alike(r, s, out);
		if (row->evidence)
			evidence(r, s->id, -1, out);
	}
}

/* Suspect i names what an earlier one named (its other metric). */
static bool named_before(const struct cxd_sweep_res *r, size_t i)
{
	const struct cxd_suspect *s = r->suspects.list, *x = &s[i];

	for (size_t j = 0; j < i; j++)
		if (s[j].kind == x->kind && s[j].id == x->id &&
		    s[j].id2 == x->id2)
			return true;
	return false;
}

/* A suspect named by the latency fit alone (lat_excess). */
static bool lat_fitted(const struct cxd_sweep_res *r)
{
	for (size_t i = 0; i < r->suspects.n; i++)
		if (r->suspects.list[i].lat_excess > 0)
			return true;
	return false;
}

/* FAIL: what broke, then each suspect once. */
static void fail_why(const struct cxd_sweep_res *r, FILE *out)
{
	size_t nout = r->outliers.nout_all;
	char name[CXD_OUT_NAME_LEN];

	if (nout || ((r->cap == NULL || r->cap->nfound == 0) &&
		     !lat_fitted(r)))
		fprintf(out, "%zu link measurement%s out of "
			"tolerance", nout, nout == 1 ? "" : "s");
	else if (lat_fitted(r))
		fprintf(out, "latency over the routes, every link within "
			"its tolerance");
	else
		fprintf(out, "short of capacity, every link at full "
			"rate alone");
	for (size_t i = 0, k = 0; i < r->suspects.n; i++) {
		if (named_before(r, i))
			continue; /* slow and high in latency: once */
		cxd_out_suspect_name(r, &r->suspects.list[i], name,
				     sizeof(name));
		fprintf(out, "%s %s", k++ ? "," : "; suspect:", name);
		/* the first of several alike stands for them: not alone */
		if (r->suspects.list[i].nalike)
			fprintf(out, " or one of %d alike",
				r->suspects.list[i].nalike +
				r->suspects.list[i].more_alike);
	}
	fprintf(out, "\n");
}

/* INCONCLUSIVE: the first reason, in verdict.c's order. */
static void unsure_why(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_rules *rules = r->judged.rules;
	size_t nbusy = r->outliers.nbusy_all;

	if (nbusy)
		fprintf(out, "%zu link "
			"measurement%s could not be retested on a quiet "
			"host\n", nbusy, nbusy == 1 ? "" : "s");
	else if (cxd_judge_too_busy(&r->judged))
		fprintf(out, "no link stands out, but in %d of %d pair "
			"measurements a rank waited for a CPU over %.0f %% "
			"of the time, with a CPU for each of the sweep's "
			"ranks at work: other work on the host, too busy to "
			"vouch for the links' rates\n", r->judged.busy_sides,
			r->judged.sides, 100 * CXD_JUDGE_BUSY_MAX);
	else if (rules->tol[CXD_M_BW].crowded ||
		 rules->tol[CXD_M_LAT].crowded)
		cxd_out_text_crowded_why(r, out);
	else if (r->cap && r->cap->nneeds)
		fprintf(out, "no link stands out, but %d bundle%s or switch "
			"pair%s came short of capacity where only the "
			"fabric's routes could tell which links are narrow "
			"(needs the fabric's links: --topology with link "
			"lines)\n", r->cap->nneeds,
			r->cap->nneeds == 1 ? "" : "s",
			r->cap->nneeds == 1 ? "" : "s");
	else if (r->cap && r->cap->nunproven)
		fprintf(out, "no link stands out, but %d bundle%s or switch "
			"pair%s came short of capacity, and a second load "
			"from other hosts could not load %s as much to clear "
			"%s\n", r->cap->nunproven,
			r->cap->nunproven == 1 ? "" : "s",
			r->cap->nunproven == 1 ? "" : "s",
			r->cap->nunproven == 1 ? "it" : "them",
			r->cap->nunproven == 1 ? "it" : "them");
	else if (r->cap && r->cap->nunsure)
		fprintf(out, "no link stands out, but %d bundle%s or "
			"switch pair%s came short of capacity with a "
			"busy host on it\n", r->cap->nunsure,
			r->cap->nunsure == 1 ? "" : "s",
			r->cap->nunsure == 1 ? "" : "s");
	else if (rules->tol[0].poor || rules->tol[1].poor)
		fprintf(out, "no link stands "
			"out, but the run's noise hides differences "
			"under %.0f %% (bandwidth) / %.0f %% (latency)"
			"\n", 100 * rules->tol[0].tol,
			100 * rules->tol[1].tol);
	else
		fprintf(out, "no link stands "
			"out, but the baseline was too noisy to compare "
			"against (its tolerance %.0f %% for bandwidth, "
			"%.0f %% for latency)\n",
			100 * rules->base_tol[0], 100 * rules->base_tol[1]);
}

/* PASS: within what every link was. */
static void pass_why(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_rules *rules = r->judged.rules;

	fprintf(out, "all %ld links%s within %.0f %% "
		"(bandwidth) and %.0f %% (latency) of the typical "
		"link", cxd_out_budget_links(r),
		r->budget ? " the budget's plan measured" : "",
		100 * rules->tol[0].tol, 100 * rules->tol[1].tol);
	if (r->in.base)
		fprintf(out, ", %.0f %% and %.0f %% of the baseline",
			100 * cxd_judge_baseline_tol(rules, CXD_M_BW),
			100 * cxd_judge_baseline_tol(rules, CXD_M_LAT));
	fprintf(out, "%s\n", rules->expect[0] > 0 || rules->expect[1] > 0 ?
		", and within the expected figures" : "");
}

static void verdict(const struct cxd_sweep_res *r, FILE *out)
{
	/* The word is verdict.c's, as in the JSON. */
	fprintf(out, "Verdict: %s: ", cxd_verdict_name(r->verdict));
	if (r->verdict == CXD_V_FAIL)
		fail_why(r, out);
	else if (r->verdict == CXD_V_INCONCLUSIVE)
		unsure_why(r, out);
	else
		pass_why(r, out);
}

/* Which metrics the retest measured: only those with an outlier. */
static void retest(const struct cxd_sweep_res *r, FILE *out)
{
	bool bw = r->judged.retest_metrics & (1u << CXD_M_BW),
	     lat = r->judged.retest_metrics & (1u << CXD_M_LAT);

	if (r->judged.retest_pairs == 0)
		return;
	fprintf(out, "Retest: %d pair%s measured again, %s\n",
		r->judged.retest_pairs, r->judged.retest_pairs == 1 ? "" : "s",
		bw && lat ? "both metrics" :
		bw ? "bandwidth only (no latency outlier)" :
		"latency only (no bandwidth outlier)");
}

/* One kind's width and where it came from. */
static void width(const struct cxd_topo *t, int k, FILE *out)
{
	static const char *const where[CXD_TOPO_W_KINDS] = {
		"between two switches of a group", "between two groups",
		"out of one switch to the others"
	};
	const struct cxd_topo_width *w = &t->width[k];
	char (*name)[CXD_TOPO_NAME] = k == CXD_TOPO_W_GLOBAL ? t->group_name :
				      t->switch_name;

	fprintf(out, "%s ", where[k]);
	if (w->pairs > 0)
		fprintf(out, "%d pair%s%s", w->pairs, w->pairs == 1 ? "" : "s",
			w->at_least ? " or more" : "");
	else
		fprintf(out, "unknown");
	if (w->src == CXD_TOPO_WS_STATED)
		fprintf(out, " (stated)");
	else if (w->src == CXD_TOPO_WS_UNKNOWN)
		fprintf(out, " (not measured: %s)", w->why);
	else if (w->pairs == 0)
		fprintf(out, " (measured: %s-%s, one pair alone gave no "
			"figure)", name[w->a], name[w->b]);
	else if (w->at_least)
		fprintf(out, " (measured: %s-%s, %d at once at full rate, the "
			"most tried)", name[w->a], name[w->b], w->tried);
	else
		fprintf(out, " (measured: %s-%s, %d at once ran at %.0f %%)",
			name[w->a], name[w->b], w->tried, 100.0 * w->slowest);
}

/* How many pairs cross each kind of shared link at full rate. */
static void widths(const struct cxd_sweep_res *r, FILE *out)
{
	const char *sep = "Widths: ";

	for (int k = 0; r->in.topo && k < CXD_TOPO_W_KINDS; k++) {
		if (r->in.topo->width[k].src == CXD_TOPO_WS_NONE)
			continue;
		fputs(sep, out);
		width(r->in.topo, k, out);
		sep = "; ";
	}
	if (sep[0] == ';')
		fputc('\n', out);
}

/* A topology of places only: what its link lines would let the sweep
 * judge that it cannot now (issue 49). */
static void routes(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_topo *t = r->in.topo;

	if (t == NULL || t->nlink > 0 || t->nswitch < 2)
		return;
	fprintf(out, "Routes: not given (%s has places only): suspects are "
		"reasoned from the links' ends and the switches they share, "
		"and a unit short of capacity is not named; with link lines "
		"(docs/topology.md) every pair's route is followed, links, "
		"bundles and spines are named over the routes, and each "
		"unit is judged against what its routes carry\n", t->path);
}

/* The schedule's line, when one was chosen. */
static void schedule(const struct cxd_sweep_res *r, FILE *out)
{
	char say[CXD_OUT_SCHED_LEN] = "";

	if (r->schedule)
		cxd_out_sched(r->schedule, say, sizeof(say));
	if (say[0])
		fprintf(out, "Schedule: %s\n", say);
}

void cxd_out_text(const struct cxd_sweep_res *r, FILE *out)
{
	fprintf(out, "cxi_sweep: %d ranks, %d rounds of up to %d pair%s, "
		"engine %s (%s%s), %llu repeats per direction, %.1f s\n",
		r->run.n, r->rounds.nrounds, r->rounds.pairs_at_once,
		r->rounds.pairs_at_once == 1 ? "" : "s", r->run.engine,
		strcmp(r->run.engine, "fabric") == 0 ? "provider " : "",
		strcmp(r->run.engine, "fabric") == 0 ? r->run.provider :
		r->run.engine_version, (unsigned long long) r->run.repeat,
		r->rounds.total_s);
	schedule(r, out);
	cxd_out_budget_text(r, out);
	widths(r, out);
	routes(r, out);
	stat_line(out, "Bandwidth", "MB/s", &r->links.stat[CXD_M_BW]);
	stat_line(out, "Latency (8 B)", "us", &r->links.stat[CXD_M_LAT]);
	worst_links(r, out, CXD_M_BW);
	worst_links(r, out, CXD_M_LAT);
	cxd_out_text_resolution(r, out);
	cxd_out_lat_text(r, out);
	baseline(r, out);
	retest(r, out);
	outliers(r, out);
	busy(r, out);
	cxd_out_cap_text(r, out);
	suspects(r, out);
	verdict(r, out);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's text report: the resolution block (out_text_res.h). */
#include <math.h>
#include <stdio.h>

#include "sweep/judge/judge.h"
#include "sweep/model/lclass.h"
#include "out_text_res.h"
#include "out_types.h"

static const char *const noun[2] = { "bandwidth", "latency" };
static const char *const unit[2] = { "MB/s", "us" };

/* Do the classes of link name groups (a placement with groups)? */
static int groups(const struct cxd_sweep_res *r)
{
	return r->in.tmap && r->in.tmap->ngroup > 0;
}

/* What crowding did to metric m, in the words of a sentence. */
static const char *const crowd_verb[2] = { "lowered each other's bandwidth",
					   "raised each other's latency" };

/* The calibration of metric m: pairs of each class measured alone
 * against their passes (latency: the pass over alone). */
static void crowding_of(const struct cxd_sweep_res *r, int m, FILE *out)
{
	const struct cxd_tol *t = &r->judged.rules->tol[m];
	const char *sep = "";

	if (!isfinite(t->crowd))
		return;
	fprintf(out, m == CXD_M_BW ? "Concurrency: pairs measured alone "
		"against their passes (median):" : "             latency, "
		"their passes against alone (median):");
	for (int c = 0; c < CXD_LC_N; c++) {
		if (!isfinite(t->crowd_of[c]))
			continue;
		fprintf(out, "%s %s %+.1f %% (%d link%s)", sep,
			cxd_lclass_name((enum cxd_lclass) c, groups(r)),
			100 * t->crowd_of[c], t->crowd_pairs_of[c],
			t->crowd_pairs_of[c] == 1 ? "" : "s");
		sep = ",";
	}
	if (!t->crowded)
		fprintf(out, "; within the %s tolerance", noun[m]);
	fprintf(out, "\n");
}

static void crowding(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_tol *t = r->judged.rules->tol;

	for (int m = 0; m < 2; m++)
		crowding_of(r, m, out);
	if (t[CXD_M_BW].crowded)
		fprintf(out, "Concurrency lowered bandwidth: the pairs "
			"measured at once share links (a tapered fabric's "
			"global or spine links, a group's switch links) or "
			"their hosts' CPUs, so no link is judged against its "
			"peers on bandwidth; give --topology (pairs that share "
			"links then take turns) or fewer --max-pairs\n");
	if (t[CXD_M_LAT].crowded)
		fprintf(out, "Concurrency raised latency: the pairs measured "
			"at once waited on each other (ranks sharing a host's "
			"CPUs, or a shared link's queue), so no link and no "
			"rank is judged on latency; give each rank a CPU of "
			"its own, or fewer --max-pairs\n");
}

/* The class most crowded on metric m, and by how much. */
static void crowded_why_of(const struct cxd_sweep_res *r, int m, FILE *out)
{
	const struct cxd_tol *t = &r->judged.rules->tol[m];
	double most = t->crowd;
	int worst = -1;

	for (int c = 0; c < CXD_LC_N; c++)
		if (isfinite(t->crowd_of[c]) && !(t->crowd_of[c] <= most)) {
			most = t->crowd_of[c];
			worst = c;
		}
	if (m == CXD_M_BW)
		fprintf(out, "the pairs measured at once %s by %.0f %%",
			crowd_verb[m], 100 * most / (1 + most));
	else
		fprintf(out, "the pairs measured at once %s %.0f-fold",
			crowd_verb[m], 1 + most);
	fprintf(out, "%s%s (measured alone against their passes): %s was "
		"not judged against peers", worst < 0 ? "" : ", ",
		worst < 0 ? "" : cxd_lclass_name((enum cxd_lclass) worst,
						 groups(r)), noun[m]);
}

void cxd_out_text_crowded_why(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_tol *t = r->judged.rules->tol;
	const char *sep = "";

	for (int m = 0; m < 2; m++) {
		if (!t[m].crowded)
			continue;
		fprintf(out, "%s", sep);
		crowded_why_of(r, m, out);
		sep = "; ";
	}
	fprintf(out, "\n");
}

/* A metric's typical link per class, which its links are judged by:
 * latency's always, bandwidth's under --budget. */
static void classes(const struct cxd_sweep_res *r, const char *sep,
		    const double *of, const char *fmt, FILE *out)
{
	int any = 0;

	for (int c = 0; r->judged.rules->sw && c < CXD_LC_N; c++) {
		if (!isfinite(of[c]))
			continue;
		fprintf(out, "%s %s ", sep,
			cxd_lclass_name((enum cxd_lclass) c, groups(r)));
		fprintf(out, fmt, of[c]);
		sep = ",";
		any = 1;
	}
	if (any)
		fprintf(out, "\n");
}

/* The classes the stated widths hold to a pair on one switch. */
static void full_rate(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_rules *rules = r->judged.rules;
	const char *sep = "";

	for (int c = 0; rules->sw && c < CXD_LC_N; c++) {
		if (!rules->bw_full[c])
			continue;
		fprintf(out, "%s%s", *sep ? sep : "           bandwidth ",
			cxd_lclass_name((enum cxd_lclass) c, groups(r)));
		sep = ", ";
	}
	if (*sep)
		fprintf(out, ": the typical pair below a pair on one switch "
			"(%.2f MB/s) beyond the tolerance, where the stated "
			"widths carry 2 pairs or more at full rate: held to "
			"the pair on one switch\n",
			rules->bw_typical_of[CXD_LC_SWITCH]);
}

void cxd_out_text_resolution(const struct cxd_sweep_res *r, FILE *out)
{
	const struct cxd_rules *rules = r->judged.rules;

	for (int m = 0; m < 2; m++) {
		const struct cxd_tol *t = &rules->tol[m];

		fprintf(out, "%s %-9s noise %5.1f %% between repeats; links "
			"judged within %.0f %% of the typical link (%.2f %s)%s"
			"\n", m ? "          " : "Resolution:", noun[m],
			100 * t->noise, 100 * t->tol, rules->typical[m],
			unit[m], t->explicit_ ? m ? " (--max-lat)" :
			" (--min-bw)" : "");
	}
	classes(r, "           latency by class (typical, us):",
		rules->lat_typical_of, "%.2f", out);
	if (rules->bw_by_class)
		classes(r, "           bandwidth by class (typical, MB/s; "
			"the plan's pairs judged by their own):",
			rules->bw_typical_of, "%.2f", out);
	full_rate(r, out);
	crowding(r, out);
	for (int m = 0; m < 2; m++)
		if (rules->tol[m].poor && !rules->tol[m].crowded)
			fprintf(out, "Resolution is poor for %s: this run "
				"cannot tell apart links that differ by less "
				"than %.0f %% (a busy host or a noisy fabric)"
				"; rerun on idle nodes, with more --repeat or "
				"with -D\n", noun[m], 100 * rules->tol[m].tol);
}

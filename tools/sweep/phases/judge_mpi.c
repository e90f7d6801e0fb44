/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: from every rank's measurements to its flagged links
 * (judge_mpi.h). Each rank reduces its own row (medians of the repeats,
 * their spread, its noise); rank 0 sets the rules from a summary of the
 * rows; each rank judges its own links against the typical link, the
 * baseline and the expected figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "sweep/judge/judge_full.h"
#include "sweep/judge/stat.h"
#include "sweep/judge/stat_row.h"
#include "sweep/model/topo_add.h"
#include "judge_mpi.h"

/* Rank 0's status reaches every rank: all stop together, no hang. */
static int agree(const struct sw_ctx *c, int status)
{
	sw_bcast(&c->m, &status, 1, MPI_INT, "the input check");
	return status;
}

int sw_inputs_read(struct sw_inputs *in, const struct sw_ctx *c)
{
	char err[CXD_ERR_LEN] = "";
	const struct cxd_sweep_opts *o = &c->cfg.sweep;
	int ret = 0;

	if (c->m.rank == 0 && o->baseline[0]) {
		ret = cxd_baseline_load(o->baseline, &in->base, err, sizeof(err));
		in->has_base = ret == 0;
	}
	if (c->m.rank == 0 && ret == 0 && o->topology[0]) {
		ret = cxd_topo_load(o->topology, &in->topo, err, sizeof(err));
		in->has_topo = ret == 0;
	}
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return agree(c, ret ? CXD_EXIT_USAGE : CXD_EXIT_OK);
}

/* Rank 0's placement on every rank (tm->switch_of NULL: none). */
static void share_place(struct sw_ctx *c, bool has, int nsw, int ngrp)
{
	struct cxd_topo_map *tm = &c->place;
	int head[3] = { has, nsw, ngrp };

	sw_bcast(&c->m, head, 3, MPI_INT, "the topology");
	tm->nswitch = head[1];
	tm->ngroup = head[2];
	if (!head[0])
		return;
	if (c->m.rank != 0) {
		tm->switch_of = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		tm->group_of = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
	}
	sw_bcast(&c->m, (int *) tm->switch_of, c->m.n, MPI_INT, "the topology");
	sw_bcast(&c->m, (int *) tm->group_of, c->m.n, MPI_INT, "the topology");
}

int sw_inputs_place(struct sw_inputs *in, struct sw_ctx *c)
{
	char err[CXD_ERR_LEN] = "";
	int ret = 0;

	if (c->m.rank == 0 && in->has_topo) {
		int *switch_of = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		int *group_of = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));

		/* The links and switches' groups stay rank 0's: the file
		 * is not sent, share_place sends the placement only, and
		 * other ranks keep them NULL. */
		c->place = (struct cxd_topo_map){
			.switch_of = switch_of, .group_of = group_of,
			.nswitch = in->topo.nswitch, .ngroup = in->topo.ngroup,
			.link = in->topo.link, .nlink = in->topo.nlink,
			.switch_group = in->topo.switch_group,
			.route = in->topo.route,
			.nswitch_all = in->topo.nswitch_all,
			.ngroup_all = in->topo.ngroup_all };
		ret = cxd_topo_place(&in->topo, c->ranks, c->m.n, switch_of,
				     group_of, stderr, err, sizeof(err));
		if (ret)
			fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	ret = agree(c, ret ? CXD_EXIT_USAGE : CXD_EXIT_OK);
	if (ret == 0)
		share_place(c, in->has_topo, c->place.nswitch, c->place.ngroup);
	return ret;
}

void sw_inputs_report(const struct sw_inputs *in, const struct sw_ctx *c,
		      struct cxd_sweep_inputs *s)
{
	*s = (struct cxd_sweep_inputs){
		.topo = in->has_topo ? &in->topo : NULL,
		.tmap = in->has_topo ? &c->place : NULL,
		.base = in->has_base ? &in->base : NULL };
}

void sw_inputs_free(struct sw_inputs *in)
{
	if (in->has_base)
		cxd_baseline_free(&in->base);
	if (in->has_topo)
		cxd_topo_free(&in->topo);
}

/* Per rank: its median links (bandwidth, latency), its noise (two),
 * and its median latency and bandwidth link per class (lclass.h). */
#define RULE_COLS (4 + 2 * CXD_LC_N)

/* This rank's median link of each class in row, NAN where it has none:
 * a pair across groups crosses more hops than one on a switch. */
static void by_class(const struct sw_ctx *c, const double *row,
		     double *out)
{
	const int *grp = c->place.ngroup > 0 ? c->place.group_of : NULL;
	double *v = sw_alloc(&c->m, (size_t) c->m.n, sizeof(double));

	for (int k = 0; k < CXD_LC_N; k++) {
		for (int j = 0; j < c->m.n; j++)
			v[j] = c->place.switch_of && j != c->m.rank &&
			       cxd_lclass_of(c->place.switch_of, grp, c->m.rank,
					     j) == (enum cxd_lclass) k ?
			       row[j] : NAN;
		out[k] = cxd_stat_median(v, (size_t) c->m.n);
	}
	free(v);
}

/* Rank 0 sets the rules from each rank's median links and noise. */
static void set_rules(struct sw_judging *j, const struct sw_ctx *c,
		      const struct sw_inputs *in,
		      const struct sw_measured *f,
		      const struct sw_calib *crowd)
{
	const struct cxd_sweep_opts *o = &c->cfg.sweep;
	double mine[RULE_COLS] = { cxd_stat_median(f->bw_row, (size_t) c->m.n),
				   cxd_stat_median(f->lat_row, (size_t) c->m.n),
				   f->noise[0], f->noise[1] };
	double *sum = c->m.rank == 0 ? sw_alloc(&c->m, RULE_COLS *
					      (size_t) c->m.n,
					      sizeof(double)) : NULL;
	struct cxd_rules *r = &j->rules;
	uint64_t pct[2] = { o->bw_pct, o->lat_pct };

	by_class(c, f->lat_row, mine + 4);
	by_class(c, f->bw_row, mine + 4 + CXD_LC_N);
	sw_gather(&c->m, mine, RULE_COLS, MPI_DOUBLE, sum,
		  "gathering each rank's typical link");
	if (c->m.rank == 0) {
		r->n = c->m.n;
		for (int m = 0; m < 2; m++) {
			/* The typical link: the median of each rank's
			 * median link; the noise: of each rank's noise. */
			r->typical[m] = cxd_stat_column_median(sum, c->m.n,
							       RULE_COLS, m);
			r->tol[m] = cxd_judge_tol(m, cxd_judge_sigma(
				cxd_stat_column_median(sum, c->m.n, RULE_COLS,
						       2 + m)),
				pct[m]);
			r->base_tol[m] = in->has_base ? in->base.tol[m] : 0;
			r->base_poor[m] = in->has_base &&
					  cxd_judge_poor(m, r->base_tol[m]);
		}
		for (int k = 0; k < CXD_LC_N; k++) {
			r->lat_typical_of[k] = cxd_stat_column_median(
				sum, c->m.n, RULE_COLS, 4 + k);
			r->bw_typical_of[k] = cxd_stat_column_median(
				sum, c->m.n, RULE_COLS, 4 + CXD_LC_N + k);
		}
		r->bw_by_class = o->budget_s > 0;
		cxd_judge_full_classes(in->has_topo ? in->topo.width : NULL,
				       c->place.ngroup > 0, r->bw_full);
		for (int m = 0; crowd && m < 2; m++)
			if (crowd->ratio[m])
				cxd_judge_crowd(&r->tol[m],
						(enum cxd_metric) m,
						crowd->ratio[m], crowd->cls,
						(size_t) c->m.n);
		cxd_judge_full_slow(r); /* after the crowding's verdict */
		r->expect[CXD_M_BW] = o->expect_bw;
		r->expect[CXD_M_LAT] = o->expect_lat;
	}
	free(sum);
	sw_bcast(&c->m, r, (int) sizeof(*r), MPI_BYTE, "the rules");
	r->base[0] = r->base[1] = NULL; /* rank 0's pointers, not ours */
	r->sw = c->place.switch_of;
	r->grp = c->place.ngroup > 0 ? c->place.group_of : NULL;
}

/* --baseline: rank 0 matches the file's ranks to this run's and hands
 * each rank its row of the matched figures. */
static void share_baseline(struct sw_judging *j, const struct sw_ctx *c,
			   struct sw_inputs *in)
{
	int use[2] = { 0, 0 };

	if (c->m.rank == 0 && in->has_base) {
		if (cxd_baseline_match(&in->base, c->ranks,
				       c->m.n, c->bw_run.provider,
				       c->cfg.run.min_size, &j->base[0],
				       &j->base[1]))
			sw_die(&c->m, "out of memory");
		use[0] = j->base[0] != NULL;
		use[1] = j->base[1] != NULL;
	}
	sw_bcast(&c->m, use, 2, MPI_INT, "the baseline");
	for (int m = 0; m < 2; m++) {
		MPI_Request q;

		if (!use[m])
			continue;
		j->base_row[m] = sw_alloc(&c->m, (size_t) c->m.n,
					  sizeof(double));
		MPI_Iscatter(j->base[m], c->m.n, MPI_DOUBLE, j->base_row[m],
			     c->m.n, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q);
		sw_coll_wait(&c->m, &q, "the baseline");
		j->rules.base[m] = j->base_row[m];
	}
	j->rules.base_row = true;
	j->report = j->rules;
	j->report.base[0] = j->base[0];
	j->report.base[1] = j->base[1];
	j->report.base_row = false;
}

/* This rank's own links against the rules (only: those it marks). */
static void flag(struct sw_judging *j, const struct sw_ctx *c,
		 const struct sw_measured *f, const unsigned char *only)
{
	const double *row[2] = { f->bw_row, f->lat_row };
	size_t cap = 0, k = 0;

	for (int m = 0; m < 2; m++)
		cap += cxd_judge_flag_row(&j->rules, row[m], m, c->m.rank,
					  NULL, 0);
	j->o = sw_alloc(&c->m, cap + 1, sizeof(*j->o));
	for (int m = 0; m < 2; m++)
		j->nout += cxd_judge_flag_row(&j->rules, row[m], m, c->m.rank,
					      j->o + j->nout, cap - j->nout);
	for (size_t i = 0; only && i < j->nout; i++)
		if (only[j->o[i].dst])
			j->o[k++] = j->o[i];
	if (only)
		j->nout = k;
}

/* Every rank's pair measurements and those that waited for a CPU, summed
 * (cxd_judge_too_busy), counted only on hosts with a CPU for each of the
 * sweep's ranks at work: there a wait is other work's. Where its own
 * ranks may outnumber the CPUs they wait on each other, which says
 * nothing of the links. */
static void count_busy(struct sw_judging *j, const struct sw_ctx *c,
		       const struct sw_measured *f)
{
	int mine[2] = { 0, 0 }, all[2];

	for (int i = 0; c->hosts.cpus_enough && i < f->n; i++) {
		if (isnan(f->busy_row[i]))
			continue;
		mine[0]++;
		mine[1] += f->busy_row[i] > CXD_JUDGE_BUSY_MAX;
	}
	sw_allreduce(&c->m, mine, all, 2, MPI_INT, MPI_SUM,
		     "counting the CPU waits");
	j->sides = all[0];
	j->busy_sides = all[1];
}

void sw_judge(struct sw_judging *j, const struct sw_ctx *c,
	      struct sw_inputs *in, struct sw_measured *f,
	      const struct sw_calib *crowd, const unsigned char *only)
{
	sw_measured_stats(f, &c->m);
	count_busy(j, c, f);
	set_rules(j, c, in, f, crowd);
	share_baseline(j, c, in);
	flag(j, c, f, only);
}

void sw_judging_report(const struct sw_judging *j,
		       struct cxd_sweep_judged *s)
{
	*s = (struct cxd_sweep_judged){ .rules = &j->report,
		.retest_pairs = j->retest_pairs,
		.retest_metrics = j->retest_metrics, .sides = j->sides,
		.busy_sides = j->busy_sides };
}

void sw_judging_free(struct sw_judging *j)
{
	for (int m = 0; m < 2; m++) {
		free(j->base[m]);
		free(j->base_row[m]);
	}
	free(j->o);
}

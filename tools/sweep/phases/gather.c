/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: rank 0's view of the run after the judging (gather.h). */
#include <stdlib.h>

#include <mpi.h>

#include "sweep/judge/judge_suspects.h"
#include "sweep/result/out_types.h"
#include "sweep/judge/stat.h"
#include "gather.h"

/* Rank 0 gathers every link only for a file that lists every link. */
static bool wants_links(const struct sw_ctx *c)
{
	const struct cxd_sweep_opts *o = &c->cfg.sweep;

	return o->json[0] || o->csv[0] ||
	       (o->metrics[0] && c->m.n <= CXD_SWEEP_METRICS_LINKS);
}

static void gather_links(struct sw_gathered *g, const struct sw_ctx *c,
			 const struct sw_measured *f)
{
	const struct sw_mpi *mpi = &c->m;
	size_t nn = (size_t) mpi->n * mpi->n;
	double *row[2] = { f->bw_row, f->lat_row };
	double med[2] = { cxd_stat_median(f->bw_row, (size_t) mpi->n),
			  cxd_stat_median(f->lat_row, (size_t) mpi->n) };

	if (mpi->rank == 0)
		g->rank_med = sw_alloc(mpi, 2 * (size_t) mpi->n,
				       sizeof(double));
	sw_gather(mpi, med, 2, MPI_DOUBLE, g->rank_med,
		  "gathering each rank's median link");
	if (!wants_links(c))
		return;
	for (int m = 0; m < 2 && mpi->rank == 0; m++) {
		g->m[m] = sw_alloc(mpi, nn, sizeof(double));
		g->spread[m] = sw_alloc(mpi, nn, sizeof(double));
	}
	for (int m = 0; m < 2; m++) {
		sw_gather(mpi, row[m], mpi->n, MPI_DOUBLE, g->m[m],
			  "gathering the links");
		sw_gather(mpi, f->spread[m], mpi->n, MPI_DOUBLE, g->spread[m],
			  "gathering the spreads");
	}
}

/* Rank 0: the suspects, from the outlier counts of every rank. Outliers
 * not judged broke a rule twice too: what they point at counts, or a
 * busy retest could single out the rank whose links happened to be
 * retested quietly. */
static void name_suspects(struct sw_gathered *g, const struct sw_ctx *c,
			  const struct sw_judging *j)
{
	const struct cxd_topo_map *tm = c->place.switch_of ? &c->place : NULL;
	struct cxd_tally sum;
	size_t cap = 4 * (size_t) c->m.n + 8;

	sw_tally(&c->m, &c->place, j->o, j->nout + j->nbusy, &sum);
	if (c->m.rank != 0)
		return;
	g->sus = sw_alloc(&c->m, cap, sizeof(*g->sus));
	g->nsus = cxd_judge_suspects_tally(&sum, tm, g->sus, cap);
	if (g->nsus > cap)
		g->nsus = cap;
	cxd_judge_tally_free(&sum);
}

void sw_gather_all(struct sw_gathered *g, const struct sw_ctx *c,
		   const struct sw_judging *j, const struct sw_measured *f)
{
	/* From here each link's figure is its latest measurement. */
	sw_link_stats(&c->m, f, g->stat);
	gather_links(g, c, f);
	name_suspects(g, c, j);
	sw_gather_outliers(&c->m, j->o, j->nout, j->nbusy, &g->l);
}

void sw_gathered_report(const struct sw_gathered *g,
			struct cxd_sweep_links *links,
			struct cxd_sweep_outliers *o)
{
	*links = (struct cxd_sweep_links){
		.bw = g->m[0], .lat = g->m[1],
		.spread = { g->spread[0], g->spread[1] },
		.stat = { g->stat[0], g->stat[1] }, .rank_med = g->rank_med };
	/* the listed outliers: the confirmed ones, then those not judged */
	*o = (struct cxd_sweep_outliers){
		.out = g->l.o, .nout = g->l.nout, .nout_all = g->l.nout_all,
		.busy = g->l.o + g->l.nout, .nbusy = g->l.nbusy,
		.nbusy_all = g->l.nbusy_all };
}

struct cxd_sweep_suspects sw_gathered_suspects(const struct sw_gathered *g)
{
	return (struct cxd_sweep_suspects){ g->sus, g->nsus };
}

void sw_gathered_free(struct sw_gathered *g)
{
	for (int m = 0; m < 2; m++) {
		free(g->m[m]);
		free(g->spread[m]);
	}
	free(g->rank_med);
	free(g->l.o);
	free(g->sus);
}

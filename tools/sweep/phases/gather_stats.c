/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: what rank 0 learns from every rank's row without gathering
 * the rows: min, percentiles, median and max of all links (the order
 * statistics by a distributed bisection), the worst links, the outlier
 * counts the suspects are named from, and the outliers to list (a
 * bounded number per rank). Every
 * collective is nonblocking and its wait bounded (sw_coll_wait).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/judge/judge_suspects.h"
#include "sweep/result/out_types.h"
#include "sweep/judge/stat.h"
#include "gather_stats.h"

static void reduce(const struct sw_mpi *mpi, const void *in, void *out,
		   int count, MPI_Datatype t, MPI_Op op, const char *what)
{
	sw_allreduce(mpi, in, out, count, t, op, what);
}

enum { SEL_LO, SEL_HI, SEL_P5, SEL_P95, SEL_N }; /* per metric */

/* The nearest-rank percentile p of tot values: its 0-based rank. */
static uint64_t pct_rank(uint64_t tot, unsigned p)
{
	uint64_t k = (tot * p + 99) / 100;

	return k ? k - 1 : 0;
}

/* Order statistics of both metrics over every link: the two middles of
 * each (the median), its 5th and 95th percentiles; exact selections
 * stepped together, one sum per step. */
static void order_stats(const struct sw_mpi *mpi, const double *const row[2],
			struct cxd_sweep_stat st[2])
{
	uint64_t fin[2], tot[2], le[2 * SEL_N], sum[2 * SEL_N];
	struct cxd_select s[2 * SEL_N];
	bool more = true;

	for (int m = 0; m < 2; m++)
		fin[m] = cxd_stat_count_finite(row[m], (size_t) mpi->n);
	reduce(mpi, fin, tot, 2, MPI_UINT64_T, MPI_SUM, "counting the links");
	for (int m = 0; m < 2; m++) {
		struct cxd_select *x = s + m * SEL_N;

		cxd_stat_select_init(&x[SEL_LO], tot[m] ? (tot[m] - 1) / 2 : 0);
		cxd_stat_select_init(&x[SEL_HI], tot[m] / 2);
		cxd_stat_select_init(&x[SEL_P5], pct_rank(tot[m], 5));
		cxd_stat_select_init(&x[SEL_P95], pct_rank(tot[m], 95));
	}
	while (more) {
		more = false;
		for (int i = 0; i < 2 * SEL_N; i++)
			le[i] = cxd_stat_select_done(&s[i]) ? 0 :
				cxd_stat_count_le(row[i / SEL_N],
						  (size_t) mpi->n,
						  cxd_stat_select_pivot(&s[i]));
		reduce(mpi, le, sum, 2 * SEL_N, MPI_UINT64_T, MPI_SUM,
		       "the median link");
		for (int i = 0; i < 2 * SEL_N; i++) {
			if (!cxd_stat_select_done(&s[i]))
				cxd_stat_select_step(&s[i], sum[i]);
			more |= !cxd_stat_select_done(&s[i]);
		}
	}
	for (int m = 0; m < 2; m++) {
		const struct cxd_select *x = s + m * SEL_N;
		bool none = tot[m] == 0;

		st[m].med = none ? NAN : (cxd_stat_select_value(&x[SEL_LO]) +
					  cxd_stat_select_value(&x[SEL_HI])) / 2;
		st[m].p5 = none ? NAN : cxd_stat_select_value(&x[SEL_P5]);
		st[m].p95 = none ? NAN : cxd_stat_select_value(&x[SEL_P95]);
	}
}

/* Each rank's CXD_SWEEP_WORST worst links; rank 0 keeps the worst of
 * those, ties to the lower rank (as a scan of the whole matrix would). */
static void worst(const struct sw_mpi *mpi, const double *row,
		  enum cxd_metric m, struct cxd_sweep_stat *st)
{
	struct cxd_link_val mine[CXD_SWEEP_WORST], *all = NULL;
	size_t pick[CXD_SWEEP_WORST], nc = (size_t) mpi->n * CXD_SWEEP_WORST;
	int k = cxd_stat_worst(row, (size_t) mpi->n, m == CXD_M_BW, pick,
			       CXD_SWEEP_WORST);
	double *v = NULL;

	for (int i = 0; i < CXD_SWEEP_WORST; i++)
		mine[i] = (struct cxd_link_val){ NAN, mpi->rank, -1 };
	for (int i = 0; i < k; i++)
		mine[i] = (struct cxd_link_val){ row[pick[i]], mpi->rank,
						 (int) pick[i] };
	if (mpi->rank == 0) {
		all = sw_alloc(mpi, nc, sizeof(*all));
		v = sw_alloc(mpi, nc, sizeof(*v));
	}
	sw_gather(mpi, mine, (int) sizeof(mine), MPI_BYTE, all,
		  "gathering the worst links");
	if (mpi->rank == 0) {
		for (size_t i = 0; i < nc; i++)
			v[i] = all[i].v;
		st->nworst = cxd_stat_worst(v, nc, m == CXD_M_BW, pick,
					    CXD_SWEEP_WORST);
		for (int i = 0; i < st->nworst; i++)
			st->worst[i] = all[pick[i]];
	}
	free(all);
	free(v);
}

void sw_link_stats(const struct sw_mpi *mpi, const struct sw_measured *f,
		   struct cxd_sweep_stat st[2])
{
	const double *const row[2] = { f->bw_row, f->lat_row };
	double lo[2], hi[2], glo[2], ghi[2];

	for (int m = 0; m < 2; m++) {
		lo[m] = INFINITY;
		hi[m] = -INFINITY;
		for (int p = 0; p < mpi->n; p++) {
			if (!isfinite(row[m][p]))
				continue;
			lo[m] = fmin(lo[m], row[m][p]);
			hi[m] = fmax(hi[m], row[m][p]);
		}
	}
	reduce(mpi, lo, glo, 2, MPI_DOUBLE, MPI_MIN, "the lowest link");
	reduce(mpi, hi, ghi, 2, MPI_DOUBLE, MPI_MAX, "the highest link");
	order_stats(mpi, row, st);
	for (int m = 0; m < 2; m++) {
		st[m].min = glo[m];
		st[m].max = ghi[m];
		worst(mpi, row[m], (enum cxd_metric) m, &st[m]);
	}
}

void sw_tally(const struct sw_mpi *mpi, const struct cxd_topo_map *tm,
	     const struct cxd_outlier *o, size_t n, struct cxd_tally *sum)
{
	const struct cxd_topo_map *t = tm->switch_of ? tm : NULL;
	struct cxd_tally mine;
	size_t len;
	int *in, *out = NULL;
	MPI_Request q;

	if (cxd_judge_tally_init(&mine, mpi->n, t) != 0 ||
	    (mpi->rank == 0 && cxd_judge_tally_init(sum, mpi->n, t) != 0))
		sw_die(mpi, "out of memory");
	for (size_t i = 0; i < n; i++)
		cxd_judge_tally_add(&mine, t, &o[i]);
	in = cxd_judge_tally_counts(&mine, &len);
	if (mpi->rank == 0)
		out = cxd_judge_tally_counts(sum, &len);
	MPI_Ireduce(in, out, (int) len, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD,
		    &q);
	sw_coll_wait(mpi, &q, "counting the outliers");
	cxd_judge_tally_free(&mine);
}

/* Confirmed outliers first, then those held back as not judged; each
 * kind in link order (metric, source, destination). */
static int by_link(const void *x, const void *y)
{
	const struct cxd_outlier *a = x, *b = y;

	if (cxd_judge_held(a) != cxd_judge_held(b))
		return cxd_judge_held(a) ? 1 : -1;
	if (a->metric != b->metric)
		return (int) a->metric - (int) b->metric;
	if (a->src != b->src)
		return a->src - b->src;
	return a->dst - b->dst;
}

/* o: this rank's nout confirmed outliers, then its nbusy not judged. */
void sw_gather_outliers(const struct sw_mpi *mpi, const struct cxd_outlier *o,
			size_t nout, size_t nbusy, struct sw_listed *l)
{
	int mine[4] = { (int) (nout < CXD_SWEEP_LISTED ? nout :
			       CXD_SWEEP_LISTED),
			(int) (nbusy < CXD_SWEEP_LISTED ? nbusy :
			       CXD_SWEEP_LISTED), (int) nout, (int) nbusy };
	int *cnt = NULL, *bytes = NULL, *disp = NULL, sz = (int) sizeof(*o);
	struct cxd_outlier *send;
	size_t tot = 0;
	MPI_Request q;

	send = sw_alloc(mpi, (size_t) (mine[0] + mine[1]) + 1, sizeof(*send));
	memcpy(send, o, (size_t) mine[0] * sizeof(*o));
	memcpy(send + mine[0], o + nout, (size_t) mine[1] * sizeof(*o));
	memset(l, 0, sizeof(*l));
	if (mpi->rank == 0) {
		cnt = sw_alloc(mpi, 4 * (size_t) mpi->n, sizeof(int));
		bytes = sw_alloc(mpi, (size_t) mpi->n, sizeof(int));
		disp = sw_alloc(mpi, (size_t) mpi->n, sizeof(int));
	}
	sw_gather(mpi, mine, 4, MPI_INT, cnt, "counting the outliers");
	for (int i = 0; mpi->rank == 0 && i < mpi->n; i++) {
		disp[i] = (int) tot * sz;
		bytes[i] = (cnt[4 * i] + cnt[4 * i + 1]) * sz;
		tot += (size_t) (cnt[4 * i] + cnt[4 * i + 1]);
		l->nout += (size_t) cnt[4 * i];
		l->nbusy += (size_t) cnt[4 * i + 1];
		l->nout_all += (size_t) cnt[4 * i + 2];
		l->nbusy_all += (size_t) cnt[4 * i + 3];
	}
	if (mpi->rank == 0)
		l->o = sw_alloc(mpi, tot + 1, sizeof(*l->o));
	MPI_Igatherv(send, (mine[0] + mine[1]) * sz, MPI_BYTE, l->o, bytes,
		     disp, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(mpi, &q, "gathering the outliers");
	if (mpi->rank == 0)
		qsort(l->o, tot, sizeof(*l->o), by_link);
	free(send);
	free(cnt);
	free(bytes);
	free(disp);
}

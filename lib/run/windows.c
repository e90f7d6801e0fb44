/* SPDX-License-Identifier: BSD-3-Clause */
/* --interval windows: rows, the worst window, its distance from the median. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "windows.h"

int cxd_win_init(struct cxd_sess *s, struct cxd_winrec *wr, bool lat)
{
	uint64_t iv = s->cfg->local.interval_s;

	memset(wr, 0, sizeof(*wr));
	wr->next = UINT64_MAX;
	if (iv == 0 || !cxd_run_has(s->run, CXD_RUN_DURATION))
		return 0;
	wr->step = iv * 1000000000ULL;
	wr->win.lat = lat;
	wr->win.cap = s->run->duration_s / iv + 2;
	wr->win.w = calloc(wr->win.cap, sizeof(*wr->win.w));
	if (lat) {
		wr->prev = malloc(sizeof(*wr->prev));
		wr->diff = malloc(sizeof(*wr->diff));
	}
	if (wr->win.w == NULL || (lat && (!wr->prev || !wr->diff))) {
		cxd_win_free(wr);
		return cxd_sess_fail(s, -ENOMEM, "--interval: out of memory");
	}
	/* Touched now: a soak's memory does not grow as rows fill. */
	memset(wr->win.w, 0, wr->win.cap * sizeof(*wr->win.w));
	wr->live = s->cfg->out.format == CXD_FMT_JSON ? NULL : stderr;
	return 0;
}

void cxd_win_free(struct cxd_winrec *wr)
{
	free(wr->win.w);
	free(wr->prev);
	free(wr->diff);
	memset(wr, 0, sizeof(*wr));
	wr->next = UINT64_MAX;
}

void cxd_win_start(struct cxd_winrec *wr, uint64_t size, uint64_t t0)
{
	if (wr->step == 0)
		return;
	wr->size = size;
	wr->t0 = wr->last_t = t0;
	wr->last_count = 0;
	wr->win.n = 0;
	wr->next = t0 + wr->step;
	if (wr->prev)
		cxd_stats_reset(wr->prev);
}

/* The window's own latency figures: the size's histogram now less the
 * one at the window's start (the same buckets, so the same error). */
static void lat_window(struct cxd_winrec *wr, const struct cxd_lat_stats *st,
		       struct cxd_window *x)
{
	struct cxd_lat_stats *d = wr->diff;
	unsigned lo = CXD_HIST_BUCKETS, hi = 0;

	d->n = st->n - wr->prev->n;
	d->sum = st->sum - wr->prev->sum;
	d->sum2 = st->sum2 - wr->prev->sum2;
	for (unsigned b = 0; b < CXD_HIST_BUCKETS; b++) {
		d->hist[b] = st->hist[b] - wr->prev->hist[b];
		if (d->hist[b] && lo == CXD_HIST_BUCKETS)
			lo = b;
		if (d->hist[b])
			hi = b;
	}
	x->count = d->n;
	if (d->n == 0)
		return;
	d->min_ns = cxd_hist_bucket_low(lo);
	d->max_ns = cxd_hist_bucket_low(hi) + cxd_hist_bucket_width(hi) - 1;
	x->p50_ns = cxd_stats_percentile_ns(d, 50);
	x->p99_ns = cxd_stats_percentile_ns(d, 99);
	x->max_ns = cxd_stats_percentile_ns(d, 100);
	x->mean_ns = cxd_stats_mean_ns(d);
	memcpy(wr->prev, st, sizeof(*st));
}

static void live_row(const struct cxd_winrec *wr, const struct cxd_window *x)
{
	if (wr->live == NULL)
		return;
	if (wr->win.lat)
		fprintf(wr->live, "window %7.1f-%7.1f s  %llu B  p50 %.2f us  "
			"p99 %.2f us  max %.2f us  (%llu samples)\n",
			x->start_s, x->end_s, (unsigned long long) wr->size,
			x->p50_ns / 1e3, x->p99_ns / 1e3, x->max_ns / 1e3,
			(unsigned long long) x->count);
	else
		fprintf(wr->live, "window %7.1f-%7.1f s  %llu B  %.2f MB/s  "
			"(%llu ops)\n", x->start_s, x->end_s,
			(unsigned long long) wr->size, x->bw_mb_s,
			(unsigned long long) x->count);
	fflush(wr->live);
}

static void close_window(struct cxd_winrec *wr, uint64_t now, uint64_t count,
			 const struct cxd_lat_stats *st)
{
	struct cxd_window *x;

	if (wr->win.n >= wr->win.cap)
		return; /* cannot happen: cap covers -D, plus two */
	x = &wr->win.w[wr->win.n++];
	memset(x, 0, sizeof(*x));
	x->start_s = (wr->last_t - wr->t0) / 1e9;
	x->end_s = (now - wr->t0) / 1e9;
	if (st) {
		lat_window(wr, st, x);
	} else {
		x->count = count - wr->last_count;
		/* bytes per microsecond = MB/s (10^6), as the tables. */
		x->bw_mb_s = (double) x->count * (double) wr->size /
			     ((now - wr->last_t) / 1e3);
	}
	wr->last_t = now;
	wr->last_count = count;
	live_row(wr, x);
}

void cxd_win_pass(struct cxd_winrec *wr, uint64_t now, uint64_t count,
		  const struct cxd_lat_stats *st)
{
	close_window(wr, now, count, st);
	/* A slow iteration may span boundaries: the next one after now. */
	wr->next = wr->t0 + ((now - wr->t0) / wr->step + 1) * wr->step;
}

static double value(const struct cxd_windows *w, uint64_t i)
{
	return w->lat ? (double) w->w[i].p50_ns : w->w[i].bw_mb_s;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Worst: lowest bandwidth, or highest median latency. */
static void worst_and_median(struct cxd_windows *w)
{
	double *v;

	w->worst = 0;
	for (uint64_t i = 1; i < w->n; i++)
		if (w->lat ? value(w, i) > value(w, w->worst) :
			     value(w, i) < value(w, w->worst))
			w->worst = i;
	w->worst_v = w->n ? value(w, w->worst) : 0;
	v = malloc((w->n ? w->n : 1) * sizeof(*v));
	if (v == NULL || w->n == 0) {
		w->median_v = w->worst_v;
		free(v);
		return;
	}
	for (uint64_t i = 0; i < w->n; i++)
		v[i] = value(w, i);
	qsort(v, w->n, sizeof(*v), cmp_dbl);
	w->median_v = w->n % 2 ? v[w->n / 2] :
		      (v[w->n / 2 - 1] + v[w->n / 2]) / 2;
	free(v);
	w->dist_pct = w->median_v > 0 ?
		      (w->lat ? w->worst_v - w->median_v :
				w->median_v - w->worst_v) / w->median_v * 100 :
		      0;
}

void cxd_win_finish(struct cxd_winrec *wr, uint64_t end, uint64_t count,
		    const struct cxd_lat_stats *st)
{
	if (wr->step == 0)
		return;
	/* A short tail would be judged on too little time: left out. */
	if (end > wr->last_t && end - wr->last_t >= wr->step / 2)
		close_window(wr, end, count, st);
	wr->next = UINT64_MAX;
	worst_and_median(&wr->win);
}

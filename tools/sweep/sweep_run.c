/* cxi_sweep: a pair's measurement and the plans (main and retest). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "base/cpu_wait.h"
#include "sweep_mpi.h"

void sw_aim(struct sw *w, int p, const char *role)
{
	struct cxd_sess *s = &w->s;

	w->partner = p;
	snprintf(w->peer_host, sizeof(w->peer_host), "%s", w->ranks[p].host);
	snprintf(w->who, sizeof(w->who), "the %s rank %d (%.100s)", role, p,
		 w->ranks[p].host);
	s->who = w->who;
	s->peer = w->addrs[p];
	s->fab->peer = w->fiaddr[p];
}

/* One pair: latency each way, then bandwidth each way, --repeat times;
 * the lower rank leads first. Results land in this rank's repeats for
 * the links it led. */
void sw_measure_pair(struct sw *w, int p)
{
	struct cxd_sess *s = &w->s;
	bool first = w->rank < p;
	uint64_t t0 = cxd_now_ns(), c0 = cxd_cpu_wait_ns(), c1;
	int ret = 0;

	sw_aim(w, p, "peer");
	/* Latency first: its untimed warmup opens the provider's connection
	 * (tcp connects on first use), which bandwidth must not pay for. */
	/* Repeats interleaved, so a passing disturbance hits one of them. */
	for (int step = 0; ret == 0 && step < 4 * (int) w->repeat; step++) {
		bool lat = step % 4 < 2;
		size_t k = (size_t) p * w->repeat + (size_t) step / 4;

		s->is_client = s->active = (step % 2 == 0) == first;
		s->tool = lat ? w->lat_tool : w->bw_tool;
		s->run = lat ? &w->lat_run : &w->bw_run;
		w->last = NAN;
		ret = s->tool->run(s, NULL);
		if (ret == 0 && s->is_client)
			w->rep[lat ? CXD_M_LAT : CXD_M_BW][k] = w->last;
	}
	if (ret)
		sw_die(w, "with rank %d (%s) in round %d: %s", p, w->ranks[p].host,
		    w->round, s->err);
	c1 = cxd_cpu_wait_ns();
	w->busy_row[p] = c0 == UINT64_MAX || c1 == UINT64_MAX ? NAN :
			 (double) (c1 - c0) / (double) (cxd_now_ns() - t0);
}

static void plan_alloc(struct sw *w, struct sw_plan *pl, int nrounds)
{
	pl->per = 0;
	pl->nrounds = nrounds;
	pl->stride = w->n / 2 + 1;
	pl->count = sw_alloc(w, (size_t) nrounds, sizeof(int));
	pl->pairs = sw_alloc(w, (size_t) nrounds * pl->stride,
				 sizeof(struct cxd_pair));
}

void sw_plan_free(struct sw_plan *pl)
{
	free(pl->count);
	free(pl->pairs);
}

/* The circle rounds, each cut into rounds of at most pairs_at_once pairs
 * (--max-pairs, or fewer when ranks outnumber a host's CPUs). */
void sw_main_plan(struct sw *w, struct sw_plan *pl)
{
	int per = w->n / 2;

	if (w->pairs_at_once < per)
		per = w->pairs_at_once;
	*pl = (struct sw_plan){ cxd_sweep_nrounds(w->n) *
				((w->n / 2 + per - 1) / per), NULL, NULL, 0,
				per };
}

void sw_plan_list(struct sw *w, const struct sw_plan *in,
		  struct sw_plan *out)
{
	int nr = cxd_sweep_nrounds(w->n), per = in->per, k = 0;
	struct cxd_pair *tmp = sw_alloc(w, (size_t) w->n / 2 + 1,
					sizeof(*tmp));

	plan_alloc(w, out, in->nrounds);
	for (int r = 0; r < nr; r++) {
		int c = cxd_sweep_round(w->n, r, tmp);

		for (int i = 0; i < c; i += per, k++) {
			out->count[k] = c - i < per ? c - i : per;
			memcpy(out->pairs + (size_t) k * out->stride, tmp + i,
			       (size_t) out->count[k] * sizeof(*tmp));
		}
	}
	out->nrounds = k;
	free(tmp);
}

/* Retests: the suspect pairs, packed greedily into rounds of disjoint
 * pairs, at most pairs_at_once each (at most one round per pair). */
void sw_retest_plan(struct sw *w, const struct cxd_pair *p, int np,
		    struct sw_plan *pl)
{
	bool *placed = sw_alloc(w, (size_t) np, sizeof(bool));
	bool *busy = sw_alloc(w, (size_t) w->n, sizeof(bool));
	int left = np;

	plan_alloc(w, pl, np);
	pl->nrounds = 0;
	while (left > 0) {
		int r = pl->nrounds++;
		struct cxd_pair *out = pl->pairs + (size_t) r * pl->stride;

		memset(busy, 0, (size_t) w->n * sizeof(bool));
		pl->count[r] = 0;
		for (int i = 0; i < np && pl->count[r] < w->pairs_at_once;
		     i++) {
			if (placed[i] || busy[p[i].a] || busy[p[i].b])
				continue;
			busy[p[i].a] = busy[p[i].b] = placed[i] = true;
			out[pl->count[r]++] = p[i];
			left--;
		}
	}
	free(placed);
	free(busy);
}

void sw_reset_rows(struct sw *w)
{
	size_t nk = (size_t) w->n * w->repeat;

	for (int i = 0; i < w->n; i++)
		w->bw_row[i] = w->lat_row[i] = w->busy_row[i] = NAN;
	for (size_t k = 0; k < nk; k++)
		w->rep[0][k] = w->rep[1][k] = NAN;
}

/* cxi_sweep: a pair's measurement (through the engine) and the plans
 * (main and retest). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/cpu_wait.h"
#include "sweep_mpi.h"

/* One pair: latency each way, then bandwidth each way, --repeat times;
 * the lower rank leads first. Results land in this rank's repeats for
 * the links it led. */
void sw_measure_pair(struct sw *w, int p)
{
	struct sw_engine *e = w->eng;
	bool first = w->m.rank < p;
	uint64_t t0 = cxd_now_ns(), c0 = cxd_cpu_wait_ns(), c1;
	int ret = 0;

	/* Latency first: its untimed warmup opens the provider's connection
	 * (tcp connects on first use), which bandwidth must not pay for. */
	/* Repeats interleaved, so a passing disturbance hits one of them. */
	for (int step = 0; ret == 0 && step < 4 * (int) w->repeat; step++) {
		struct sw_dir d = { p, (step % 2 == 0) == first, step % 4 < 2,
				    "peer" };
		size_t k = (size_t) p * w->repeat + (size_t) step / 4;
		struct sw_fig f;

		ret = e->measure(e, &d, &f);
		if (ret == 0 && d.lead)
			w->judge.rep[d.lat ? CXD_M_LAT : CXD_M_BW][k] = f.v;
	}
	if (ret)
		sw_die(&w->m, "with rank %d (%s) in round %d: %s", p,
		       w->ranks[p].host, w->pace.round, e->why(e));
	c1 = cxd_cpu_wait_ns();
	w->judge.busy_row[p] = c0 == UINT64_MAX || c1 == UINT64_MAX ? NAN :
			 (double) (c1 - c0) / (double) (cxd_now_ns() - t0);
}

static void plan_alloc(struct sw *w, struct sw_plan *pl, int nrounds,
		       size_t npairs)
{
	pl->per = 0;
	pl->nrounds = nrounds;
	pl->count = sw_alloc(&w->m, (size_t) nrounds + 1, sizeof(int));
	pl->first = sw_alloc(&w->m, (size_t) nrounds + 1, sizeof(int));
	pl->pairs = sw_alloc(&w->m, npairs + 1, sizeof(struct cxd_pair));
}

void sw_plan_free(struct sw_plan *pl)
{
	free(pl->count);
	free(pl->first);
	free(pl->pairs);
}

/* The circle rounds, each cut into rounds of at most pairs_at_once pairs
 * (--max-pairs, or fewer when ranks outnumber a host's CPUs). */
void sw_main_plan(struct sw *w, struct sw_plan *pl)
{
	int per = w->m.n / 2;

	if (w->pace.pairs_at_once < per)
		per = w->pace.pairs_at_once;
	*pl = (struct sw_plan){ cxd_sweep_nrounds(w->m.n) *
				((w->m.n / 2 + per - 1) / per), NULL, NULL,
				NULL, per };
}

void sw_plan_list(struct sw *w, const struct sw_plan *in,
		  struct sw_plan *out)
{
	int nr = cxd_sweep_nrounds(w->m.n), per = in->per, k = 0, at = 0;
	struct cxd_pair *tmp = sw_alloc(&w->m, (size_t) w->m.n / 2 + 1,
					sizeof(*tmp));

	plan_alloc(w, out, in->nrounds, (size_t) nr * (size_t) (w->m.n / 2));
	for (int r = 0; r < nr; r++) {
		int c = cxd_sweep_round(w->m.n, r, tmp);

		for (int i = 0; i < c; i += per, k++) {
			out->count[k] = c - i < per ? c - i : per;
			out->first[k] = at;
			memcpy(out->pairs + at, tmp + i,
			       (size_t) out->count[k] * sizeof(*tmp));
			at += out->count[k];
		}
	}
	out->nrounds = k;
	free(tmp);
}

/* The first round at or after r with room, as a union-find over full
 * rounds: each full round points past itself. */
static int room_at(int *next, int r)
{
	int root = r;

	while (next[root] != root)
		root = next[root];
	while (next[r] != root) {
		int up = next[r];

		next[r] = root;
		r = up;
	}
	return root;
}

/*
 * Retests: the suspect pairs in rounds of disjoint pairs, at most
 * pairs_at_once each. Each pair goes to the first round with room after
 * both its ranks' latest: a rank's rounds only grow, so it is free
 * there. Near-linear in the pairs (a whole fabric's worth at scale),
 * never a round per pair scanned per round.
 */
void sw_retest_plan(struct sw *w, const struct cxd_pair *p, int np,
		    struct sw_plan *pl)
{
	int *free_from = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
	int *round = sw_alloc(&w->m, (size_t) np + 1, sizeof(int));
	int *next = sw_alloc(&w->m, (size_t) np + 2, sizeof(int));
	int *cnt = sw_alloc(&w->m, (size_t) np + 1, sizeof(int));
	int nr = 0;

	for (int r = 0; r <= np + 1; r++)
		next[r] = r;
	for (int i = 0; i < np; i++) {
		int a = free_from[p[i].a], b = free_from[p[i].b];
		int r = room_at(next, a > b ? a : b);

		round[i] = r;
		if (++cnt[r] == w->pace.pairs_at_once)
			next[r] = r + 1;
		free_from[p[i].a] = free_from[p[i].b] = r + 1;
		nr = r + 1 > nr ? r + 1 : nr;
	}
	plan_alloc(w, pl, nr, (size_t) np);
	for (int r = 1; r < nr; r++)
		pl->first[r] = pl->first[r - 1] + cnt[r - 1];
	for (int i = 0; i < np; i++)
		pl->pairs[pl->first[round[i]] + pl->count[round[i]]++] = p[i];
	free(free_from);
	free(round);
	free(next);
	free(cnt);
}

void sw_reset_rows(struct sw *w)
{
	size_t nk = (size_t) w->m.n * w->repeat;

	for (int i = 0; i < w->m.n; i++)
		w->judge.bw_row[i] = w->judge.lat_row[i] =
			w->judge.busy_row[i] = NAN;
	for (size_t k = 0; k < nk; k++)
		w->judge.rep[0][k] = w->judge.rep[1][k] = NAN;
}

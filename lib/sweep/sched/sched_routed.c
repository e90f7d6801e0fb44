/* SPDX-License-Identifier: BSD-3-Clause */
/* The full sweep packed by routes (sched_routed.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sched_routed.h"
#include "sched_routed_set.h"

/* The order of the switch pairs is weighed again every this many rounds:
 * the pressures move slowly, and sorting every round would cost more
 * than the packing. */
#define REWEIGH 4

/* The round being filled: a rank, link line or switch is this round's
 * when its stamp is the round (nothing is cleared between rounds). */
struct fill {
	int round, placed, most;
	int *busy;            /* n: ranks */
	int *lstamp, *load;   /* nlink */
	int *fstamp, *nfree;  /* nswitch: ranks of the switch not yet busy */
	struct cxd_routed *out;
};

/* Pairs between the two switches of sp that may run at once beside
 * what the round holds: the fewest cables left on its links. */
static int room(const struct cxd_routed_set *s, const struct fill *f, int sp)
{
	int k = f->most - f->placed;

	for (size_t e = s->lk_at[sp]; e < s->lk_at[sp + 1]; e++) {
		int l = s->lk[e];
		int used = f->lstamp[l] == f->round ? f->load[l] : 0;

		if (s->cables[l] - used < k)
			k = s->cables[l] - used;
	}
	return k;
}

static int free_on(struct fill *f, const struct cxd_routed_set *s, int sw)
{
	if (f->fstamp[sw] != f->round) {
		f->fstamp[sw] = f->round;
		f->nfree[sw] = s->rs_at[sw + 1] - s->rs_at[sw];
	}
	return f->nfree[sw];
}

static void place(struct cxd_routed_set *s, struct fill *f, int sp,
		  struct cxd_pair p)
{
	f->busy[p.a] = f->busy[p.b] = f->round;
	f->nfree[s->sw[p.a]]--;
	f->nfree[s->sw[p.b]]--;
	s->rrem[p.a]--;
	s->rrem[p.b]--;
	for (size_t e = s->lk_at[sp]; e < s->lk_at[sp + 1]; e++) {
		int l = s->lk[e];

		f->load[l] = (f->lstamp[l] == f->round ? f->load[l] : 0) + 1;
		f->lstamp[l] = f->round;
		s->lrem[l]--;
	}
	f->out->pair[f->out->npair++] = p;
	f->placed++;
}

/* Up to k of sp's pairs left whose ranks are both free, in their order;
 * the rest kept in order. */
static void take(struct cxd_routed_set *s, struct fill *f, int sp, int k)
{
	struct cxd_pair *q = s->pr + s->pr_at[sp];
	int keep = 0;

	for (int i = 0; i < s->left[sp]; i++) {
		if (k > 0 && f->busy[q[i].a] != f->round &&
		    f->busy[q[i].b] != f->round) {
			place(s, f, sp, q[i]);
			k--;
		} else {
			q[keep++] = q[i];
		}
	}
	s->left[sp] = keep;
}

/* One round: the switch pairs in their order, each taking what its
 * links and free ranks allow. */
static void fill_round(struct cxd_routed_set *s, struct fill *f)
{
	f->placed = 0;
	for (int i = 0; i < s->nlive && f->placed < f->most; i++) {
		int sp = s->order[i], a = s->spa[sp], b = s->spb[sp], k;

		if (s->left[sp] == 0)
			continue;
		if (a == b ? free_on(f, s, a) < 2 :
		    free_on(f, s, a) < 1 || free_on(f, s, b) < 1)
			continue;
		k = room(s, f, sp);
		if (k > 0)
			take(s, f, sp, k);
	}
}

static int fill_all(struct cxd_routed_set *s, struct fill *f)
{
	struct cxd_routed *o = f->out;

	o->round_at[0] = 0;
	for (f->round = 0; o->npair < s->npair; f->round++) {
		if (f->round % REWEIGH == 0 && cxd_routed_set_weigh(s) != 0)
			return -ENOMEM;
		fill_round(s, f);
		if (f->placed == 0)
			return -EINVAL; /* cannot be: a round alone fits one */
		o->round_at[f->round + 1] = (int) o->npair;
	}
	o->nround = f->round;
	return 0;
}

static int pack(struct cxd_routed_set *s, int most, struct cxd_routed *o)
{
	size_t nl = (size_t) s->nlink + 1, ns = (size_t) s->ns + 1;
	struct fill f = { .most = most, .out = o,
			  .busy = malloc(((size_t) s->n + 1) * sizeof(int)),
			  .lstamp = malloc(nl * sizeof(int)),
			  .load = malloc(nl * sizeof(int)),
			  .fstamp = malloc(ns * sizeof(int)),
			  .nfree = malloc(ns * sizeof(int)) };
	int ret = -ENOMEM;

	o->pair = malloc((s->npair + 1) * sizeof(*o->pair));
	o->round_at = malloc((s->npair + 2) * sizeof(int));
	if (f.busy && f.lstamp && f.load && f.fstamp && f.nfree && o->pair &&
	    o->round_at) {
		memset(f.busy, 0xff, ((size_t) s->n + 1) * sizeof(int));
		memset(f.lstamp, 0xff, nl * sizeof(int));
		memset(f.fstamp, 0xff, ns * sizeof(int));
		ret = fill_all(s, &f);
	}
	free(f.busy);
	free(f.lstamp);
	free(f.load);
	free(f.fstamp);
	free(f.nfree);
	return ret;
}

int cxd_routed_build(int n, const struct cxd_topo_map *tm, int most,
		     struct cxd_routed *out)
{
	struct cxd_routed_set s;
	int ret;

	memset(out, 0, sizeof(*out));
	if (most < 1)
		return -EINVAL;
	ret = cxd_routed_set_make(n, tm, &s);
	if (ret != 0)
		return ret;
	cxd_routed_set_bound(&s, most, &out->bound, &out->busiest);
	/* Each round looks at every switch pair left: past this the
	 * packing would cost rank 0 more than the rounds it saves. */
	ret = (double) s.nsp * out->bound > CXD_ROUTED_WORK_MAX ? -E2BIG :
	      pack(&s, most, out);
	cxd_routed_set_free(&s);
	if (ret != 0)
		cxd_routed_free(out);
	return ret;
}

void cxd_routed_free(struct cxd_routed *r)
{
	free(r->pair);
	free(r->round_at);
	memset(r, 0, sizeof(*r));
}

int cxd_routed_steps(const struct cxd_routed *r, int n, int *count,
		     int *first, int *step)
{
	int *at = malloc(((size_t) n + 1) * sizeof(int));

	if (at == NULL)
		return -ENOMEM;
	memset(count, 0, (size_t) n * sizeof(int));
	for (size_t i = 0; i < r->npair; i++) {
		count[r->pair[i].a]++;
		count[r->pair[i].b]++;
	}
	for (int k = 0; k < n; k++)
		at[k] = first[k] = k == 0 ? 0 : first[k - 1] + count[k - 1];
	for (int t = 0; t < r->nround; t++)
		for (int i = r->round_at[t]; i < r->round_at[t + 1]; i++) {
			struct cxd_pair p = r->pair[i];

			step[2 * at[p.a]] = step[2 * at[p.b]] = t;
			step[2 * at[p.a]++ + 1] = p.b;
			step[2 * at[p.b]++ + 1] = p.a;
		}
	free(at);
	return 0;
}

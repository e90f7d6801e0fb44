/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the capacity pass (capacity_mpi.h). Rank 0 says whether it
 * runs and which ranks and bundles sit out (named already); every rank
 * then builds the same plan (lib/sweep/capacity/capacity.c), runs its rounds
 * CXD_CAP_REPS times, bandwidth only, one run each way, all of a round's
 * pairs at once, and keeps the figure it led in its pair's slot; one
 * reduction brings every slot to rank 0, which judges.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/cpu_wait.h"
#include "sweep/capacity/capacity_model.h"
#include "sweep/judge/judge_suspects.h"
#include "sweep/sched/retest.h"
#include "capacity_mpi.h"

/* What rank 0 tells every rank before the pass. */
struct head {
	int run;               /* 0: skipped, rank 0's why says why */
	int stated[CXD_TOPO_W_KINDS];
};

/* Who sits out and what the widths are, on every rank. */
struct inputs {
	bool *skip, *skip_pair;
	bool stated[CXD_TOPO_W_KINDS];
	int width[CXD_TOPO_W_KINDS];
	int reload;            /* cxd_cap_want's */
};

/* The figure this rank led in the round being run, and the share of
 * the pair's time it waited for a CPU (NAN: unknown). */
struct led {
	struct sw_meter mt;
	double v, busy;
};

static void keep_led(void *arg, uint64_t k, const struct sw_dir *d,
		     const struct sw_fig *f)
{
	struct led *l = arg;

	(void) k;
	(void) d;
	l->v = f->v;
}

static void cap_pair(void *arg, const struct sw_turn *t, int p)
{
	struct led *l = arg;
	const struct sw_ctx *c = l->mt.c;
	uint64_t t0 = cxd_now_ns(), c0 = cxd_cpu_wait_ns(), c1;

	if (sw_pair_runs(&l->mt, t, p, 1, "peer", keep_led, l) != 0)
		sw_die(&c->m, "with rank %d (%s) loading a shared link: %s",
		       p, c->ranks[p].host, l->mt.eng->why(l->mt.eng));
	c1 = cxd_cpu_wait_ns();
	l->busy = c0 == UINT64_MAX || c1 == UINT64_MAX ? NAN :
		  (double) (c1 - c0) / (double) (cxd_now_ns() - t0 + 1);
}

/* Why the pass cannot run at all; NULL: it can (rank 0). */
static const char *why_not(const struct sw_ctx *c,
			   const struct cxd_sweep_suspects *g)
{
	if (c->cfg.sweep.sw_flags & CXD_SW_NO_CAPACITY)
		return "--no-capacity";
	if (c->place.switch_of == NULL)
		return "no --topology: which pairs load which links is unknown";
	if (c->coord_only)
		return "coordination only (a test copy)";
	if (c->hosts.pairs_at_once < 2)
		return "one pair at a time (--max-pairs or the hosts' CPUs)";
	for (size_t i = 0; i < g->n; i++)
		if (g->list[i].kind == CXD_S_FABRIC)
			return "the whole fabric is named already";
	return NULL;
}

/* Rank 0: the ranks (their NIC, switch or group named) and bundles
 * that sit out, and the head. */
static void rank0_inputs(struct sw_capacity *cap, const struct sw_ctx *c,
			 const struct sw_inputs *in,
			 const struct cxd_sweep_suspects *g, struct head *h,
			 char *skip, char *skip_pair)
{
	const struct cxd_topo_map *tm = &c->place;
	const char *why = why_not(c, g);

	h->run = why == NULL;
	snprintf(cap->res.why, sizeof(cap->res.why), "%s", why ? why : "");
	for (int k = 0; in->has_topo && k < CXD_TOPO_W_KINDS; k++)
		h->stated[k] = in->topo.width[k].src == CXD_TOPO_WS_STATED;
	for (int i = 0; h->run && i < c->m.n; i++)
		skip[i] = cxd_judge_rank_suspect(g->list, g->n, i, tm);
	for (size_t i = 0; h->run && i < g->n; i++)
		cxd_cap_skip_named(tm, c->m.n, &g->list[i], skip_pair);
}

/* x from what rank 0 said (h, skip, skip_pair) and the widths. */
static void inputs_of(const struct sw_ctx *c, const struct head *h,
		      const char *skip, const char *skip_pair, int ng,
		      struct inputs *x)
{
	for (int i = 0; i < c->m.n; i++)
		x->skip[i] = skip[i];
	for (int i = 0; i < ng * ng; i++)
		x->skip_pair[i] = skip_pair[i];
	for (int k = 0; k < CXD_TOPO_W_KINDS; k++) {
		x->stated[k] = h->stated[k];
		x->width[k] = c->width[k];
	}
}

/* Rank 0, where its time is bounded: the pass's time foreseen, its
 * first plan's rounds, each run CXD_CAP_REPS times at most twice a
 * pair's time (a load of its width and one more), for the first load,
 * two widenings and the reload; past t.left_s it does not run. */
static void within_time(struct sw_capacity *cap, const struct sw_ctx *c,
			const struct inputs *x, struct sw_cap_time t, int *run)
{
	struct cxd_cap_plan pl;
	double need;

	if (cxd_cap_plan(&c->place, c->ranks, c->m.n,
			 &(const struct cxd_cap_want){
				 x->skip, x->skip_pair, x->width, x->stated,
				 c->hosts.pairs_at_once, 0 }, &pl) != 0)
		sw_die(&c->m, "out of memory");
	need = 4.0 * pl.nrounds * CXD_CAP_REPS * 2.0 * t.pair_s;
	cxd_cap_plan_free(&pl);
	if (!(need > t.left_s))
		return;
	*run = 0;
	snprintf(cap->res.why, sizeof(cap->res.why), "the budget's time "
		 "left, %.3g s, is short of the %.3g s it may take", t.left_s,
		 need);
}

/* This rank's slot in round r: its figure and CPU wait filed. */
static void file_fig(const struct sw_ctx *c, const struct cxd_cap_plan *pl,
		     int r, int rep, const struct led *l, double *fig)
{
	size_t nfig = CXD_CAP_NFIG(pl->nunits);

	for (int u = 0; u < pl->nunits; u++) {
		const struct cxd_cap_unit *x = &pl->unit[u];

		for (int i = 0; x->round == r && i < x->np; i++) {
			struct cxd_pair q = cxd_cap_pair(x, rep, i);

			if (q.a == c->m.rank || q.b == c->m.rank) {
				size_t k = CXD_CAP_FIG(u, i, rep,
						       q.b == c->m.rank);

				fig[k] = l->v;
				fig[nfig + k] = l->busy;
			}
		}
	}
}

/* Round r's pairs all at once, bandwidth only, not in turns: loading
 * the shared links is the pass's point. */
static void run_round(const struct sw_ctx *c, struct led *l,
		      const struct cxd_cap_plan *pl, int r, int rep,
		      double *fig, struct cxd_pair *buf)
{
	struct sw_pace_mode bw;
	struct cxd_plan one;
	int np = 0;

	for (int u = 0; u < pl->nunits; u++)
		for (int i = 0; pl->unit[u].round == r &&
				i < pl->unit[u].np; i++) {
			struct cxd_pair q = cxd_cap_pair(&pl->unit[u], rep, i);

			buf[np++] = q.a < q.b ? q : (struct cxd_pair){ q.b, q.a };
		}
	if (np == 0)
		return;
	if (cxd_retest_plan(c->m.n, np, buf, np, &one) != 0)
		sw_die(&c->m, "out of memory");
	l->v = l->busy = NAN;
	bw = sw_pace_mode_at(SW_RUN_BW, np);
	sw_pace(c, &bw, &one, cap_pair, l, NULL);
	cxd_sched_free(&one);
	file_fig(c, pl, r, rep, l, fig);
}

/* The rounds of plan pl that load a unit, each CXD_CAP_REPS times: the
 * pass's rounds on rank 0's progress line. */
static unsigned loaded_rounds(const struct cxd_cap_plan *pl)
{
	unsigned n = 0;

	for (int r = 0; r < pl->nrounds; r++) {
		bool any = false;

		for (int u = 0; !any && u < pl->nunits; u++)
			any = pl->unit[u].round == r && pl->unit[u].np > 0;
		n += any;
	}
	return n * CXD_CAP_REPS;
}

/* Every rank's figures, then CPU waits, in all on every rank. */
static void run_plan(struct sw_capacity *cap, const struct sw_ctx *c,
		     struct sw_engine *e, double *all)
{
	const struct cxd_cap_plan *pl = &cap->plan;
	size_t nfig = 2 * CXD_CAP_NFIG(pl->nunits);
	double *fig = sw_alloc(&c->m, nfig + 1, sizeof(double));
	struct cxd_pair *buf = sw_alloc(&c->m, (size_t) c->m.n + 1,
					sizeof(*buf));
	struct led l = { { c, e, NULL, 0 }, NAN, NAN };

	if (c->m.line)
		cxd_rprog_expect(c->m.line, loaded_rounds(pl));
	for (int rep = 0; rep < CXD_CAP_REPS; rep++)
		for (int r = 0; r < pl->nrounds; r++)
			run_round(c, &l, pl, r, rep, fig, buf);
	/* 0 where no rank led: MAX keeps the one that did */
	for (size_t i = 0; i < nfig; i++)
		if (!(fig[i] > 0))
			fig[i] = 0.0;
	sw_allreduce(&c->m, fig, all, (int) nfig, MPI_DOUBLE, MPI_MAX,
		     "the capacity pass's figures");
	free(fig);
	free(buf);
}

/* Nothing in the plan to load (every rank on one switch): why, true. */
static bool nothing(const struct cxd_cap_plan *pl, char *why, size_t len)
{
	for (int s = 0; s < CXD_CAP_SCOPES; s++)
		if (pl->cls[s].present)
			return false;
	snprintf(why, len, "no two switches hold ranks: no shared link to "
		 "load");
	return true;
}

/* Rank 0: a suspect for each finding, kept by the pass (the report
 * lists them after the gathering's). */
static void add_suspects(struct sw_capacity *cap, const struct sw_ctx *c)
{
	const struct cxd_cap_res *res = &cap->res;

	cap->sus = sw_alloc(&c->m, (size_t) res->nfound + 1,
			    sizeof(*cap->sus));
	for (int i = 0; i < res->nfound; i++)
		cap->sus[i] = (struct cxd_suspect){
			.kind = CXD_S_CAPACITY, .metric = CXD_M_BW,
			.id = res->found[i].a, .id2 = res->found[i].b,
			.cap = i };
	cap->nsus = (size_t) res->nfound;
}

/* Rank 0, with the fabric's links: its routes (capacity_model.h);
 * false without, or where the routes cannot be made (then no unit is
 * named: it needs links). */
static bool model(const struct sw_ctx *c, struct cxd_cap_model *m)
{
	int ret;

	if (c->m.rank != 0 || c->place.nlink == 0)
		return false;
	ret = cxd_cap_model_init(m, &c->place, c->m.n);
	if (ret == -ENOMEM)
		sw_die(&c->m, "out of memory");
	return ret == 0;
}

/* Each scope's typical pair: of its class of link (rank 0 judges). */
static void class_pairs(struct cxd_cap_plan *pl, const struct cxd_rules *r)
{
	static const enum cxd_lclass of[CXD_CAP_SCOPES] = {
		[CXD_CAP_BUNDLE] = CXD_LC_ACROSS,
		[CXD_CAP_SWITCHES] = CXD_LC_GROUP,
		[CXD_CAP_LEAVES] = CXD_LC_ACROSS,
	};

	for (int s = 0; s < CXD_CAP_SCOPES; s++)
		pl->cls[s].pair = r->bw_typical_of[of[s]];
}

/* One pass over the plan of the widths in x; rank 0 judges it (no
 * suspect added yet). false: nothing to load (res.why says). */
static bool one_pass(struct sw_capacity *cap, const struct sw_ctx *c,
		     struct sw_engine *e, const struct inputs *x,
		     const struct sw_judging *j)
{
	const struct cxd_tol *t = &j->rules.tol[CXD_M_BW];
	struct cxd_cap_model m;
	double *all;
	bool have;

	const struct cxd_cap_want w = { x->skip, x->skip_pair, x->width,
					x->stated, c->hosts.pairs_at_once,
					x->reload };

	cxd_cap_res_free(&cap->res);
	cxd_cap_plan_free(&cap->plan);
	if (cxd_cap_plan(&c->place, c->ranks, c->m.n, &w, &cap->plan) != 0)
		sw_die(&c->m, "out of memory");
	class_pairs(&cap->plan, &j->rules);
	if (nothing(&cap->plan, cap->res.why, sizeof(cap->res.why)))
		return false;
	all = sw_alloc(&c->m, 2 * CXD_CAP_NFIG(cap->plan.nunits) + 1,
		       sizeof(double));
	run_plan(cap, c, e, all);
	have = model(c, &m);
	if (c->m.rank == 0 &&
	    cxd_cap_judge(&cap->plan, all, all + CXD_CAP_NFIG(cap->plan.nunits),
			  j->rules.typical[CXD_M_BW], t->tol, t->poor,
			  have ? &m : NULL, &cap->res) != 0)
		sw_die(&c->m, "out of memory");
	if (have)
		cxd_cap_model_free(&m);
	free(all);
	return true;
}

/* Rank 0: a measured width whose typical unit carried its whole load
 * (so the load did not fill it: the width's sample was narrower than
 * the typical unit, links down on it) grows to what that unit carried,
 * at least twice. Any grown? Every rank learns the widths. */
static bool wider(struct sw_capacity *cap, const struct sw_ctx *c,
		  const struct sw_judging *j, struct inputs *x)
{
	double pair = j->rules.typical[CXD_M_BW];
	int grow = 0;

	for (int s = 0; c->m.rank == 0 && s < CXD_CAP_SCOPES; s++) {
		const struct cxd_cap_class *cl = &cap->plan.cls[s];
		int k = cxd_cap_width_kind(s), w = x->width[k];
		int room = c->hosts.pairs_at_once < CXD_CAP_LOAD ?
			   c->hosts.pairs_at_once : CXD_CAP_LOAD;
		int to = (int) (cl->expected / pair + 0.5);

		if (!cl->present || cl->load == 0 || cl->stated ||
		    cl->load >= room || !(pair > 0) ||
		    !(cl->expected >= (cl->load - 0.5) * pair))
			continue;
		to = to > 2 * w ? to : 2 * w;
		x->width[k] = to < room - 1 ? to : room - 1;
		grow = 1;
	}
	sw_bcast(&c->m, &grow, 1, MPI_INT, "the capacity pass's widths");
	sw_bcast(&c->m, x->width, CXD_TOPO_W_KINDS, MPI_INT,
		 "the capacity pass's widths");
	return grow;
}

/* Units short (or short where only links could tell) are confirmed by
 * a second load from other hosts before any is named: the whole pass
 * again (it costs a few per cent of the run), judged the same way, and
 * the first load's states confirmed or cleared by it (cxd_cap_confirm).
 * A hash that put the first load's pairs on few cables rarely does it
 * again with other pairs; links down do. */
static void reload(struct sw_capacity *cap, const struct sw_ctx *c,
		   struct sw_engine *e, struct inputs *x,
		   const struct sw_judging *j)
{
	struct cxd_cap_plan first = cap->plan, none = { 0 };
	struct cxd_cap_res fres = cap->res;
	int want = c->m.rank == 0 && cxd_cap_to_confirm(&first);
	bool ran;

	sw_bcast(&c->m, &want, 1, MPI_INT, "the capacity pass's reload");
	if (!want)
		return;
	memset(&cap->plan, 0, sizeof(cap->plan));
	memset(&cap->res, 0, sizeof(cap->res));
	x->reload = 1;
	ran = one_pass(cap, c, e, x, j);
	x->reload = 0;
	if (c->m.rank == 0 &&
	    cxd_cap_confirm(&first, ran ? &cap->plan : &none, &fres) != 0)
		sw_die(&c->m, "out of memory");
	cxd_cap_res_free(&cap->res);
	cxd_cap_plan_free(&cap->plan);
	cap->plan = first;
	cap->res = fres;
}

void sw_capacity(struct sw_capacity *cap, const struct sw_ctx *c,
		 struct sw_engine *e, const struct sw_inputs *in,
		 const struct sw_judging *j, struct cxd_sweep_suspects named,
		 struct sw_cap_time t)
{
	const struct cxd_topo_map *tm = &c->place;
	int n = c->m.n, ng = tm->switch_of ? cxd_cap_skip_parts(tm) : 0;
	char *skip = sw_alloc(&c->m, (size_t) n, 1);
	char *skip_pair = sw_alloc(&c->m, (size_t) ng * ng + 1, 1);
	struct inputs x = {
		.skip = sw_alloc(&c->m, (size_t) n, sizeof(bool)),
		.skip_pair = sw_alloc(&c->m, (size_t) ng * ng + 1,
				      sizeof(bool)) };
	struct head h = { 0 };
	uint64_t t0 = cxd_now_ns();

	memset(cap, 0, sizeof(*cap));
	if (c->m.rank == 0)
		rank0_inputs(cap, c, in, &named, &h, skip, skip_pair);
	if (c->m.rank == 0 && h.run && isfinite(t.left_s)) {
		inputs_of(c, &h, skip, skip_pair, ng, &x);
		within_time(cap, c, &x, t, &h.run);
	}
	sw_bcast(&c->m, &h, (int) (sizeof(h) / sizeof(int)), MPI_INT,
		 "the capacity pass's start");
	if (h.run) {
		sw_bcast(&c->m, skip, n, MPI_CHAR, "the ranks named");
		sw_bcast(&c->m, skip_pair, ng * ng + 1, MPI_CHAR,
			 "the bundles and leaf pairs named");
		inputs_of(c, &h, skip, skip_pair, ng, &x);
		/* at most twice more: 1, 2, 4 ... 7 covers CXD_CAP_LOAD */
		for (int it = 0; it < 3; it++) {
			h.run = one_pass(cap, c, e, &x, j);
			if (!h.run || !wider(cap, c, j, &x))
				break;
		}
		if (h.run)
			reload(cap, c, e, &x, j);
	}
	if (c->m.rank == 0 && h.run) {
		cap->res.ran = true;
		add_suspects(cap, c);
	}
	cap->res.plan = &cap->plan;
	cap->res.seconds = (double) (cxd_now_ns() - t0) / 1e9;
	free(skip);
	free(skip_pair);
	free(x.skip);
	free(x.skip_pair);
}

void sw_capacity_report(const struct sw_capacity *cap,
			const struct cxd_cap_res **res)
{
	*res = &cap->res;
}

struct cxd_sweep_suspects sw_capacity_suspects(const struct sw_capacity *cap)
{
	return (struct cxd_sweep_suspects){ cap->sus, cap->nsus };
}

void sw_capacity_free(struct sw_capacity *cap)
{
	free(cap->sus);
	cxd_cap_res_free(&cap->res);
	cxd_cap_plan_free(&cap->plan);
}

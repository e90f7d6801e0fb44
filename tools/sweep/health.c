/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's NIC evidence (health.h): each rank reads what its host
 * exposes for the device its endpoint uses (lib/counters), and rank 0
 * gathers a fixed-size record per rank. No traffic is sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/testaid.h"
#include "counters/counters.h"
#include "health.h"

struct sw_ctrs {
	struct cxd_ctrs mine;
	char *moved; /* rank 0: n x SW_MOVED_LEN */
};

/* One rank's pre-flight record, gathered as bytes. */
struct sw_health_rec {
	char dev[64], link[32], speed[48], pcie[80], why[128];
	char moved[SW_MOVED_LEN];
	char unread[SW_MOVED_LEN]; /* counters this user may not read */
	int down, degraded, erroring;
};

static const char *sysroot(void)
{
	const char *r = cxd_testaid_sysroot ? cxd_testaid_sysroot() : NULL;

	return r ? r : "";
}

/* The engine knows which device and addresses this rank's traffic uses. */
static void plan(struct sw *w, struct cxd_ctrs *c)
{
	w->eng->plan_counters(w->eng, c, sysroot());
}

void sw_counters_begin(struct sw *w)
{
	if (w->out.ctrs == NULL)
		w->out.ctrs = sw_alloc(&w->m, 1, sizeof(*w->out.ctrs));
	plan(w, &w->out.ctrs->mine);
	cxd_ctrs_read(&w->out.ctrs->mine, false);
}

void sw_counters_end(struct sw *w)
{
	char mine[SW_MOVED_LEN] = "";

	if (w->out.ctrs == NULL)
		sw_die(&w->m, "sw_counters_end without sw_counters_begin");
	cxd_ctrs_read(&w->out.ctrs->mine, true);
	cxd_ctrs_moved_only(&w->out.ctrs->mine, true, mine, sizeof(mine));
	if (w->m.rank == 0 && w->out.ctrs->moved == NULL)
		w->out.ctrs->moved = sw_alloc(&w->m, (size_t) w->m.n,
					      SW_MOVED_LEN);
	sw_gather(&w->m, mine, SW_MOVED_LEN, MPI_BYTE, w->out.ctrs->moved,
		  "the counter gathering");
}

const char *sw_counters_moved(const struct sw *w, int rank)
{
	if (w->out.ctrs == NULL || w->out.ctrs->moved == NULL || rank < 0 ||
	    rank >= w->m.n)
		return "";
	return w->out.ctrs->moved + (size_t) rank * SW_MOVED_LEN;
}

void sw_counters_free(struct sw *w)
{
	if (w->out.ctrs)
		free(w->out.ctrs->moved);
	free(w->out.ctrs);
	w->out.ctrs = NULL;
}

/* This rank's NIC, checked by the node check's code (lib/counters/
 * ctr_health.c) on the device the engine's endpoint uses. */
static void my_record(struct sw *w, struct sw_health_rec *r)
{
	struct cxd_nic_health *h = sw_alloc(&w->m, 1, sizeof(*h));
	const struct cxd_dev_facts *f = &h->f;

	memset(r, 0, sizeof(*r));
	plan(w, &h->c);
	cxd_health_begin(h, sysroot());
	for (int i = 0; i < SW_HEALTH_S * 10; i++)
		sw_nap(100000000L); /* errors that keep coming show here */
	cxd_health_end(h);
	snprintf(r->dev, sizeof(r->dev), "%s", h->c.dev[0] ? h->c.dev : "-");
	snprintf(r->link, sizeof(r->link), "%s", f->link[0] ? f->link : "-");
	snprintf(r->speed, sizeof(r->speed), "%s", f->speed[0] ? f->speed :
		 "-");
	if (f->pcie_width[0])
		snprintf(r->pcie, sizeof(r->pcie), "x%s %s", f->pcie_width,
			 f->pcie_speed);
	else
		snprintf(r->pcie, sizeof(r->pcie), "-");
	snprintf(r->why, sizeof(r->why), "%s", h->c.dev[0] ? h->why :
		 h->c.note);
	/* Erroring: the device's own counters (a flap among them); the
	 * host's TCP counters move for any connection of the host, so they
	 * are only shown (sw_counters_moved, which has both). */
	snprintf(r->moved, sizeof(r->moved), "%s", h->moved);
	snprintf(r->unread, sizeof(r->unread), "%s", h->unread);
	r->down = h->down;
	r->degraded = h->degraded;
	r->erroring = h->erroring || h->flapping;
	free(h);
}

/* Rank 0: a rank's link speed unlike most ranks' is degraded too. */
static const char *usual_speed(const struct sw_health_rec *all, int n)
{
	int best = 0, bestc = 0;

	for (int i = 0; i < n; i++) {
		int c = 0;

		for (int j = 0; j < n; j++)
			c += strcmp(all[i].speed, all[j].speed) == 0;
		if (c > bestc) {
			best = i;
			bestc = c;
		}
	}
	return all[best].speed;
}

static int health_report(struct sw *w, struct sw_health_rec *all)
{
	const char *usual = usual_speed(all, w->m.n);
	int bad = 0;

	printf("%-5s %-24s %-10s %-10s %-16s %-14s %s\n", "Rank", "Host",
	       "Device", "Link", "Speed", "PCIe", "Verdict");
	for (int i = 0; i < w->m.n; i++) {
		struct sw_health_rec *r = &all[i];
		const char *v = r->down ? "DOWN" : r->degraded ? "DEGRADED" :
				r->erroring ? "ERRORING" : "ok";

		if (!r->down && !r->degraded && strcmp(r->speed, usual)) {
			r->degraded = 1;
			v = "DEGRADED";
			snprintf(r->why, sizeof(r->why), "speed %s where most "
				 "ranks have %s", r->speed, usual);
		}
		bad += r->down || r->degraded || r->erroring;
		printf("%-5d %-24s %-10s %-10s %-16s %-14s %s", i,
		       w->ranks[i].host, r->dev, r->link, r->speed, r->pcie, v);
		if (r->down || r->degraded)
			printf(" (%s)", r->why);
		if (r->erroring)
			printf(" (in %d s: %s)", SW_HEALTH_S, r->moved);
		if (!r->erroring && sw_counters_moved(w, i)[0])
			printf(" (host-wide in %d s: %s)", SW_HEALTH_S,
			       sw_counters_moved(w, i));
		if (r->unread[0])
			printf(" [unavailable: %s]", r->unread);
		printf("\n");
	}
	if (bad == 0)
		printf("Health: all %d ranks' NICs are up, at full width, "
		       "and no error counter moved\n", w->m.n);
	for (int i = 0; i < w->m.n; i++)
		if (all[i].down || all[i].degraded || all[i].erroring)
			printf("Health: %s (rank %d): NIC %s %s\n",
			       w->ranks[i].host, i, all[i].dev,
			       all[i].down ? "is down" : all[i].degraded ?
			       "is degraded" : "is erroring");
	fflush(stdout);
	/* A bad NIC is a verdict, as cxi_node_health's (3); 1 stays for a
	 * check that could not run. */
	return bad ? CXD_EXIT_OUTLIERS : CXD_EXIT_OK;
}

int sw_health(struct sw *w)
{
	struct sw_health_rec mine, *all = NULL;
	int ret = 0;

	if (sw_bootstrap(w) != 0) /* the device in use, every rank's host */
		return CXD_EXIT_USAGE; /* rank 0 has said why */
	sw_counters_begin(w);
	my_record(w, &mine);
	sw_counters_end(w);
	if (w->m.rank == 0)
		all = sw_alloc(&w->m, (size_t) w->m.n, sizeof(*all));
	sw_gather(&w->m, &mine, sizeof(mine), MPI_BYTE, all,
		  "the health gathering");
	if (w->m.rank == 0)
		ret = health_report(w, all);
	free(all);
	sw_counters_free(w);
	/* Every rank leaves with rank 0's verdict. */
	sw_bcast(&w->m, &ret, 1, MPI_INT, "the health verdict");
	return ret;
}

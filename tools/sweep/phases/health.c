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
#include "boot.h"
#include "health.h"

struct sw_ctrs {
	int n;
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
static void plan(const struct sw_engine *e, struct cxd_ctrs *c)
{
	e->plan_counters(e, c, sysroot());
}

struct sw_ctrs *sw_counters_begin(const struct sw_mpi *m,
				  const struct sw_engine *e)
{
	struct sw_ctrs *k = sw_alloc(m, 1, sizeof(*k));

	k->n = m->n;
	plan(e, &k->mine);
	cxd_ctrs_read(&k->mine, false);
	return k;
}

void sw_counters_end(struct sw_ctrs *k, const struct sw_mpi *m)
{
	char mine[SW_MOVED_LEN] = "";

	cxd_ctrs_read(&k->mine, true);
	cxd_ctrs_moved_only(&k->mine, true, mine, sizeof(mine));
	if (m->rank == 0 && k->moved == NULL)
		k->moved = sw_alloc(m, (size_t) m->n, SW_MOVED_LEN);
	sw_gather(m, mine, SW_MOVED_LEN, MPI_BYTE, k->moved,
		  "the counter gathering");
}

const char *sw_counters_moved(const struct sw_ctrs *k, int rank)
{
	if (k == NULL || k->moved == NULL || rank < 0 || rank >= k->n)
		return "";
	return k->moved + (size_t) rank * SW_MOVED_LEN;
}

void sw_counters_free(struct sw_ctrs *k)
{
	if (k)
		free(k->moved);
	free(k);
}

/* This rank's NIC, checked by the node check's code (lib/counters/
 * ctr_health.c) on the device the engine's endpoint uses. */
static void my_record(const struct sw_ctx *c, const struct sw_engine *e,
		      struct sw_health_rec *r)
{
	struct cxd_nic_health *h = sw_alloc(&c->m, 1, sizeof(*h));
	const struct cxd_dev_facts *f = &h->f;

	memset(r, 0, sizeof(*r));
	plan(e, &h->c);
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

static int health_report(const struct sw_ctx *c,
			 const struct sw_ctrs *k,
			 struct sw_health_rec *all)
{
	const char *usual = usual_speed(all, c->m.n);
	int bad = 0;

	printf("%-5s %-24s %-10s %-10s %-16s %-14s %s\n", "Rank", "Host",
	       "Device", "Link", "Speed", "PCIe", "Verdict");
	for (int i = 0; i < c->m.n; i++) {
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
		       c->ranks[i].host, r->dev, r->link, r->speed, r->pcie, v);
		if (r->down || r->degraded)
			printf(" (%s)", r->why);
		if (r->erroring)
			printf(" (in %d s: %s)", SW_HEALTH_S, r->moved);
		if (!r->erroring && sw_counters_moved(k, i)[0])
			printf(" (host-wide in %d s: %s)", SW_HEALTH_S,
			       sw_counters_moved(k, i));
		if (r->unread[0])
			printf(" [unavailable: %s]", r->unread);
		printf("\n");
	}
	if (bad == 0)
		printf("Health: all %d ranks' NICs are up, at full width, "
		       "and no error counter moved\n", c->m.n);
	for (int i = 0; i < c->m.n; i++)
		if (all[i].down || all[i].degraded || all[i].erroring)
			printf("Health: %s (rank %d): NIC %s %s\n",
			       c->ranks[i].host, i, all[i].dev,
			       all[i].down ? "is down" : all[i].degraded ?
			       "is degraded" : "is erroring");
	fflush(stdout);
	/* A bad NIC is a verdict, as cxi_node_health's (3); 1 stays for a
	 * check that could not run. */
	return bad ? CXD_EXIT_OUTLIERS : CXD_EXIT_OK;
}

int sw_health(struct sw_ctx *c, struct sw_engine *e)
{
	struct sw_health_rec mine, *all = NULL;
	struct sw_ctrs *k;
	int ret = 0;

	if (sw_bootstrap(c, e) != 0) /* the device in use, every rank's host */
		return CXD_EXIT_USAGE; /* rank 0 has said why */
	k = sw_counters_begin(&c->m, e);
	my_record(c, e, &mine);
	sw_counters_end(k, &c->m);
	if (c->m.rank == 0)
		all = sw_alloc(&c->m, (size_t) c->m.n, sizeof(*all));
	sw_gather(&c->m, &mine, sizeof(mine), MPI_BYTE, all,
		  "the health gathering");
	if (c->m.rank == 0)
		ret = health_report(c, k, all);
	free(all);
	sw_counters_free(k);
	/* Every rank leaves with rank 0's verdict. */
	sw_bcast(&c->m, &ret, 1, MPI_INT, "the health verdict");
	return ret;
}

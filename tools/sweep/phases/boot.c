/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the context, its hosts and CPUs, the bootstrap (boot.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "base/cpu_set.h"
#include "base/names.h"
#include "base/testaid.h"
#include "preflight.h"
#include "boot.h"

void sw_ctx_init(struct sw_ctx *c)
{
	memset(c, 0, sizeof(*c));
	sw_mpi_init(&c->m);
	c->coord_only = cxd_testaid_coord_only && cxd_testaid_coord_only();
}

void sw_ctx_derive(struct sw_ctx *c)
{
	/* Defaults applied by cxd_opts_parse (the option table's). */
	c->lat_iters = c->cfg.sweep.lat_iters;
	c->repeat = c->cfg.sweep.repeat;
	c->bw_run = c->cfg.run;
	c->lat_run = c->cfg.run;
	c->lat_run.min_size = c->lat_run.max_size = CXD_SWEEP_LAT_SIZE;
	c->lat_run.iters = c->lat_iters;
	c->lat_run.list_size = 1;
	c->lat_run.latency_gap_us = 0; /* the originals' gap spins: none */
	c->lat_run.flags &= ~(uint32_t) CXD_RUN_DURATION;
	/* A pair's wait covers its longest phase, plus slack. */
	c->m.wait_ns = ((c->cfg.run.flags & CXD_RUN_DURATION ?
			c->cfg.run.duration_s : 0) + CXD_SWEEP_WAIT_S) *
		       1000000000ULL;
}

void sw_ctx_free(struct sw_ctx *c)
{
	free(c->ranks);
	free((int *) c->place.switch_of);
	free((int *) c->place.group_of);
}

struct host_cpus {
	char host[256];
	size_t len; /* the name's whole length: over 255, it was cut */
	unsigned char mask[CXD_CPU_MASK]; /* the CPUs it may run on */
};

/* Shown at most: the rest of the refused names are counted. */
#define HOSTS_SHOWN 8

/* Why rank i's host name cannot be carried into the outputs, or 0. */
static int host_bad(const struct host_cpus *x, char *why, size_t len)
{
	if (x->len > CXD_NAME_MAX)
		snprintf(why, len, "%zu bytes long, over %d", x->len,
			 CXD_NAME_MAX);
	else if (strlen(x->host) != x->len)
		snprintf(why, len, "a control character (U+0000) at byte %zu",
			 strlen(x->host) + 1);
	else
		return cxd_name_check(x->host, CXD_NAME_MAX, why, len);
	return -EINVAL;
}

/* Every rank's host name is one the outputs carry (base/names.h). Each
 * rank has every name, so all agree without a word; rank 0 says which
 * (exit 2), the names shown escaped and an over-long one by its head. */
static int hosts_ok(const struct sw_ctx *c, const struct host_cpus *all)
{
	char why[96], head[49], show[CXD_NAME_SHOW_LEN];
	int bad = 0;

	for (int i = 0; i < c->m.n; i++) {
		if (host_bad(&all[i], why, sizeof(why)) == 0)
			continue;
		snprintf(head, sizeof(head), "%.48s", all[i].host);
		cxd_name_show(head, show, sizeof(show));
		if (c->m.rank == 0 && bad < HOSTS_SHOWN)
			fprintf(stderr, "cxi_sweep: rank %d's host name '%s%s' "
				"cannot be carried into the outputs: %s\n", i,
				show, strlen(all[i].host) > 48 ? "..." : "",
				why);
		bad++;
	}
	if (c->m.rank == 0 && bad > HOSTS_SHOWN)
		fprintf(stderr, "cxi_sweep: and %d more ranks' host names\n",
			bad - HOSTS_SHOWN);
	return bad ? CXD_EXIT_USAGE : 0;
}

/* Ranks sharing a host's cores: measure fewer pairs at once (a waiting
 * side needs a core to answer, and timings would measure the scheduler). */
static int share_hosts(struct sw_ctx *c)
{
	struct host_cpus me = { "", 0, { 0 } };
	struct host_cpus *all = sw_alloc(&c->m, (size_t) c->m.n, sizeof(me));
	int *host = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
	int *cpus = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
	struct sw_hosts *h = &c->hosts;
	uint64_t max = c->cfg.sweep.max_pairs;
	int ret;

	me.len = sw_host_name(&c->m, me.host, sizeof(me.host));
	cxd_cpu_mask(me.mask);
	sw_allgather(&c->m, &me, all, sizeof(me), "the host exchange");
	ret = hosts_ok(c, all);
	h->one_host = true;
	for (int i = 0; i < c->m.n; i++) {
		int k = 0;

		while (strcmp(all[k].host, all[i].host) != 0)
			k++;
		host[i] = k;
		/* the host's ranks' CPUs together: a batch system's
		 * binding, not the host's count */
		cpus[k] = cxd_cpu_mask_or(all[k].mask, all[i].mask);
		h->one_host &= k == 0;
	}
	/* This rank's place among its host's ranks (one per NIC). */
	for (int i = 0; i < c->m.n; i++) {
		h->nlocal += host[i] == host[c->m.rank];
		h->local += i < c->m.rank && host[i] == host[c->m.rank];
	}
	h->pairs_at_once = max ? (int) (max < (uint64_t) c->m.n ? max :
					(uint64_t) c->m.n) :
			   cxd_pairs_at_once(c->m.n, host, cpus);
	h->cpus = cpus[host[c->m.rank]];
	h->cpus_enough = (h->nlocal < 2 * h->pairs_at_once ? h->nlocal :
			  2 * h->pairs_at_once) <= h->cpus;
	free(all);
	free(host);
	free(cpus);
	return ret;
}

/* Test copies only (base/testaid.h): a namespace of its own per rank. */
static void test_netns(const struct sw_ctx *c)
{
	char err[256] = "";

	if (cxd_testaid_netns && cxd_testaid_netns(c->m.rank, err, sizeof(err)))
		sw_die(&c->m, "%s", err);
}

/* Places and CPUs first (the memory check needs pairs_at_once), then
 * the engine: provider, device, endpoint, every rank's address. */
int sw_bootstrap(struct sw_ctx *c, struct sw_engine *e)
{
	test_netns(c);
	if (share_hosts(c) != 0)
		return CXD_EXIT_USAGE; /* rank 0 has named the host names */
	if (sw_agree_memory(c) != 0)
		return CXD_EXIT_USAGE;
	return e->open(e, c);
}

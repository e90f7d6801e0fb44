/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_node_health: this node's NICs checked, no peer, no MPI, no traffic
 * (for NHC, Slurm prologs and epilogs). Each NIC's facts and counters are
 * read, then again INTERVAL seconds later (lib/counters/ctr_health.c, the
 * code cxi_sweep --health runs on each rank), one line per NIC. Exit 0:
 * every NIC healthy; 3: one is missing, down, degraded, flapping or
 * erroring (a "Health: NIC ..." line says which and why); 1: no NIC found.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/exit_codes.h"
#include "base/testaid.h"
#include "counters/counters.h"
#include "cxd/config.h"
#include "cxd/tool.h"

#define MAX_NICS 64
#define DEFAULT_INTERVAL_S 2 /* the option row says so: SAID("2") */

struct nic {
	struct cxd_nic_id id;
	char driver[64];
	struct cxd_nic_health h;
};

static const char *sysroot(void)
{
	const char *r = cxd_testaid_sysroot ? cxd_testaid_sysroot() : NULL;

	return r ? r : "";
}

/* The kernel driver bound to the device: NICs are compared with their
 * own kind (a 1 GbE management port is no slow 100 GbE one). */
static void driver_of(const struct cxd_nic_id *id, char *buf, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *slash;

	buf[0] = '\0';
	if (id->device[0] == '\0')
		return;
	snprintf(path, sizeof(path), "%s/driver", id->device);
	if (realpath(path, real) == NULL)
		return;
	slash = strrchr(real, '/');
	cxd_ctr_fmt(buf, len, "%s", slash ? slash + 1 : real);
}

/* -d a,b,c: those NICs, a missing one kept as MISSING; else all. */
static unsigned pick(const char *list, struct nic *nics)
{
	struct cxd_nic_id ids[MAX_NICS];
	char copy[CXD_NAME_LEN], *save = NULL, *tok;
	unsigned n = 0;

	if (list[0] == '\0') {
		n = cxd_nics_find(sysroot(), ids, MAX_NICS);
		for (unsigned i = 0; i < n; i++)
			nics[i].id = ids[i];
		return n;
	}
	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, ",", &save); tok && n < MAX_NICS;
	     tok = strtok_r(NULL, ",", &save), n++) {
		if (!cxd_nic_lookup(sysroot(), tok, &nics[n].id)) {
			snprintf(nics[n].id.name, sizeof(nics[n].id.name),
				 "%s", tok);
			nics[n].h.missing = true;
			snprintf(nics[n].h.why, sizeof(nics[n].h.why), "not in "
				 "/sys/class/cxi, infiniband or net");
		}
	}
	return n;
}

static void nap(uint64_t s)
{
	struct timespec t = { (time_t) s, 0 };

	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

/* A NIC slower than the fastest of its kind and driver on this node. */
static void speed_rule(struct nic *nics, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct cxd_nic_health *h = &nics[i].h;
		double v = cxd_health_speed(h->f.speed);

		for (unsigned j = 0; j < n && !cxd_health_bad(h) && !h->unused &&
		     v > 0; j++) {
			const struct nic *o = &nics[j];

			if (strcmp(o->id.kind, nics[i].id.kind) ||
			    strcmp(o->driver, nics[i].driver) || o->h.unused ||
			    o->h.missing ||
			    cxd_health_speed(o->h.f.speed) <= v)
				continue;
			h->degraded = true;
			/* bounded fields: the line fits why (128) */
			snprintf(h->why, sizeof(h->why), "speed %.36s where "
				 "%.32s has %.36s", h->f.speed, o->id.name,
				 o->h.f.speed);
		}
	}
}

static void print_row(const struct nic *x, uint64_t secs)
{
	const struct cxd_nic_health *h = &x->h;
	char pcie[80] = "-", flaps[24] = "-";

	if (h->f.pcie_width[0])
		snprintf(pcie, sizeof(pcie), "x%s %s", h->f.pcie_width,
			 h->f.pcie_speed);
	if (h->has_flaps)
		snprintf(flaps, sizeof(flaps), "%llu",
			 (unsigned long long) h->flaps_total);
	printf("%-14s %-4s %-9s %-12s %-24s %-6s %s", x->id.name,
	       x->id.kind[0] ? x->id.kind : "-",
	       h->f.link[0] ? h->f.link : "-",
	       h->f.speed[0] ? h->f.speed : "-", pcie, flaps,
	       cxd_health_word(h));
	if (h->missing || h->down || h->degraded || h->flapping)
		printf(" (%s)", h->why);
	if (h->erroring)
		printf(" (in %llu s: %s)", (unsigned long long) secs, h->moved);
	if (h->unread[0])
		printf(" [unavailable: %s]", h->unread);
	printf("\n");
}

static int verdict(const struct nic *nics, unsigned n, uint64_t secs)
{
	unsigned bad = 0, used = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct cxd_nic_health *h = &nics[i].h;

		used += !h->unused;
		if (!cxd_health_bad(h))
			continue;
		bad++;
		printf("Health: NIC %s is %s: %s\n", nics[i].id.name,
		       h->missing ? "missing" : h->down ? "down" :
		       h->degraded ? "degraded" : h->flapping ? "flapping" :
		       "erroring", h->erroring ? h->moved : h->why);
	}
	if (bad == 0)
		printf("Health: PASS: %u NIC%s up, PCIe at its maximum, no "
		       "link flap and no error counter moved in %llu s\n",
		       used, used == 1 ? "" : "s", (unsigned long long) secs);
	else
		printf("Health: FAIL: %u of %u NIC%s\n", bad, n,
		       n == 1 ? "" : "s");
	return bad ? CXD_EXIT_OUTLIERS : CXD_EXIT_OK;
}

static int check(struct nic *nics, unsigned n, uint64_t secs)
{
	for (unsigned i = 0; i < n; i++) {
		if (nics[i].h.missing)
			continue;
		cxd_nic_plan(&nics[i].h.c, sysroot(), nics[i].id.name,
			     nics[i].id.kind);
		driver_of(&nics[i].id, nics[i].driver, sizeof(nics[i].driver));
		cxd_health_begin(&nics[i].h, sysroot());
	}
	nap(secs); /* errors that keep coming show in this wait */
	for (unsigned i = 0; i < n; i++)
		if (!nics[i].h.missing)
			cxd_health_end(&nics[i].h);
	speed_rule(nics, n);
	printf("%-14s %-4s %-9s %-12s %-24s %-6s %s\n", "NIC", "Kind", "Link",
	       "Speed", "PCIe", "Flaps", "Verdict");
	for (unsigned i = 0; i < n; i++)
		print_row(&nics[i], secs);
	return verdict(nics, n, secs);
}

static int check_all(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	uint64_t secs = cfg->local.interval_s ? cfg->local.interval_s :
						DEFAULT_INTERVAL_S;
	struct nic *nics = calloc(MAX_NICS, sizeof(*nics));
	unsigned n;
	int ret;

	if (nics == NULL) {
		fprintf(stderr, "%s: out of memory\n", tool->name);
		return CXD_EXIT_FAIL;
	}
	n = pick(cfg->local.device, nics);
	if (n == 0) {
		printf("Health: no NIC found: none in /sys/class/cxi or "
		       "infiniband, no netdev backed by a device\n");
		free(nics);
		return CXD_EXIT_FAIL;
	}
	ret = check(nics, n, secs);
	free(nics);
	if (fflush(stdout) != 0 || ferror(stdout))
		return CXD_EXIT_FAIL;
	return ret;
}

/* -d: names as sysfs has them: no path, no empty one ("a,,b"). */
static const char *bad_name(const char *list, char *buf, size_t len)
{
	const char *p = list;

	while (list[0] && p) {
		size_t n = strcspn(p, ",");

		snprintf(buf, len, "%.*s", (int) n, p);
		if (n == 0 || buf[0] == '.' || strchr(buf, '/'))
			return buf;
		p = p[n] ? p + n + 1 : NULL;
	}
	return NULL;
}

int cxd_node_health(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	char name[CXD_NAME_LEN];

	if (bad_name(cfg->local.device, name, sizeof(name))) {
		fprintf(stderr, "%s: Invalid NIC name: '%s' in -d '%s' (names "
			"as in /sys/class/cxi, infiniband or net, "
			"comma-separated)\nTry '%s --help' for more "
			"information.\n", tool->name, name, cfg->local.device,
			tool->name);
		return CXD_EXIT_USAGE;
	}
	return check_all(tool, cfg);
}

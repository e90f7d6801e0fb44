/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One NIC's health, the node check's (cxi_node_health) and the sweep's
 * (cxi_sweep --health) alike: its facts (link, speed, PCIe against the
 * maxima, ctr_facts.c), its error counters and link flaps read, a wait,
 * read again. Link flaps: the kernel's carrier_changes of the netdev
 * (sysfs-class-net ABI); a Cassini's is the netdev under its PCI device
 * (/sys/class/cxi/cxiN/device/net/IF). Which NICs a node has: every
 * /sys/class/cxi/X, /sys/class/infiniband/X, and /sys/class/net/X backed
 * by a device (virtual links have none), less the netdevs of the first
 * two's devices.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"

#define CARRIER " carrier_changes"

/* The netdev a Cassini sits on: its carrier_changes is the flap count. */
static void cxi_flaps(struct cxd_ctrs *c, const char *root, const char *dev)
{
	char dir[CXD_CTR_PATH], path[CXD_CTR_PATH], name[CXD_CTR_NAME];
	struct dirent *e;
	DIR *d;

	cxd_ctr_fmt(dir, sizeof(dir), "%s/sys/class/cxi/%s/device/net", root,
		    dev);
	d = opendir(dir);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		cxd_ctr_fmt(path, sizeof(path), "%s/%s/carrier_changes", dir,
			    e->d_name);
		cxd_ctr_fmt(name, sizeof(name), "%s%s", e->d_name, CARRIER);
		cxd_ctrs_add(c, name, path, NULL, NULL);
		break;
	}
	if (d)
		closedir(d);
}

void cxd_nic_plan(struct cxd_ctrs *c, const char *root, const char *name,
		  const char *kind)
{
	memset(c, 0, sizeof(*c));
	if (strcmp(kind, "cxi") == 0) {
		cxd_ctrs_cxi(c, root, name);
		cxi_flaps(c, root, name);
	} else if (strcmp(kind, "ib") == 0) {
		cxd_ctrs_ib(c, root, name);
	} else {
		cxd_ctrs_netdev(c, root, name);
	}
}

/* The flap counter of the plan, if it has one. */
static const struct cxd_ctr *flaps(const struct cxd_ctrs *c)
{
	for (unsigned i = 0; i < c->n; i++) {
		size_t n = strlen(c->c[i].name), k = strlen(CARRIER);

		if (n > k && strcmp(c->c[i].name + n - k, CARRIER) == 0)
			return &c->c[i];
	}
	return NULL;
}

/* A netdev taken down on purpose (IFF_UP clear in its flags): unused. */
static bool admin_down(const struct cxd_ctrs *c, const char *root)
{
	char path[CXD_CTR_PATH], buf[32] = "";
	FILE *f;

	if (strcmp(c->kind, "net") != 0)
		return false;
	cxd_ctr_fmt(path, sizeof(path), "%s/sys/class/net/%s/flags", root,
		    c->dev);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return buf[0] && (strtoul(buf, NULL, 16) & 1u) == 0;
}

void cxd_health_begin(struct cxd_nic_health *h, const char *root)
{
	cxd_ctrs_read(&h->c, false);
	cxd_dev_facts(&h->c, root, &h->f);
	h->unused = admin_down(&h->c, root);
}

/* Only the counters this user may not read (named, never taken as 0). */
static void unreadable(const struct cxd_ctrs *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < c->n && used + 1 < len; i++)
		if (!cxd_ctr_ok(&c->c[i]))
			used += (size_t) snprintf(buf + used, len - used,
						  "%s%s", used ? ", " : "",
						  c->c[i].name);
	if (used >= len)
		buf[len - 1] = '\0';
}

void cxd_health_end(struct cxd_nic_health *h)
{
	const struct cxd_ctr *fl;

	cxd_ctrs_read(&h->c, true);
	/* The device's own counters; the host's TCP ones move for any
	 * connection of the host, so they never make a NIC erroring. */
	cxd_ctrs_moved_only(&h->c, false, h->moved, sizeof(h->moved));
	unreadable(&h->c, h->unread, sizeof(h->unread));
	fl = flaps(&h->c);
	h->has_flaps = fl && fl->err_after == 0;
	h->flaps_total = h->has_flaps ? fl->after : 0;
	h->flapping = fl && cxd_ctr_ok(fl) && cxd_ctr_delta(fl) > 0;
	h->down = h->f.down && !h->unused;
	h->degraded = h->f.degraded && !h->unused;
	h->erroring = h->moved[0] != '\0' && !h->flapping;
	snprintf(h->why, sizeof(h->why), "%s", h->f.why);
	if (h->flapping)
		snprintf(h->why, sizeof(h->why), "link flapped %llu times",
			 (unsigned long long) cxd_ctr_delta(fl));
}

const char *cxd_health_word(const struct cxd_nic_health *h)
{
	return h->missing ? "MISSING" : h->down ? "DOWN" :
	       h->degraded ? "DEGRADED" : h->flapping ? "FLAPPING" :
	       h->erroring ? "ERRORING" : h->unused ? "unused" : "ok";
}

bool cxd_health_bad(const struct cxd_nic_health *h)
{
	return h->missing || h->down || h->degraded || h->flapping ||
	       h->erroring;
}

/* "100000" (Mb/s), "BS_200G", "100 Gb/sec (4X EDR)": the first number. */
double cxd_health_speed(const char *speed)
{
	const char *p = speed;

	while (*p && (*p < '0' || *p > '9'))
		p++;
	return *p ? strtod(p, NULL) : 0;
}

/* --- which NICs the node has ---------------------------------------- */

static void device_of(const char *root, const char *cls, const char *name,
		      char *buf, size_t len)
{
	char path[CXD_CTR_PATH], real[PATH_MAX];

	buf[0] = '\0';
	cxd_ctr_fmt(path, sizeof(path), "%s/sys/class/%s/%s/device", root,
		    cls, name);
	if (realpath(path, real))
		cxd_ctr_fmt(buf, len, "%s", real);
}

static bool seen(const struct cxd_nic_id *ids, unsigned n, const char *dev)
{
	for (unsigned i = 0; dev[0] && i < n; i++)
		if (strcmp(ids[i].device, dev) == 0)
			return true;
	return false;
}

/* Names of a class directory, sorted (the order of ls). */
static int scan(const char *root, const char *cls, struct dirent ***out)
{
	char dir[CXD_CTR_PATH];

	cxd_ctr_fmt(dir, sizeof(dir), "%s/sys/class/%s", root, cls);
	return scandir(dir, out, NULL, alphasort);
}

static void add_class(const char *root, const char *cls, const char *kind,
		      bool need_device, struct cxd_nic_id *ids, unsigned max,
		      unsigned *n)
{
	struct dirent **e = NULL;
	int k = scan(root, cls, &e);

	for (int i = 0; i < k; i++) {
		struct cxd_nic_id id;

		memset(&id, 0, sizeof(id));
		cxd_ctr_fmt(id.name, sizeof(id.name), "%s", e[i]->d_name);
		snprintf(id.kind, sizeof(id.kind), "%s", kind);
		device_of(root, cls, id.name, id.device, sizeof(id.device));
		if (id.name[0] != '.' && *n < max &&
		    !(need_device && id.device[0] == '\0') &&
		    !(need_device && seen(ids, *n, id.device)))
			ids[(*n)++] = id;
		free(e[i]);
	}
	free(e);
}

unsigned cxd_nics_find(const char *root, struct cxd_nic_id *ids,
		       unsigned max)
{
	unsigned n = 0;

	add_class(root, "cxi", "cxi", false, ids, max, &n);
	add_class(root, "infiniband", "ib", false, ids, max, &n);
	add_class(root, "net", "net", true, ids, max, &n);
	return n;
}

bool cxd_nic_lookup(const char *root, const char *name, struct cxd_nic_id *id)
{
	static const char *const cls[][2] = {
		{ "cxi", "cxi" }, { "infiniband", "ib" }, { "net", "net" },
	};
	char path[CXD_CTR_PATH];

	memset(id, 0, sizeof(*id));
	if (name[0] == '\0' || strchr(name, '/') || name[0] == '.')
		return false;
	for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		cxd_ctr_fmt(path, sizeof(path), "%s/sys/class/%s/%s", root,
			    cls[i][0], name);
		if (access(path, F_OK) != 0)
			continue;
		cxd_ctr_fmt(id->name, sizeof(id->name), "%s", name);
		snprintf(id->kind, sizeof(id->kind), "%s", cls[i][1]);
		device_of(root, cls[i][0], name, id->device,
			  sizeof(id->device));
		return true;
	}
	return false;
}

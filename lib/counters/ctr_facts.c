/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device facts for a pre-flight check: link state and speed, PCIe link
 * width and speed. Paths: netdevs /sys/class/net/IF/{operstate,speed}
 * (sysfs-class-net ABI); Cassini /sys/class/cxi/cxiN/device/port/{link,
 * speed} (Cassini 1) or port/0/link/{state,speed} (Cassini 2), as libcxi's
 * utils/cxi_stat.c get_port_status reads them; InfiniBand
 * /sys/class/infiniband/DEV/ports/1/{state,rate}; PCIe: the device's
 * {current,max}_link_{width,speed} (sysfs-bus-pci ABI).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

static bool slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	buf[0] = '\0';
	if (f == NULL)
		return false;
	ok = fgets(buf, (int) len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The first readable of two paths (a Cassini 1 and a Cassini 2 layout). */
static void slurp2(const char *a, const char *b, char *buf, size_t len)
{
	if (!slurp(a, buf, len))
		slurp(b, buf, len);
}

static void pcie(const char *dev, struct cxd_dev_facts *f)
{
	char p[CXD_CTR_PATH];

	cxd_ctr_fmt(p, sizeof(p), "%s/current_link_width", dev);
	slurp(p, f->pcie_width, sizeof(f->pcie_width));
	cxd_ctr_fmt(p, sizeof(p), "%s/max_link_width", dev);
	slurp(p, f->pcie_max_width, sizeof(f->pcie_max_width));
	cxd_ctr_fmt(p, sizeof(p), "%s/current_link_speed", dev);
	slurp(p, f->pcie_speed, sizeof(f->pcie_speed));
	cxd_ctr_fmt(p, sizeof(p), "%s/max_link_speed", dev);
	slurp(p, f->pcie_max_speed, sizeof(f->pcie_max_speed));
}

/* "8.0 GT/s PCIe" below "16.0 GT/s PCIe", "8" below "16". */
static bool below(const char *cur, const char *max)
{
	return cur[0] && max[0] && strtod(cur, NULL) < strtod(max, NULL);
}

static void verdict(struct cxd_dev_facts *f)
{
	const char *l = f->link;

	/* "up", "ACTIVE" ("4: ACTIVE"); loopback netdevs say "unknown". */
	f->down = l[0] && !strstr(l, "up") && !strstr(l, "ACTIVE") &&
		  strcmp(l, "unknown") != 0;
	if (f->down)
		snprintf(f->why, sizeof(f->why), "link %s", l);
	if (below(f->pcie_width, f->pcie_max_width)) {
		f->degraded = true;
		snprintf(f->why, sizeof(f->why), "PCIe x%s of x%s",
			 f->pcie_width, f->pcie_max_width);
	} else if (below(f->pcie_speed, f->pcie_max_speed)) {
		f->degraded = true;
		snprintf(f->why, sizeof(f->why), "PCIe %s of %s",
			 f->pcie_speed, f->pcie_max_speed);
	}
}

void cxd_dev_facts(const struct cxd_ctrs *c, const char *root,
		   struct cxd_dev_facts *f)
{
	char a[CXD_CTR_PATH], b[CXD_CTR_PATH], dev[CXD_CTR_PATH];
	const char *d = c->dev;

	memset(f, 0, sizeof(*f));
	if (strcmp(c->kind, "cxi") == 0) {
		cxd_ctr_fmt(dev, sizeof(dev), "%s/sys/class/cxi/%s/device",
			    root, d);
		cxd_ctr_fmt(a, sizeof(a), "%s/port/link", dev);
		cxd_ctr_fmt(b, sizeof(b), "%s/port/0/link/state", dev);
		slurp2(a, b, f->link, sizeof(f->link));
		cxd_ctr_fmt(a, sizeof(a), "%s/port/speed", dev);
		cxd_ctr_fmt(b, sizeof(b), "%s/port/0/link/speed", dev);
		slurp2(a, b, f->speed, sizeof(f->speed));
	} else if (strcmp(c->kind, "ib") == 0) {
		cxd_ctr_fmt(dev, sizeof(dev), "%s/sys/class/infiniband/%s",
			    root, d);
		cxd_ctr_fmt(a, sizeof(a), "%s/ports/1/state", dev);
		slurp(a, f->link, sizeof(f->link));
		cxd_ctr_fmt(a, sizeof(a), "%s/ports/1/rate", dev);
		slurp(a, f->speed, sizeof(f->speed));
		strncat(dev, "/device", sizeof(dev) - strlen(dev) - 1);
	} else if (strcmp(c->kind, "net") == 0) {
		cxd_ctr_fmt(dev, sizeof(dev), "%s/sys/class/net/%s", root, d);
		cxd_ctr_fmt(a, sizeof(a), "%s/operstate", dev);
		slurp(a, f->link, sizeof(f->link));
		cxd_ctr_fmt(a, sizeof(a), "%s/speed", dev);
		slurp(a, f->speed, sizeof(f->speed));
		strncat(dev, "/device", sizeof(dev) - strlen(dev) - 1);
	} else {
		return;
	}
	pcie(dev, f);
	verdict(f);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIC counters read from files, no vendor library linked.
 *
 * Cassini (cxi): telemetry files /sys/class/cxi/cxiN/device/telemetry/NAME
 * holding "value@seconds.nanoseconds" (libfabric prov/cxi/src/
 * cxip_telemetry.c, TELEMETRY_FILE_FMT; the CXI driver's telemetry
 * sysfs); the retry handler's counters, one file each under
 * /run/cxi/cxiN/ (LDMS cxi_sampler's rh_path, default /var/run/cxi);
 * PCIe AER totals in /sys/class/cxi/cxiN/device/aer_dev_{correctable,
 * nonfatal,fatal} (libcxi utils/cxi_stat.c, get_aer; the kernel's
 * sysfs-bus-pci-devices-aer_stats ABI). Telemetry holds good counts as
 * well (good codewords, packets): only error-like names are kept.
 *
 * InfiniBand/RoCE (verbs): /sys/class/infiniband/DEV/ports/N/counters/
 * (the kernel's Documentation/ABI/stable/sysfs-class-infiniband: the
 * IBA PortCounters), hw_counters/ beside it (error-like names), and the
 * Ethernet side of RoCE, /sys/class/infiniband/DEV/device/net/IF.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"

/* A directory that exists but cannot be listed is named, unreadable. */
static DIR *open_dir(struct cxd_ctrs *c, const char *path, const char *label)
{
	DIR *d = opendir(path);

	if (d == NULL && errno != ENOENT && errno != ENOTDIR)
		cxd_ctrs_add(c, label, path, NULL, NULL);
	return d;
}

/* Every file of dir whose name passes (errorish or all), as PRE NAME;
 * label names the directory when it cannot be listed. */
static void add_dir(struct cxd_ctrs *c, const char *dir, const char *pre,
		    const char *label, bool errors_only)
{
	char path[CXD_CTR_PATH], name[CXD_CTR_NAME];
	DIR *d = open_dir(c, dir, label);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || e->d_type == DT_DIR ||
		    strstr(e->d_name, "reset") ||
		    (errors_only && !cxd_ctr_errorish(e->d_name)))
			continue;
		cxd_ctr_fmt(path, sizeof(path), "%s/%s", dir, e->d_name);
		cxd_ctr_fmt(name, sizeof(name), "%s %s", pre, e->d_name);
		cxd_ctrs_add(c, name, path, NULL, NULL);
	}
	if (d)
		closedir(d);
}

void cxd_ctrs_cxi(struct cxd_ctrs *c, const char *root, const char *dev)
{
	static const struct { const char *file, *key; } aer[] = {
		{ "aer_dev_correctable", "TOTAL_ERR_COR" },
		{ "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL" },
		{ "aer_dev_fatal", "TOTAL_ERR_FATAL" },
	};
	char dir[CXD_CTR_PATH], pre[CXD_CTR_NAME], label[CXD_CTR_NAME];
	unsigned n0;

	cxd_ctr_fmt(c->dev, sizeof(c->dev), "%s", dev);
	cxd_ctr_fmt(c->kind, sizeof(c->kind), "cxi");
	cxd_ctr_fmt(dir, sizeof(dir), "%s/sys/class/cxi/%s/device/telemetry",
		 root, dev);
	cxd_ctr_fmt(label, sizeof(label), "%s telemetry", dev);
	n0 = c->n;
	add_dir(c, dir, dev, label, true);
	/* Drivers without the sysfs files: debugfs (the CXI driver's
	 * debugging notes, .../cxi/cxiN/telemetry; LDMS cxi_sampler's
	 * tel_path). Root only: as another user it is named unavailable. */
	cxd_ctr_fmt(dir, sizeof(dir), "%s/sys/kernel/debug/cxi/%s/telemetry",
		    root, dev);
	if (c->n == n0)
		add_dir(c, dir, dev, label, true);
	cxd_ctr_fmt(dir, sizeof(dir), "%s/run/cxi/%s", root, dev);
	cxd_ctr_fmt(pre, sizeof(pre), "%s rh", dev);
	cxd_ctr_fmt(label, sizeof(label), "%s retry handler", dev);
	add_dir(c, dir, pre, label, false);
	for (size_t i = 0; i < sizeof(aer) / sizeof(aer[0]); i++) {
		cxd_ctr_fmt(dir, sizeof(dir), "%s/sys/class/cxi/%s/device/%s",
			 root, dev, aer[i].file);
		cxd_ctr_fmt(pre, sizeof(pre), "%s pcie %s", dev, aer[i].key);
		/* Kernels without AER statistics have no such files. */
		if (access(dir, F_OK) == 0)
			cxd_ctrs_add(c, pre, dir, "=", aer[i].key);
	}
	if (c->n == 0)
		cxd_ctr_fmt(c->note, sizeof(c->note), "cxi: no counters found "
			 "under /sys/class/cxi/%s", dev);
}

static const char *const ib_port_counters[] = {
	"symbol_error", "link_error_recovery", "link_downed",
	"port_rcv_errors", "port_rcv_remote_physical_errors",
	"port_rcv_switch_relay_errors", "port_xmit_discards",
	"port_xmit_constraint_errors", "port_rcv_constraint_errors",
	"local_link_integrity_errors", "excessive_buffer_overrun_errors",
	"VL15_dropped",
};

static void ib_port(struct cxd_ctrs *c, const char *base, const char *port)
{
	char path[CXD_CTR_PATH], name[CXD_CTR_NAME], label[CXD_CTR_NAME];

	for (size_t i = 0; i < sizeof(ib_port_counters) /
			       sizeof(ib_port_counters[0]); i++) {
		cxd_ctr_fmt(path, sizeof(path), "%s/ports/%s/counters/%s", base,
			 port, ib_port_counters[i]);
		cxd_ctr_fmt(name, sizeof(name), "%s/%s %s", c->dev, port,
			 ib_port_counters[i]);
		/* Some kernels and HCAs lack a few: absent, not hidden. */
		if (access(path, F_OK) == 0)
			cxd_ctrs_add(c, name, path, NULL, NULL);
	}
	cxd_ctr_fmt(path, sizeof(path), "%s/ports/%s/hw_counters", base, port);
	cxd_ctr_fmt(name, sizeof(name), "%s/%s", c->dev, port);
	cxd_ctr_fmt(label, sizeof(label), "%s/%s hw_counters", c->dev, port);
	add_dir(c, path, name, label, true);
}

/* RoCE: the netdev the RDMA device sits on. */
static void ib_netdev(struct cxd_ctrs *c, const char *root, const char *base)
{
	char path[CXD_CTR_PATH];
	struct dirent *e;
	DIR *d;

	cxd_ctr_fmt(path, sizeof(path), "%s/device/net", base);
	d = opendir(path);
	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			cxd_ctrs_netdev(c, root, e->d_name);
			break;
		}
	if (d)
		closedir(d);
}

void cxd_ctrs_ib(struct cxd_ctrs *c, const char *root, const char *dev)
{
	char base[CXD_CTR_PATH], label[CXD_CTR_NAME];
	struct dirent *e;
	DIR *d;

	/* verbs domains: "mlx5_0", "mlx5_0-xrc", "mlx5_0-dgram". */
	cxd_ctr_fmt(c->dev, sizeof(c->dev), "%.*s", (int) strcspn(dev, "-"),
		    dev);
	cxd_ctr_fmt(c->kind, sizeof(c->kind), "ib");
	cxd_ctr_fmt(base, sizeof(base), "%s/sys/class/infiniband/%s", root,
		    c->dev);
	cxd_ctr_fmt(c->note, sizeof(c->note), "verbs: no counters found under "
		 "/sys/class/infiniband/%s", c->dev);
	cxd_ctr_fmt(label, sizeof(label), "%s ports", c->dev);
	d = open_dir(c, base, label);
	if (d)
		closedir(d);
	cxd_ctr_fmt(base + strlen(base), sizeof(base) - strlen(base), "/ports");
	d = opendir(base);
	base[strlen(base) - strlen("/ports")] = '\0';
	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			ib_port(c, base, e->d_name);
	if (d)
		closedir(d);
	ib_netdev(c, root, base);
	if (c->n)
		c->note[0] = '\0';
}

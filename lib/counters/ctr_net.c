/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Linux network devices and the kernel's TCP counters. Paths: the
 * kernel's sysfs-class-net ABI (Documentation/ABI/testing/
 * sysfs-class-net-statistics: /sys/class/net/IF/statistics/NAME, and
 * /sys/class/net/IF/carrier_changes); /proc/net/snmp ("Tcp:" rows,
 * RFC 1213 names) and /proc/net/netstat ("TcpExt:" rows). Both procfs
 * files are those of the reading process's network namespace: a tool
 * run inside a namespace sees that namespace's TCP, as it should.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"

/* Error and drop counters of struct rtnl_link_stats64 that sysfs shows. */
static const char *const netdev_stats[] = {
	"rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
	"rx_crc_errors", "rx_frame_errors", "rx_missed_errors",
	"rx_fifo_errors", "rx_over_errors", "tx_carrier_errors",
	"tx_fifo_errors", "tx_aborted_errors",
};

void cxd_ctrs_netdev(struct cxd_ctrs *c, const char *root, const char *ifname)
{
	char path[CXD_CTR_PATH], name[CXD_CTR_NAME];

	if (ifname[0] == '\0' || strchr(ifname, '/'))
		return;
	if (c->dev[0] == '\0') {
		cxd_ctr_fmt(c->dev, sizeof(c->dev), "%s", ifname);
		cxd_ctr_fmt(c->kind, sizeof(c->kind), "net");
	}
	cxd_ctr_fmt(c->netdev, sizeof(c->netdev), "%s", ifname);
	for (size_t i = 0; i < sizeof(netdev_stats) / sizeof(*netdev_stats);
	     i++) {
		cxd_ctr_fmt(path, sizeof(path),
			    "%s/sys/class/net/%s/statistics/%s", root, ifname,
			    netdev_stats[i]);
		cxd_ctr_fmt(name, sizeof(name), "%s %s", ifname,
			    netdev_stats[i]);
		cxd_ctrs_add(c, name, path, NULL, NULL);
	}
	/* Link flaps: every carrier up or down since the device came. */
	cxd_ctr_fmt(path, sizeof(path), "%s/sys/class/net/%s/carrier_changes",
		 root, ifname);
	cxd_ctr_fmt(name, sizeof(name), "%s carrier_changes", ifname);
	cxd_ctrs_add(c, name, path, NULL, NULL);
}

void cxd_ctrs_tcp(struct cxd_ctrs *c, const char *root)
{
	static const struct { const char *name, *file, *row, *col; } t[] = {
		{ "tcp retransmits", "snmp", "Tcp", "RetransSegs" },
		{ "tcp segments sent", "snmp", "Tcp", "OutSegs" },
		{ "tcp bad segments", "snmp", "Tcp", "InErrs" },
		{ "tcp timeouts", "netstat", "TcpExt", "TCPTimeouts" },
		{ "tcp lost retransmits", "netstat", "TcpExt",
		  "TCPLostRetransmit" },
	};
	char path[CXD_CTR_PATH];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cxd_ctr *k;

		cxd_ctr_fmt(path, sizeof(path), "%s/proc/net/%s", root,
			    t[i].file);
		k = cxd_ctrs_add(c, t[i].name, path, t[i].row, t[i].col);
		if (k)
			k->host = true;
	}
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *) a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *) b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *) a)->sin6_addr,
			      &((const struct sockaddr_in6 *) b)->sin6_addr,
			      sizeof(struct in6_addr)) == 0;
	return false;
}

/* The interface that holds the endpoint's source address. */
bool cxd_ctrs_ifname(const struct sockaddr *src, char *buf, size_t len)
{
	struct ifaddrs *all, *i;
	bool found = false;

	if (getifaddrs(&all) != 0)
		return false;
	for (i = all; i && !found; i = i->ifa_next)
		if (i->ifa_addr && same_addr(i->ifa_addr, src)) {
			cxd_ctr_fmt(buf, len, "%s", i->ifa_name);
			found = true;
		}
	freeifaddrs(all);
	return found;
}

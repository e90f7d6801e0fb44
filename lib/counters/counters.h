/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link error counters around a run: what the host exposes for the device
 * in use, read before the first size and after the last, and the
 * differences. No library of a vendor is linked: sysfs, procfs, debugfs.
 * Sources: ctr_net.c (Linux netdevs, the kernel's TCP counters),
 * ctr_nic.c (Cassini telemetry and retry handler, InfiniBand ports).
 */
#ifndef CXD_COUNTERS_H
#define CXD_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define CXD_CTR_MAX 64
#define CXD_CTR_NAME 64
#define CXD_CTR_PATH 200
#define CXD_CTR_KEY 32

struct cxd_ctr {
	char name[CXD_CTR_NAME]; /* "tcp RetransSegs", "veth0 tx_dropped" */
	char path[CXD_CTR_PATH]; /* the file it is read from */
	/* procfs tables: the row ("Tcp") and column ("RetransSegs"); row
	 * "": the file holds one number (sysfs), maybe "value@sec.nsec";
	 * row "=": lines "NAME value", col the NAME (PCIe AER files). */
	char row[CXD_CTR_KEY], col[CXD_CTR_KEY];
	uint64_t before, after;
	int err_before, err_after; /* 0, or the errno that hid it */
	bool host; /* host-wide (all TCP of this network namespace), not
		      the device's own */
};

/* The device's counters; one of these per run (about 20 KB). */
struct cxd_ctrs {
	char dev[64];    /* "veth0", "cxi0", "mlx5_0": "" when none */
	char kind[8];    /* "net", "cxi", "ib"; "mem" (shm); "" unknown */
	char netdev[64]; /* the Ethernet side (RoCE), or dev when "net" */
	char note[128];  /* why none ("shm: no network device") */
	unsigned n;      /* counters kept */
	unsigned left;   /* counters found beyond CXD_CTR_MAX, not kept */
	struct cxd_ctr c[CXD_CTR_MAX];
};

/*
 * Which counters belong to the device in use. prov: the provider's
 * name ("tcp;ofi_rxm"); domain: fi_info's domain name; src: the
 * endpoint's source address (tcp: its interface), may be NULL; root: a
 * prefix for every path ("" on a real host; test fixtures).
 */
void cxd_ctrs_plan(struct cxd_ctrs *c, const char *prov, const char *domain,
		   const struct sockaddr *src, const char *root);
/* Read every counter into before (after == false) or after. */
void cxd_ctrs_read(struct cxd_ctrs *c, bool after);
/* Readable both times and moved: after - before. */
bool cxd_ctr_ok(const struct cxd_ctr *k);
static inline uint64_t cxd_ctr_delta(const struct cxd_ctr *k)
{
	return k->after - k->before;
}
/*
 * The device's line: "none", or "veth0 tx_dropped +5, veth0 rx_errors +1";
 * counters that could not be read are named as unavailable, never as 0.
 */
void cxd_ctrs_moved(const struct cxd_ctrs *c, char *buf, size_t len);
/*
 * The host's TCP (tcp only, else ""): "+1234 of 81000 segments sent
 * (1.52 %), all TCP of this network namespace; tcp timeouts +3". Apart
 * from the device's line: any connection of the namespace moves it.
 */
void cxd_ctrs_host(const struct cxd_ctrs *c, char *buf, size_t len);

/* snprintf for paths and names built from parts of any length: a cut
 * path names a file that is not there, read as unavailable. */
void cxd_ctr_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Only those that moved: "" when none did (the sweep's verdicts);
 * with_host: the host-wide ones too. */
void cxd_ctrs_moved_only(const struct cxd_ctrs *c, bool with_host, char *buf,
			 size_t len);

/* Adding counters (ctr_net.c, ctr_nic.c): a row of the plan. */
struct cxd_ctr *cxd_ctrs_add(struct cxd_ctrs *c, const char *name,
			     const char *path, const char *row,
			     const char *col);
/* ctr_net.c: netdev statistics and the TCP counters of this network
 * namespace; the interface holding src (or named ifname). */
void cxd_ctrs_netdev(struct cxd_ctrs *c, const char *root, const char *ifname);
void cxd_ctrs_tcp(struct cxd_ctrs *c, const char *root);
bool cxd_ctrs_ifname(const struct sockaddr *src, char *buf, size_t len);
/* ctr_nic.c */
void cxd_ctrs_cxi(struct cxd_ctrs *c, const char *root, const char *dev);
void cxd_ctrs_ib(struct cxd_ctrs *c, const char *root, const char *dev);
/* Error-like counter names (telemetry directories hold good counts too). */
bool cxd_ctr_errorish(const char *name);

/* ctr_facts.c: the device's state for a pre-flight check (cxi_sweep
 * --health): link state, speed, PCIe width and speed where sysfs has
 * them. Empty strings where it does not. */
struct cxd_dev_facts {
	char link[32];        /* "up", "down", "ACTIVE"... */
	char speed[48];       /* "100000" (Mb/s), "BS_200G", "100 Gb/sec" */
	char pcie_width[16], pcie_max_width[16];
	char pcie_speed[32], pcie_max_speed[32];
	bool down, degraded;  /* the verdicts drawn from the above */
	char why[128];        /* what made it down or degraded */
};
void cxd_dev_facts(const struct cxd_ctrs *c, const char *root,
		   struct cxd_dev_facts *f);

/* ctr_health.c: one NIC's health check (cxi_node_health, cxi_sweep
 * --health). The caller plans h->c (cxd_nic_plan, or the sweep's engine
 * for its endpoint's device), then begin, a wait, end. */
#define CXD_HEALTH_TEXT 256
struct cxd_nic_health {
	struct cxd_ctrs c;
	struct cxd_dev_facts f;
	bool has_flaps;         /* the device shows carrier changes */
	uint64_t flaps_total;   /* since the device came up */
	/* The verdicts: missing (a named NIC absent), down, degraded (PCIe
	 * below its maximum, or a caller's speed rule), flapping (carrier
	 * changed during the wait), erroring (an error counter moved);
	 * unused: a netdev taken down on purpose, judged no further. */
	bool missing, down, degraded, flapping, erroring, unused;
	char why[128];
	char moved[CXD_HEALTH_TEXT];  /* the device's counters that moved */
	char unread[CXD_HEALTH_TEXT]; /* counters this user may not read */
};
void cxd_health_begin(struct cxd_nic_health *h, const char *root);
void cxd_health_end(struct cxd_nic_health *h);
/* "ok", "DOWN", "DEGRADED", "FLAPPING", "ERRORING", "MISSING", "unused" */
const char *cxd_health_word(const struct cxd_nic_health *h);
bool cxd_health_bad(const struct cxd_nic_health *h);
/* A speed's first number ("BS_200G": 200), 0 when it has none. */
double cxd_health_speed(const char *speed);

/* A NIC of this node: its name, kind ("cxi", "ib", "net") and the
 * resolved path of its device ("" for virtual netdevs). */
struct cxd_nic_id {
	char name[64], kind[8];
	char device[CXD_CTR_PATH];
};
/* Every NIC under root, cxi first, then InfiniBand, then netdevs with a
 * device not listed already; at most max. */
unsigned cxd_nics_find(const char *root, struct cxd_nic_id *ids,
		       unsigned max);
/* The NIC called name (any of the three classes); false if none. */
bool cxd_nic_lookup(const char *root, const char *name,
		    struct cxd_nic_id *id);
/* Its counters and flap count, as cxd_ctrs_plan for a provider. */
void cxd_nic_plan(struct cxd_ctrs *c, const char *root, const char *name,
		  const char *kind);

#endif

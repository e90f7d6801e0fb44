/* SPDX-License-Identifier: BSD-3-Clause */
/* Counters around a run: the plan per provider, reading, the one line. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

static bool has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ';') &&
		    (p[n] == '\0' || p[n] == ';'))
			return true;
	return false;
}

void cxd_ctrs_plan(struct cxd_ctrs *c, const char *prov, const char *domain,
		   const struct sockaddr *src, const char *root)
{
	char ifname[64] = "";

	memset(c, 0, sizeof(*c));
	if (has(prov, "shm") || has(prov, "sm2")) {
		snprintf(c->note, sizeof(c->note), "%s: no network device "
			 "(memory of this host)", prov);
		snprintf(c->kind, sizeof(c->kind), "mem");
		return;
	}
	if (has(prov, "cxi")) {
		cxd_ctrs_cxi(c, root, domain);
		return;
	}
	if (has(prov, "verbs")) {
		cxd_ctrs_ib(c, root, domain);
		return;
	}
	/* tcp, udp, efa's Ethernet side: the interface holding the source
	 * address; else a domain named after an interface (tcp's is). */
	if (!(src && cxd_ctrs_ifname(src, ifname, sizeof(ifname))))
		snprintf(ifname, sizeof(ifname), "%s", domain);
	cxd_ctrs_netdev(c, root, ifname);
	if (has(prov, "tcp"))
		cxd_ctrs_tcp(c, root);
	if (c->n == 0 && c->note[0] == '\0')
		snprintf(c->note, sizeof(c->note), "%s: no counters found for "
			 "device %s", prov, domain);
}

/* The one number of a sysfs file; "123@456.789" (Cassini telemetry:
 * value@seconds.nanoseconds) reads as 123. */
static int read_value(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	int n, e;

	if (f == NULL)
		return errno ? errno : EIO;
	errno = 0;
	n = fscanf(f, "%llu", &x);
	e = errno;
	fclose(f);
	if (n != 1)
		return e ? e : EBADMSG;
	*v = x;
	return 0;
}

/* Lines "NAME value" (the PCIe AER files of sysfs). */
static int read_named(const char *path, const char *col, uint64_t *v)
{
	char line[256], name[CXD_CTR_KEY + 1];
	unsigned long long x;
	FILE *f = fopen(path, "r");
	int ret = ENOENT;

	if (f == NULL)
		return errno ? errno : EIO;
	while (ret == ENOENT && fgets(line, sizeof(line), f))
		if (sscanf(line, "%32s %llu", name, &x) == 2 &&
		    strcmp(name, col) == 0) {
			*v = x;
			ret = 0;
		}
	fclose(f);
	return ret;
}

/* procfs tables (/proc/net/snmp, netstat): a header line "Tcp: A B"
 * then a value line "Tcp: 1 2"; the column's value. */
static int read_table(const char *path, const char *row, const char *col,
		      uint64_t *v)
{
	char head[4096], vals[4096];
	FILE *f = fopen(path, "r");
	size_t rl = strlen(row);
	int ret = ENOENT;

	if (f == NULL)
		return errno ? errno : EIO;
	while (ret == ENOENT && fgets(head, sizeof(head), f) &&
	       fgets(vals, sizeof(vals), f)) {
		char *hs, *vs, *h, *w;

		if (strncmp(head, row, rl) || head[rl] != ':' ||
		    strncmp(vals, row, rl))
			continue;
		h = strtok_r(head + rl + 1, " \n", &hs);
		w = strtok_r(vals + rl + 1, " \n", &vs);
		for (; h && w; h = strtok_r(NULL, " \n", &hs),
		     w = strtok_r(NULL, " \n", &vs))
			if (strcmp(h, col) == 0) {
				*v = strtoull(w, NULL, 10);
				ret = 0;
				break;
			}
	}
	fclose(f);
	return ret;
}

void cxd_ctrs_read(struct cxd_ctrs *c, bool after)
{
	for (unsigned i = 0; i < c->n; i++) {
		struct cxd_ctr *k = &c->c[i];
		uint64_t *v = after ? &k->after : &k->before;
		int e = k->row[0] == '\0' ? read_value(k->path, v) :
			strcmp(k->row, "=") == 0 ?
			read_named(k->path, k->col, v) :
			read_table(k->path, k->row, k->col, v);

		*(after ? &k->err_after : &k->err_before) = e;
	}
}

static void cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Moved: an error count that changed (segments sent is a count of
 * work, the denominator of the retransmissions). */
static bool moved(const struct cxd_ctr *k, bool host)
{
	return k->host == host && cxd_ctr_ok(k) && k->after != k->before &&
	       strcmp(k->name, "tcp segments sent") != 0;
}

/* The moved counters of one scope (the device's, or the host's), after
 * *n already listed. */
static void list_moved(const struct cxd_ctrs *c, bool host, char *buf,
		       size_t len, unsigned *n)
{
	for (unsigned i = 0; i < c->n; i++) {
		const struct cxd_ctr *k = &c->c[i];

		if (!moved(k, host))
			continue;
		/* A counter that went back was reset: say so, not a delta. */
		if (k->after < k->before)
			cat(buf, len, "%s%s reset", (*n)++ ? ", " : "",
			    k->name);
		else
			cat(buf, len, "%s%s +%" PRIu64, (*n)++ ? ", " : "",
			    k->name, cxd_ctr_delta(k));
	}
}

void cxd_ctrs_moved_only(const struct cxd_ctrs *c, bool with_host, char *buf,
			 size_t len)
{
	unsigned n = 0;

	buf[0] = '\0';
	list_moved(c, false, buf, len, &n);
	if (with_host)
		list_moved(c, true, buf, len, &n);
}

void cxd_ctrs_moved(const struct cxd_ctrs *c, char *buf, size_t len)
{
	unsigned n = 0, bad = 0;

	buf[0] = '\0';
	list_moved(c, false, buf, len, &n);
	for (unsigned i = 0; i < c->n; i++) {
		const struct cxd_ctr *k = &c->c[i];
		int e = k->err_before ? k->err_before : k->err_after;

		if (cxd_ctr_ok(k))
			continue;
		cat(buf, len, bad++ ? ", " : buf[0] ? "; unavailable: " :
		    "unavailable: ");
		cat(buf, len, "%s (%s)", k->name, strerror(e));
	}
	/* No counter found is no evidence: "none" only where no device
	 * exists (shm), else unavailable, with why. */
	if (buf[0] == '\0' && c->n)
		snprintf(buf, len, "none");
	else if (buf[0] == '\0')
		snprintf(buf, len, "%s (%s)", strcmp(c->kind, "mem") ?
			 "unavailable" : "none",
			 c->note[0] ? c->note : "no counters for this device");
}

static const struct cxd_ctr *find(const struct cxd_ctrs *c, const char *name)
{
	for (unsigned i = 0; i < c->n; i++)
		if (strcmp(c->c[i].name, name) == 0)
			return &c->c[i];
	return NULL;
}

void cxd_ctrs_host(const struct cxd_ctrs *c, char *buf, size_t len)
{
	const struct cxd_ctr *r = find(c, "tcp retransmits");
	const struct cxd_ctr *s = find(c, "tcp segments sent");
	unsigned n = 1;

	buf[0] = '\0';
	if (r == NULL || s == NULL)
		return;
	if (!cxd_ctr_ok(r) || !cxd_ctr_ok(s)) {
		snprintf(buf, len, "unavailable (%s)", strerror(
			 r->err_before ? r->err_before : r->err_after ?
			 r->err_after : s->err_before ? s->err_before :
			 s->err_after));
		return;
	}
	snprintf(buf, len, "+%" PRIu64 " of %" PRIu64 " segments sent "
		 "(%.2f %%), all TCP of this network namespace",
		 cxd_ctr_delta(r), cxd_ctr_delta(s), cxd_ctr_delta(s) ?
		 100.0 * (double) cxd_ctr_delta(r) /
		 (double) cxd_ctr_delta(s) : 0.0);
	for (unsigned i = 0; i < c->n; i++) {
		const struct cxd_ctr *k = &c->c[i];

		if (k != r && k != s && moved(k, true))
			cat(buf, len, "%s%s +%" PRIu64, n++ == 1 ? "; " : ", ",
			    k->name, cxd_ctr_delta(k));
	}
}

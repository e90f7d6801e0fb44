/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology FILE: read, check, place every rank. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "topo.h"
#include "topo_add.h"
#include "topo_err.h"
#include "topo_links.h"
#include "topo_reach.h"
#include "topo_resolve.h"
#include "topo_slurm.h"

void cxd_topo_addr_node(const char *addr, char *out, size_t len)
{
	const char *p = strstr(addr, "://"), *colon;
	size_t n;

	p = p ? p + 3 : addr;
	colon = strrchr(p, ':');
	/* An IPv6 address keeps its colons inside brackets. */
	if (colon && strchr(p, '[') && colon < strrchr(p, ']'))
		colon = NULL;
	n = colon ? (size_t) (colon - p) : strlen(p);
	snprintf(out, len, "%.*s", (int) n, p);
}

static int parse_line(struct cxd_topo *t, char *s, int line, char *err,
		      size_t len)
{
	char *f[4], *save = NULL;
	int nf = 0;

	for (char *tok = strtok_r(s, " \t\r\n", &save); tok && nf < 4;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		/* switch, link, route: topo_links.c reads the rest. */
		if (nf == 0 && cxd_topo_links_word(tok))
			return cxd_topo_links_line(t, tok, save, line, err,
						   len);
		f[nf++] = tok;
	}
	if (nf == 0 || f[0][0] == '#')
		return 0;
	if (strcmp(f[0], "width") == 0)
		return nf == 4 && f[3][0] != '#' ?
		       cxd_topo_bad(err, len, "%s:%d: expected 'width KIND N', "
				    "got more fields", t->path, line) :
		       cxd_topo_add_width(t, nf > 1 ? f[1] : NULL,
					  nf > 2 && f[2][0] != '#' ? f[2] : NULL,
					  line, err, len);
	if (nf < 2 || (nf == 4 && f[3][0] != '#'))
		return cxd_topo_bad(err, len, "%s:%d: expected 'NAME SWITCH "
				    "[GROUP]', got %d field%s", t->path, line,
				    nf, nf == 1 ? "" : "s or more");
	return cxd_topo_add(t, f[0], f[1], nf >= 3 && f[2][0] != '#' ? f[2] :
			    NULL, line, err, len);
}

int cxd_topo_load(const char *path, struct cxd_topo *t, char *err,
		  size_t len)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	int line = 0, ret = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (f == NULL)
		return cxd_topo_bad(err, len, "cannot read the topology file "
				    "'%s': %s", path, strerror(errno));
	if (cxd_topo_is_slurm(f))
		ret = cxd_topo_slurm(t, f, err, len);
	while (ret == 0 && !t->slurm && fgets(buf, sizeof(buf), f)) {
		line++;
		if (strchr(buf, '\n') == NULL && !feof(f))
			ret = cxd_topo_bad(err, len, "%s:%d: line too long",
					   path, line);
		else
			ret = parse_line(t, buf, line, err, len);
	}
	if (ret == 0 && ferror(f))
		ret = cxd_topo_bad(err, len, "cannot read the topology file "
				   "'%s'", path);
	if (ret == 0 && t->nl == 0)
		ret = cxd_topo_bad(err, len, "%s: no line places a host (the "
				   "formats: NAME SWITCH [GROUP], or Slurm's "
				   "topology.conf)", path);
	fclose(f);
	/* The links once every line is in; Slurm's tree is not checked:
	 * its file may leave the top out (jobs then stay under one
	 * switch), which placing has always accepted. */
	if (ret == 0)
		ret = cxd_topo_resolve(t, err, len);
	if (ret == 0 && t->nlink > 0 && !t->slurm)
		ret = cxd_topo_reach(t, err, len);
	if (ret) {
		cxd_topo_free(t);
		cxd_name_sanitize(err, len); /* it may quote the file */
	}
	return ret;
}

/* The line placing rank r: host:nic, then its address, then its host. */
static struct cxd_topo_line *find(struct cxd_topo *t,
				  const struct cxd_sweep_rank *r)
{
	char key[CXD_TOPO_NAME + CXD_NAME_LEN + 2];
	const char *tries[3] = { key, NULL, r->host };
	char node[sizeof(r->addr)];

	snprintf(key, sizeof(key), "%s:%s", r->host, r->nic);
	cxd_topo_addr_node(r->addr, node, sizeof(node));
	tries[1] = node;
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < t->nl; i++)
			if (strcmp(t->l[i].name, tries[k]) == 0)
				return &t->l[i];
	return NULL;
}

int cxd_topo_place(struct cxd_topo *t, const struct cxd_sweep_rank *r,
		   int n, int *switch_of, int *group_of, FILE *warn, char *err,
		   size_t len)
{
	int unused = 0;

	for (int i = 0; i < n; i++) {
		struct cxd_topo_line *l = find(t, &r[i]);

		if (l == NULL)
			return cxd_topo_bad(err, len, "%s: no line places rank "
					    "%d (host %s, nic %s, address %s)",
					    t->path, i, r[i].host, r[i].nic,
					    r[i].addr);
		l->used = 1;
		switch_of[i] = l->switch_ix;
		group_of[i] = l->group_ix;
	}
	/* A site's file covers the machine, a sweep often a partition:
	 * lines for other hosts are normal, but a typo should be seen. */
	for (int i = 0; i < t->nl && warn; i++) {
		if (t->l[i].used)
			continue;
		if (unused++ < 3)
			fprintf(warn, "cxi_sweep: %s:%d: '%s' is not in this "
				"run (line ignored)\n", t->path, t->l[i].line,
				t->l[i].name);
	}
	if (warn && unused > 3)
		fprintf(warn, "cxi_sweep: %s: %d more lines name hosts not in "
			"this run\n", t->path, unused - 3);
	return 0;
}

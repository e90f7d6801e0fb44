/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --topology reading Slurm's topology.conf (topology/tree): lines of
 * SwitchName=NAME with Nodes=HOSTLIST (a leaf switch) or Switches=HOSTLIST
 * (switches below it), and LinkSpeed=, which is ignored. A node's switch
 * is its leaf; its group is the switch above that leaf, if any. Each
 * Switches= relation is a link (one: the file gives no count), routed
 * ecmp (a tree); a switch with no nodes sits in the group named after
 * it, if one is, else in none.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/hostlist.h"
#include "topo_add.h"
#include "topo_links.h"
#include "topo_slurm.h"

struct sw_line {
	char name[CXD_TOPO_NAME];
	char *nodes, *below; /* the host lists, NULL: none */
	const char *parent;  /* the switch whose Switches= names it */
	int line;
};

struct conf {
	struct cxd_topo *t;
	struct sw_line *s;
	int n;
	const struct sw_line *cur; /* the switch being expanded */
	char *err;
	size_t len;
};

static int bad(struct conf *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct conf *c, int line, const char *fmt, ...)
{
	int k = snprintf(c->err, c->len, "%s:%d: ", c->t->path, line);
	va_list ap;

	va_start(ap, fmt);
	if (k >= 0 && (size_t) k < c->len)
		vsnprintf(c->err + k, c->len - (size_t) k, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The first word that is not a comment: "SwitchName=..."? */
int cxd_topo_is_slurm(FILE *f)
{
	char buf[1024], word[12];
	int yes = 0;

	while (fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, " %11s", word) != 1 || word[0] == '#')
			continue;
		yes = strncasecmp(word, "SwitchName=", 11) == 0;
		break;
	}
	rewind(f);
	return yes;
}

static int set(struct conf *c, char **field, const char *v, const char *key,
	       int line)
{
	if (*field)
		return bad(c, line, "%s= given twice", key);
	*field = strdup(v);
	return *field ? 0 : bad(c, line, "out of memory");
}

static int word(struct conf *c, struct sw_line *s, char *w, int line)
{
	char *eq = strchr(w, '=');

	if (eq == NULL || eq == w || eq[1] == '\0')
		return bad(c, line, "'%s' is not KEY=VALUE (topology.conf: "
			   "SwitchName=, Switches=, Nodes=, LinkSpeed=)", w);
	*eq = '\0';
	if (strcasecmp(w, "SwitchName") == 0) {
		if (s->name[0])
			return bad(c, line, "SwitchName= given twice");
		if (strlen(eq + 1) >= sizeof(s->name))
			return bad(c, line, "a switch name of over %d "
				   "characters", CXD_TOPO_NAME - 1);
		snprintf(s->name, sizeof(s->name), "%s", eq + 1);
		return 0;
	}
	if (strcasecmp(w, "Nodes") == 0)
		return set(c, &s->nodes, eq + 1, "Nodes", line);
	if (strcasecmp(w, "Switches") == 0)
		return set(c, &s->below, eq + 1, "Switches", line);
	if (strcasecmp(w, "LinkSpeed") == 0)
		return 0;
	return bad(c, line, "unknown key '%s' (topology.conf: SwitchName=, "
		   "Switches=, Nodes=, LinkSpeed=)", w);
}

static int parse_line(struct conf *c, char *buf, int line)
{
	struct sw_line s = { .line = line }, *grown;
	char *save = NULL, *hash = strchr(buf, '#');
	int ret = 0, any = 0;
	size_t n;

	if (hash)
		*hash = '\0';
	n = strcspn(buf, "\r\n");
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	if (n > 0 && buf[n - 1] == '\\')
		return bad(c, line, "a continued line (\\) is not read: one "
			   "switch a line");
	for (char *w = strtok_r(buf, " \t\r\n", &save); w && ret == 0;
	     w = strtok_r(NULL, " \t\r\n", &save), any = 1)
		ret = word(c, &s, w, line);
	if (ret == 0 && any && s.name[0] == '\0')
		ret = bad(c, line, "no SwitchName=");
	for (int i = 0; ret == 0 && any && i < c->n; i++)
		if (strcmp(c->s[i].name, s.name) == 0)
			ret = bad(c, line, "switch '%s' defined twice (first at "
				  "line %d)", s.name, c->s[i].line);
	if (ret == 0 && any) {
		grown = realloc(c->s, (size_t) (c->n + 1) * sizeof(*c->s));
		ret = grown ? 0 : bad(c, line, "out of memory");
		if (grown) {
			c->s = grown;
			c->s[c->n++] = s;
			return 0;
		}
	}
	free(s.nodes);
	free(s.below);
	return ret;
}

static struct sw_line *find(struct conf *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, name) == 0)
			return &c->s[i];
	return NULL;
}

static int child(const char *name, void *arg)
{
	struct conf *c = arg;
	struct sw_line *k = find(c, name);

	if (k == NULL)
		return bad(c, c->cur->line, "switch '%s' (in Switches=) is "
			   "not defined", name);
	if (k->parent && strcmp(k->parent, c->cur->name) != 0)
		return bad(c, c->cur->line, "switch '%s' is below both '%s' "
			   "and '%s'", name, k->parent, c->cur->name);
	if (k->parent)
		return 0; /* listed twice: one link */
	k->parent = c->cur->name;
	c->t->route = CXD_TOPO_R_ECMP;
	return cxd_topo_links_add(c->t, c->cur->name, name, 1, c->cur->line,
				  c->err, c->len);
}

/* Every switch declared once the nodes are placed: a leaf in its
 * nodes' group, any other in the group of its own name if there is one
 * (the switch above leaves), so that no group is added. */
static int declare(struct conf *c)
{
	struct cxd_topo *t = c->t;
	int ret = 0;

	for (int i = 0; ret == 0 && i < c->n; i++) {
		const struct sw_line *s = &c->s[i];
		const char *g = s->nodes ? s->parent : NULL;

		for (int k = 0; !s->nodes && k < t->ngroup; k++)
			if (strcmp(t->group_name[k], s->name) == 0)
				g = s->name;
		ret = cxd_topo_links_switch(t, s->name, g, s->line, c->err,
					    c->len);
	}
	return ret;
}

static int node(const char *name, void *arg)
{
	struct conf *c = arg;

	return cxd_topo_add(c->t, name, c->cur->name, c->cur->parent,
			    c->cur->line, c->err, c->len);
}

/* Walk one host list of the current switch; its errors name the line. */
static int walk(struct conf *c, const char *list, const char *key,
		cxd_host_fn fn)
{
	char why[200] = "";
	int ret = cxd_hostlist_each(list, fn, c, why, sizeof(why));

	if (ret && why[0])
		return bad(c, c->cur->line, "%s=: %s", key, why);
	return ret;
}

static int build(struct conf *c)
{
	int ret = 0;

	for (int i = 0; ret == 0 && i < c->n; i++) {
		c->cur = &c->s[i];
		if (c->s[i].below)
			ret = walk(c, c->s[i].below, "Switches", child);
	}
	for (int i = 0; ret == 0 && i < c->n; i++) {
		c->cur = &c->s[i];
		if (c->s[i].nodes)
			ret = walk(c, c->s[i].nodes, "Nodes", node);
	}
	return ret ? ret : declare(c);
}

int cxd_topo_slurm(struct cxd_topo *t, FILE *f, char *err, size_t len)
{
	struct conf c = { t, NULL, 0, NULL, err, len };
	char buf[65536];
	int line = 0, ret = 0;

	t->slurm = 1;
	while (ret == 0 && fgets(buf, sizeof(buf), f)) {
		line++;
		if (strchr(buf, '\n') == NULL && !feof(f))
			ret = bad(&c, line, "line too long");
		else
			ret = parse_line(&c, buf, line);
	}
	if (ret == 0)
		ret = build(&c);
	for (int i = 0; i < c.n; i++) {
		free(c.s[i].nodes);
		free(c.s[i].below);
	}
	free(c.s);
	return ret;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Slurm host lists expanded (hostlist.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"

struct walk {
	cxd_host_fn fn;
	void *arg;
	long count;
	char *err;
	size_t len;
};

static int fail(struct walk *w, const char *what, const char *item)
{
	snprintf(w->err, w->len, "%s in '%s'", what, item);
	return -EINVAL;
}

static int expand(struct walk *w, const char *done, const char *rest,
		  const char *item);

/* One number or range "a-b" of a bracket: each name it makes, on. */
static int range(struct walk *w, const char *done, const char *r, size_t n,
		 const char *after, const char *item)
{
	char buf[CXD_HOSTLIST_NAME], *end;
	const char *dash = memchr(r, '-', n);
	unsigned long lo, hi;
	int width = (int) (dash ? (size_t) (dash - r) : n), ret = 0;

	if (width == 0 || !isdigit((unsigned char) r[0]))
		return fail(w, "a bracket item that is not a number", item);
	lo = strtoul(r, &end, 10);
	hi = dash ? strtoul(dash + 1, &end, 10) : lo;
	if (end != r + n || (dash && !isdigit((unsigned char) dash[1])))
		return fail(w, "a bracket item that is not N or N-M", item);
	if (hi < lo)
		return fail(w, "a range that runs down", item);
	for (unsigned long v = lo; v <= hi && ret == 0; v++) {
		int k = snprintf(buf, sizeof(buf), "%s%0*lu", done, width, v);

		if (k < 0 || (size_t) k >= sizeof(buf))
			return fail(w, "a name too long", item);
		ret = expand(w, buf, after, item);
	}
	return ret;
}

/* done: the name so far; rest: what follows, up to the item's end. */
static int expand(struct walk *w, const char *done, const char *rest,
		  const char *item)
{
	const char *open = strchr(rest, '['), *close, *p;
	char buf[CXD_HOSTLIST_NAME];
	int ret = 0;

	if (open == NULL) {
		if (snprintf(buf, sizeof(buf), "%s%s", done, rest) >=
		    (int) sizeof(buf))
			return fail(w, "a name too long", item);
		if (++w->count > CXD_HOSTLIST_MAX)
			return fail(w, "too many names", item);
		return w->fn(buf, w->arg);
	}
	close = strchr(open, ']');
	if (close == NULL || close == open + 1 || memchr(rest, ']',
	    (size_t) (open - rest)))
		return fail(w, "a bracket not closed or empty", item);
	if (snprintf(buf, sizeof(buf), "%s%.*s", done, (int) (open - rest),
		     rest) >= (int) sizeof(buf))
		return fail(w, "a name too long", item);
	for (p = open + 1; ret == 0 && p < close;) {
		const char *c = memchr(p, ',', (size_t) (close - p));
		size_t n = c ? (size_t) (c - p) : (size_t) (close - p);

		ret = range(w, buf, p, n, close + 1, item);
		p += n + 1;
	}
	return ret;
}

int cxd_hostlist_each(const char *list, cxd_host_fn fn, void *arg, char *err,
		      size_t len)
{
	struct walk w = { fn, arg, 0, err, len };
	char item[4096];
	const char *p = list;
	int ret = 0;

	/* Items end at a comma outside brackets. */
	while (ret == 0 && *p) {
		size_t n = 0;
		int depth = 0;

		for (; p[n] && (depth || p[n] != ','); n++)
			depth += p[n] == '[' ? 1 : p[n] == ']' ? -1 : 0;
		if (n == 0 || n >= sizeof(item))
			return fail(&w, n ? "an item too long" : "an empty item",
				    list);
		memcpy(item, p, n);
		item[n] = '\0';
		if (strpbrk(item, " \t\r\n"))
			return fail(&w, "a blank", item);
		ret = expand(&w, "", item, item);
		p += n + (p[n] == ',');
		if (ret == 0 && p[-1] == ',' && *p == '\0')
			return fail(&w, "an empty item", list);
	}
	if (ret == 0 && w.count == 0)
		return fail(&w, "no name", list);
	return ret;
}

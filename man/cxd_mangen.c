/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Build-time man page generator: copies a hand-written template, filling in
 * the OPTIONS list from the option table and names from the tool table, so
 * a page cannot drift from what -h prints.
 *   cxd_mangen NAME TEMPLATE OUT
 * Template lines: "@OPTIONS@" (the option list), "@ATOMICS@" (each atomic
 * operation with the types it takes, from the AMO tables), "@INCLUDE file@"
 * (another template from the same folder); inline "@WORD@" tokens, see
 * token() and put_number(). NAME is looked up with cxd_tool_find, which
 * also knows the sweep's row (cxd_tool_at lists the nine pair tools only).
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/amo.h"
#include "cxd/config.h"
#include "cxd/opts.h"
#include "cxd/tool.h"

struct gen {
	const struct cxd_tool *tool; /* NULL: a page for no tool row */
	struct cxd_cfg cfg;          /* its defaults (any row's, for NULL) */
	const char *dir;             /* where @INCLUDE finds its files */
	FILE *out;
	int errors;
};

/* Roff-safe text: a backslash printed as such, '-' as a minus sign. */
static void put_text(FILE *out, const char *s, size_t n, int minus)
{
	if (n > 0 && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-' && minus)
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

static void put_option(const struct cxd_opt_doc *d, void *ctx)
{
	struct gen *g = ctx;
	const char *line = d->help;

	fputs(".TP\n", g->out);
	if (d->sname)
		fprintf(g->out, "\\fB\\-%c\\fR, ", d->sname);
	fputs("\\fB\\-\\-", g->out);
	put_text(g->out, d->lname, strlen(d->lname), 1);
	fputs("\\fR", g->out);
	if (d->arg)
		fprintf(g->out, "=\\fI%s\\fR", d->arg);
	fputc('\n', g->out);
	/* -h wraps for a terminal; a line that starts a sentence (not "BYTES")
	 * keeps its own line. */
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (line != d->help && isupper((unsigned char) line[0]) &&
		    islower((unsigned char) line[1]))
			fputs(".br\n", g->out);
		put_text(g->out, line, n, 0);
		fputc('\n', g->out);
		line += n + (line[n] == '\n');
	}
	if (d->numeric)
		fprintf(g->out, ".br\n\\fI%s\\fR is an integer from %llu to "
			"%llu.\n", d->arg, (unsigned long long) d->min,
			(unsigned long long) d->max);
}

static void put_types(FILE *out, unsigned op, unsigned cop)
{
	const char *sep = "";

	for (unsigned t = 0; t < CXD_T_COUNT; t++)
		if (cxd_amo_valid(op, cop, t)) {
			fprintf(out, "%s%s", sep, cxd_amo_type_name(t));
			sep = ", ";
		}
	fputc('\n', out);
}

static void put_atomics(FILE *out)
{
	for (unsigned op = 0; op < CXD_AMO_OP_COUNT; op++) {
		unsigned ncop = op == CXD_AMO_CSWAP ? CXD_CSWAP_OP_COUNT : 1;

		for (unsigned cop = 0; cop < ncop; cop++) {
			fprintf(out, ".TP\n.B %s", cxd_amo_op_name(op));
			if (op == CXD_AMO_CSWAP)
				fprintf(out, " \"\\-C %s\"", cxd_cswap_op_name(cop));
			fputc('\n', out);
			put_types(out, op, cop);
		}
	}
}

static void put_upper(FILE *out, const char *s)
{
	while (*s)
		fputc(toupper((unsigned char) *s++), out);
}

static int same(const char *w, size_t n, const char *name)
{
	return n == strlen(name) && strncmp(w, name, n) == 0;
}

/* Tokens naming a string of the tool row. */
#define TOOL_STR(tok, field) { tok, offsetof(struct cxd_tool, field) }
static const struct tool_str {
	const char *name;
	size_t off;
} tool_strs[] = {
	TOOL_STR("TOOL", name),		TOOL_STR("TITLE", title),
	TOOL_STR("NOUN", noun),		TOOL_STR("SIZE_COL", size_col),
	TOOL_STR("COUNT_COL", count_col), TOOL_STR("BW_COL", bw_col),
	TOOL_STR("RATE_COL", rate_col), TOOL_STR("INDEX_COL", index_col),
};

/* Number tokens: defaults as the tools apply them (cxd_cfg_defaults), so
 * the prose follows the code; per_tool ones need a tool row. */
static int put_number(struct gen *g, const char *w, size_t n)
{
	const struct cxd_cfg *c = &g->cfg;
	const struct {
		const char *name;
		uint64_t v;
		int per_tool;
	} nums[] = {
		{ "PORT", c->local.port, 0 },
		{ "SWEEP_REPEAT", c->sweep.repeat, 0 },
		{ "SWEEP_LAT_ITERS", c->sweep.lat_iters, 0 },
		{ "SWEEP_LAT_SIZE", CXD_SWEEP_LAT_SIZE, 0 },
		{ "ITERS", c->run.iters, 1 },
		{ "LIST", c->run.list_size, 1 },
		{ "SIZE", c->run.min_size, 1 },
	};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (same(w, n, nums[i].name) &&
		    (g->tool != NULL || !nums[i].per_tool))
			return fprintf(g->out, "%llu",
				       (unsigned long long) nums[i].v), 0;
	return -1;
}

/* Print the value of an inline token; 0, or -1 for an unknown one. */
static int token(struct gen *g, const char *w, size_t n)
{
	const struct cxd_tool *t = g->tool;

	if (same(w, n, "VERSION"))
		return fputs(CXD_SUITE_VERSION, g->out), 0;
	if (t != NULL && same(w, n, "TOOLUC"))
		return put_upper(g->out, t->name), 0;
	for (size_t i = 0; t != NULL && i < sizeof(tool_strs) /
					     sizeof(tool_strs[0]); i++)
		if (same(w, n, tool_strs[i].name))
			return fputs(*(const char *const *) (const void *)
				     ((const char *) t + tool_strs[i].off),
				     g->out), 0;
	return put_number(g, w, n);
}

static void copy_line(struct gen *g, const char *line, const char *where)
{
	const char *p = line, *at;

	while ((at = strchr(p, '@')) != NULL) {
		const char *end = strchr(at + 1, '@');

		fwrite(p, 1, (size_t) (at - p), g->out);
		if (end == NULL || token(g, at + 1, (size_t) (end - at - 1))) {
			fprintf(stderr, "cxd_mangen: %s: unknown token in '%s'\n",
				where, line);
			g->errors++;
			return;
		}
		p = end + 1;
	}
	fputs(p, g->out);
}

static void process(struct gen *g, const char *path, int depth)
{
	char line[1024], inc[512];
	FILE *in = depth < 4 ? fopen(path, "r") : NULL;

	if (in == NULL) {
		fprintf(stderr, "cxd_mangen: cannot read '%s'\n", path);
		g->errors++;
		return;
	}
	while (fgets(line, sizeof(line), in) != NULL) {
		size_t n = strcspn(line, "\n");

		if (strcmp(line, "@OPTIONS@\n") == 0 && g->tool != NULL)
			cxd_opts_each(g->tool, put_option, g);
		else if (strcmp(line, "@ATOMICS@\n") == 0)
			put_atomics(g->out);
		else if (strncmp(line, "@INCLUDE ", 9) == 0 && n > 10 &&
			 line[n - 1] == '@') {
			snprintf(inc, sizeof(inc), "%s/%.*s", g->dir,
				 (int) (n - 10), line + 9);
			process(g, inc, depth + 1);
		} else
			copy_line(g, line, path);
	}
	fclose(in);
}

int main(int argc, char **argv)
{
	char dir[512];
	struct gen g = { 0 };
	const char *slash;

	if (argc != 4) {
		fprintf(stderr, "usage: cxd_mangen NAME TEMPLATE OUT\n");
		return 2;
	}
	slash = strrchr(argv[2], '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int) (slash - argv[2]) : 1,
		 slash ? argv[2] : ".");
	g.tool = cxd_tool_find(argv[1]);
	cxd_cfg_defaults(g.tool ? g.tool : cxd_tool_at(0), &g.cfg);
	g.dir = dir;
	g.out = fopen(argv[3], "w");
	if (g.out == NULL) {
		fprintf(stderr, "cxd_mangen: cannot write '%s'\n", argv[3]);
		return 1;
	}
	process(&g, argv[2], 0);
	if (fclose(g.out) != 0 || g.errors) {
		remove(argv[3]);
		return 1;
	}
	return 0;
}

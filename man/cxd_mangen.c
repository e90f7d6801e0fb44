/*
 * Build-time man page generator: copies a hand-written template, filling in
 * the OPTIONS list from the option table and names from the tool table, so
 * a page cannot drift from what -h prints.
 *   cxd_mangen NAME TEMPLATE OUT
 * Template lines: "@OPTIONS@" (the option list), "@ATOMICS@" (each atomic
 * operation with the types it takes, from the AMO tables), "@INCLUDE file@"
 * (another template from the same folder); inline "@WORD@" tokens, see
 * token(). NAME is looked up with cxd_tool_find, which also knows the
 * sweep's row (cxd_tool_at lists the nine pair tools only).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/amo.h"
#include "cxd/config.h"
#include "cxd/opts.h"
#include "sweep/sweep.h"
#include "cxd/tool.h"

struct gen {
	const struct cxd_tool *tool; /* NULL: a page for no tool row */
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

/* Print the value of an inline token; 0, or -1 for an unknown one. */
static int token(struct gen *g, const char *w, size_t n)
{
	const struct cxd_tool *t = g->tool;
	const char *s = NULL;

#define IS(name) (n == strlen(name) && strncmp(w, name, n) == 0)
	if (IS("VERSION"))
		s = CXD_SUITE_VERSION;
	else if (IS("PORT"))
		return fprintf(g->out, "%d", CXD_DEFAULT_PORT), 0;
	else if (IS("SWEEP_MIN_BW") || IS("SWEEP_MAX_LAT") ||
		 IS("SWEEP_LAT_ITERS") || IS("SWEEP_LAT_SIZE"))
		/* cxi_sweep's fixed figures, so its prose follows the code. */
		return fprintf(g->out, "%d", IS("SWEEP_MIN_BW") ?
			       CXD_SWEEP_BW_PCT : IS("SWEEP_MAX_LAT") ?
			       CXD_SWEEP_LAT_PCT : IS("SWEEP_LAT_ITERS") ?
			       CXD_SWEEP_LAT_ITERS : CXD_SWEEP_LAT_SIZE), 0;
	else if (t == NULL)
		return -1;
	else if (IS("TOOL"))
		s = t->name;
	else if (IS("TOOLUC"))
		return put_upper(g->out, t->name), 0;
	else if (IS("TITLE"))
		s = t->title;
	else if (IS("NOUN"))
		s = t->noun;
	else if (IS("SIZE_COL"))
		s = t->size_col;
	else if (IS("COUNT_COL"))
		s = t->count_col;
	else if (IS("BW_COL"))
		s = t->bw_col;
	else if (IS("RATE_COL"))
		s = t->rate_col;
	else if (IS("INDEX_COL"))
		s = t->index_col;
	else if (IS("ITERS") || IS("LIST") || IS("SIZE"))
		return fprintf(g->out, "%llu", (unsigned long long)
			       (IS("ITERS") ? t->def.iters : IS("LIST") ?
				t->def.list_size : t->def.size)), 0;
#undef IS
	if (s == NULL)
		return -1;
	fputs(s, g->out);
	return 0;
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

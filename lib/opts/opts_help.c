/* SPDX-License-Identifier: BSD-3-Clause */
/* -h and the man pages' option lists, made from the option table; each
 * "(default: ...)" comes from cxd_cfg_defaults, not from the help text. */
#include <stdio.h>
#include <string.h>

#include "base/amo.h"
#include "opt_value.h"

#define HELP_TEXT_LEN 640
#define HELP_WIDTH 52 /* description column: fits 80 with the switches */

/* Expand {n} {ns} {N} {max} in a help template. */
static size_t expand(const struct cxd_tool *tool, const struct opt *o,
		     char *out, size_t len)
{
	const char *tpl = o->help;
	size_t n = 0;

	while (*tpl && n + 1 < len) {
		const char *close = *tpl == '{' ? strchr(tpl, '}') : NULL;
		const char *word = NULL;
		char num[24];

		if (close == NULL) {
			out[n++] = *tpl++;
			continue;
		}
		if (strncmp(tpl, "{n}", 3) == 0 || strncmp(tpl, "{ns}", 4) == 0)
			word = tool->noun_lower;
		else if (strncmp(tpl, "{N}", 3) == 0)
			word = tool->noun;
		else {
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long) o->max);
			word = num;
		}
		n += (size_t) snprintf(out + n, len - n, "%s%s", word,
				       strncmp(tpl, "{ns}", 4) == 0 ? "s" : "");
		tpl = close + 1;
	}
	n = n < len ? n : len - 1;
	out[n] = '\0';
	return n;
}

/* The default as the user would type it, or the row's words for one
 * chosen at run time; "" when the row shows none. */
static void default_text(const struct cxd_tool *tool, const struct opt *o,
			 char *buf, size_t len)
{
	struct cxd_cfg cfg;

	buf[0] = '\0';
	if (o->dflt == NULL)
		return;
	if (o->dflt[0] != '\0') {
		snprintf(buf, len, "%s", o->dflt);
		return;
	}
	cxd_cfg_defaults(tool, &cfg);
	switch (o->kind) {
	case K_SIZE:
	case K_SIZE1:
		if (cfg.run.min_size == cfg.run.max_size)
			snprintf(buf, len, "%llu",
				 (unsigned long long) cfg.run.min_size);
		else
			snprintf(buf, len, "%llu:%llu",
				 (unsigned long long) cfg.run.min_size,
				 (unsigned long long) cfg.run.max_size);
		break;
	case K_AMO_OP:
		snprintf(buf, len, "%s", cxd_amo_op_name(cfg.run.amo_op));
		break;
	case K_CSWAP:
		snprintf(buf, len, "%s", cxd_cswap_op_name(cfg.run.cswap_op));
		break;
	case K_AMO_TYPE:
		snprintf(buf, len, "%s", cxd_amo_type_name(cfg.run.amo_type));
		break;
	default:
		snprintf(buf, len, "%llu",
			 (unsigned long long) cxd_opt_number(o, &cfg));
		break;
	}
}

/* The row's description for this tool, its default appended: on the
 * last line when it fits, else on a line of its own. */
static void describe(const struct cxd_tool *tool, const struct opt *o,
		     char *out, size_t len)
{
	char dflt[160];
	const char *last;
	size_t n = expand(tool, o, out, len), first;

	default_text(tool, o, dflt, sizeof(dflt));
	if (dflt[0] == '\0')
		return;
	last = strrchr(out, '\n');
	last = last ? last + 1 : out;
	first = strcspn(dflt, "\n");
	snprintf(out + n, len - n, "%s(default: %s)",
		 strlen(last) + first + 12 <= HELP_WIDTH ? " " : "\n", dflt);
}

static int switch_text(const struct opt *o, char *buf, size_t len)
{
	return snprintf(buf, len, "  %c%c%c --%s%s%s", o->sname ? '-' : ' ',
			o->sname ? o->sname : ' ', o->sname ? ',' : ' ',
			o->lname, o->arg ? "=" : "", o->arg ? o->arg : "");
}

static void help_usage(const struct cxd_tool *tool, FILE *out, int pad)
{
	fprintf(out, "Usage:\n");
	if (!cxd_tool_has(tool, CXD_F_NET)) {
		fprintf(out, "  %s [OPTIONS]\n\n", tool->name);
		return;
	}
	fprintf(out, "  %s [-d DEV] [-p PORT]\n%*sServer side: waits for a "
		"client to connect\n", tool->name, pad, "");
	fprintf(out, "  %s ADDR [OPTIONS]\n%*sClient side: runs against the "
		"server at ADDR\n", tool->name, pad, "");
	fprintf(out, "  %s --local [OPTIONS]\n%*sRun both sides on this host\n\n",
		tool->name, pad, "");
}

/* One list of names, wrapped, from the AMO tables (amo_names.c). */
static void name_list(FILE *out, const char *title, unsigned count,
		      const char *(*name)(unsigned))
{
	int col = 2;

	fprintf(out, "%s:\n  ", title);
	for (unsigned i = 0; i < count; i++) {
		int w = (int) strlen(name(i)) + (i + 1 < count ? 1 : 0);

		if (i > 0 && col + 1 + w > 76) {
			fputs("\n  ", out);
			col = 2;
		} else if (i > 0) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%s%s", name(i), i + 1 < count ? "," : "");
		col += w;
	}
	fputc('\n', out);
}

void cxd_opts_help(const struct cxd_tool *tool, FILE *out)
{
	char sw[64], text[HELP_TEXT_LEN];
	int pad = 0;

	for (unsigned i = 0; i < cxd_opt_count; i++)
		if (cxd_opt_enabled(tool, &cxd_opt_table[i]) &&
		    cxd_opt_table[i].help) {
			int w = switch_text(&cxd_opt_table[i], sw, sizeof(sw)) + 2;

			pad = w > pad ? w : pad;
		}
	help_usage(tool, out, pad);
	fprintf(out, "Options:\n");
	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];
		char *line, *save = NULL;
		int w;

		if (!cxd_opt_enabled(tool, o) || o->help == NULL)
			continue;
		w = switch_text(o, sw, sizeof(sw));
		describe(tool, o, text, sizeof(text));
		line = strtok_r(text, "\n", &save);
		fprintf(out, "%s%*s%s\n", sw, pad - w, "", line);
		while ((line = strtok_r(NULL, "\n", &save)) != NULL)
			fprintf(out, "%*s%s\n", pad, "", line);
	}
	if (!cxd_tool_has(tool, CXD_F_ATOMIC))
		return;
	fputc('\n', out);
	name_list(out, "Atomic Ops", CXD_AMO_OP_COUNT, cxd_amo_op_name);
	name_list(out, "CSWAP Ops", CXD_CSWAP_OP_COUNT, cxd_cswap_op_name);
	name_list(out, "Atomic Types", CXD_T_COUNT, cxd_amo_type_name);
}

void cxd_opts_each(const struct cxd_tool *tool, cxd_opt_doc_fn fn, void *ctx)
{
	char text[HELP_TEXT_LEN];

	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];
		struct cxd_opt_doc d = { o->sname, o->lname, o->arg, text,
					 cxd_opt_numeric(o), o->min, o->max };

		if (!cxd_opt_enabled(tool, o) || o->help == NULL)
			continue;
		describe(tool, o, text, sizeof(text));
		fn(&d, ctx);
	}
}

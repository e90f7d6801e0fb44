/* SPDX-License-Identifier: BSD-3-Clause */
/* See argv_cfg.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "argv_cfg.h"

struct words {
	char copy[ARGV_CFG_MAX_ARGS + 1][ARGV_CFG_WORD];
	char *argv[ARGV_CFG_MAX_ARGS + 2];
	int argc;
};

static void add(struct words *w, const char *word)
{
	if (w->argc > ARGV_CFG_MAX_ARGS)
		fail_msg("argv_cfg: more than %d words after %s",
			 ARGV_CFG_MAX_ARGS, w->argv[0]);
	if (strlen(word) >= ARGV_CFG_WORD)
		fail_msg("argv_cfg: word '%s' longer than %d bytes", word,
			 ARGV_CFG_WORD - 1);
	snprintf(w->copy[w->argc], sizeof(w->copy[0]), "%s", word);
	w->argv[w->argc] = w->copy[w->argc];
	w->argv[++w->argc] = NULL;
}

static int parse(struct words *w, struct cxd_cfg *cfg, char *err)
{
	const struct cxd_tool *t = cxd_tool_find(w->argv[0]);

	if (t == NULL)
		fail_msg("argv_cfg: no tool named '%s'", w->argv[0]);
	err[0] = '\0';
	return cxd_opts_parse(t, w->argc, w->argv, cfg, err, CXD_ERR_LEN);
}

int argv_cfg_va(struct cxd_cfg *cfg, char *err, const char *tool, va_list ap)
{
	struct words w = { .argc = 0 };
	const char *a;

	add(&w, tool);
	while ((a = va_arg(ap, const char *)) != NULL)
		add(&w, a);
	return parse(&w, cfg, err);
}

int argv_cfg(struct cxd_cfg *cfg, char *err, const char *tool, ...)
{
	va_list ap;
	int ret;

	va_start(ap, tool);
	ret = argv_cfg_va(cfg, err, tool, ap);
	va_end(ap);
	return ret;
}

void argv_cfg_ok(struct cxd_cfg *cfg, const char *tool, ...)
{
	char err[CXD_ERR_LEN];
	va_list ap;
	int ret;

	va_start(ap, tool);
	ret = argv_cfg_va(cfg, err, tool, ap);
	va_end(ap);
	if (ret != 0)
		fail_msg("%s: ret %d, want 0: '%s'", tool, ret, err);
}

int argv_cfg_list(struct cxd_cfg *cfg, char *err, const char *tool,
		  const char *const *args)
{
	struct words w = { .argc = 0 };

	add(&w, tool);
	for (; args && *args; args++)
		add(&w, *args);
	return parse(&w, cfg, err);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* One option table for all tools: getopt, help and validation come from it. */
#ifndef CXD_OPTS_H
#define CXD_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "cxd/config.h"
#include "cxd/tool.h"

#define CXD_ERR_LEN 512

/* cxd_opts_parse results besides 0 and -EINVAL (usage error). */
#define CXD_OPTS_HELP 1
#define CXD_OPTS_VERSION 2

void cxd_cfg_defaults(const struct cxd_tool *tool, struct cxd_cfg *cfg);
/*
 * Parse argv into cfg (defaults applied first). On a usage error returns
 * -EINVAL with a message naming the option and the bad value in err.
 */
int cxd_opts_parse(const struct cxd_tool *tool, int argc, char **argv,
		   struct cxd_cfg *cfg, char *err, size_t errlen);
void cxd_opts_help(const struct cxd_tool *tool, FILE *out);
/* One option of a tool as documentation (man pages), in table order. */
struct cxd_opt_doc {
	int sname;         /* short letter, 0 for long only */
	const char *lname;
	const char *arg;   /* value name, NULL for a switch */
	const char *help;  /* expanded for the tool, lines split by '\n' */
	int numeric;       /* the value is an integer from min to max */
	uint64_t min, max;
};
typedef void (*cxd_opt_doc_fn)(const struct cxd_opt_doc *doc, void *ctx);
/* Call fn for every option -h lists for this tool (hidden aliases not). */
void cxd_opts_each(const struct cxd_tool *tool, cxd_opt_doc_fn fn, void *ctx);
/*
 * Cross-field rules on the run options, shared by the command line and
 * the server's check of what a client sent. 0 or -EINVAL with err.
 */
int cxd_run_validate(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, char *err, size_t errlen);
/* Parse "MIN[:MAX]" by the originals' rules; 0 or -EINVAL. */
int cxd_parse_size_range(const char *s, int allow_range, uint64_t *min_p,
			 uint64_t *max_p);
/* Strict unsigned decimal: no sign, no junk, no overflow. */
int cxd_parse_u64(const char *s, uint64_t *v_p);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the option code: the table's row type and the table
 * (opts_table.c), shared by values (opt_value.c), defaults
 * (opts_defaults.c), parsing (opts.c), checks (opts_check.c) and help
 * (opts_help.c). */
#ifndef CXD_OPTS_PRIV_H
#define CXD_OPTS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cxd/opts.h"

enum opt_kind {
	K_U64, K_U32, K_INT, K_FLAG, K_STR, K_SIZE, K_SIZE1, K_DURATION,
	K_HP, K_GPUTYPE, K_AMO_OP, K_CSWAP, K_AMO_TYPE, K_FORMAT, K_LOCAL,
	K_HELP, K_VERSION, K_REAL, K_TCLASS,
	K_GIVEN /* a switch that sets .val in local.given */
};

struct opt {
	int sname;           /* short letter, 0 for long only */
	const char *lname;
	const char *arg;     /* value name, NULL for a switch */
	unsigned need, deny; /* tool feature bits required / excluded */
	enum opt_kind kind;
	size_t off;          /* field in struct cxd_cfg */
	uint64_t min, max;   /* the only statement of a number's range */
	uint32_t val;        /* run flag bit, format, or a name's capacity */
	const char *what;    /* head of the error message */
	/* Why a tool without the option refuses it ("it bounds latency;
	 * ..."); NULL: the plain "unknown option". */
	const char *elsewhere;
	const char *help;    /* NULL: hidden alias; tokens: see opts_help.c */
	/* NULL: no default shown; "": the field's value after
	 * cxd_cfg_defaults; else words for a default chosen at run time. */
	const char *dflt;
	/* The field's default, which cxd_cfg_defaults stores: the only place
	 * it is stated (negative values as two's complement). Per-tool ones
	 * come from the tool row's .def instead. */
	bool has_init;
	uint64_t init;
};

#define CXD_CFG_OFF(f) offsetof(struct cxd_cfg, f)

/* Room for getopt tables built on the stack (checked in opts_table.c). */
#define CXD_OPT_MAX 96

/* opts_check.c: --interval against -D and the role. */
int cxd_opts_interval(const struct cxd_tool *tool, const struct cxd_cfg *cfg,
		      char *err, size_t len);

extern const struct opt cxd_opt_table[];
extern const unsigned cxd_opt_count;

static inline int cxd_opt_enabled(const struct cxd_tool *tool,
				  const struct opt *o)
{
	/* The node check shares -h and -V, and rows made for it. */
	if (tool->features & CXD_F_NODE)
		return (o->need & CXD_F_NODE) || o->kind == K_HELP ||
		       o->kind == K_VERSION;
	return (tool->features & o->need) == o->need &&
	       (tool->features & o->deny) == 0;
}

static inline int cxd_opt_numeric(const struct opt *o)
{
	return o->kind == K_U64 || o->kind == K_U32 || o->kind == K_INT ||
	       o->kind == K_DURATION;
}

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Command lines parsed by the option table (opts_table.c): getopt
 * strings made from it, values converted and range-checked by its rows. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/amo.h"
#include "base/tclass.h"
#include "opt_value.h"

#define fail cxd_opt_fail

static int set_number(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		      char *err, size_t len)
{
	char label[48];
	uint64_t n;

	if (cxd_parse_u64(v, &n) != 0 || n < o->min || n > o->max) {
		cxd_opt_label(o, label, sizeof(label));
		return fail(err, len,
			    "%s: '%s' (%s takes an integer from %llu to %llu)",
			    o->what, v, label, (unsigned long long) o->min,
			    (unsigned long long) o->max);
	}
	cxd_opt_store(o, cfg, n);
	if (o->kind == K_DURATION)
		cfg->run.flags |= CXD_RUN_DURATION;
	if (o->off == CXD_CFG_OFF(local.svc_id))
		cfg->local.svc_id_set = true;
	return 0;
}

static int set_real(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	char label[48], *end = NULL;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end != '\0' || !(d > 0) ||
	    d > (double) o->max) {
		cxd_opt_label(o, label, sizeof(label));
		return fail(err, len, "%s: '%s' (%s takes a number above 0, "
			    "at most %llu)", o->what, v, label,
			    (unsigned long long) o->max);
	}
	*(double *) ((char *) cfg + o->off) = d;
	return 0;
}

static int set_size(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	int ret = cxd_parse_size_range(v, o->kind == K_SIZE, &cfg->run.min_size,
				       &cfg->run.max_size);

	if (ret == -ERANGE)
		return fail(err, len, "%s: '%s' (ranges must be powers of 2)",
			    o->what, v);
	if (ret != 0)
		return fail(err, len, "%s: '%s' (-s/--size takes %s from "
			    "%llu to %llu)", o->what, v,
			    o->kind == K_SIZE ? "MIN[:MAX]" : "one size",
			    (unsigned long long) o->min,
			    (unsigned long long) o->max);
	return 0;
}

static int set_name(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	char label[48];
	size_t cap = o->val ? o->val :
		     o->off == CXD_CFG_OFF(local.bind) ? CXD_HOST_LEN :
		     CXD_NAME_LEN;

	if (*v == '\0' || strlen(v) >= cap) {
		cxd_opt_label(o, label, sizeof(label));
		return fail(err, len, "%s: '%s' (%s takes 1 to %zu characters)",
			    o->what, v, label, cap - 1);
	}
	strcpy((char *) cfg + o->off, v);
	return 0;
}

/* "EQ, NE, LE, LT, GE or GT": the names as amo_names.c has them. */
static void choice_list(char *buf, size_t len, unsigned count,
			const char *(*name)(unsigned))
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < count && n < len; i++)
		n += (size_t) snprintf(buf + n, len - n, "%s%s",
				       i == 0 ? "" : i + 1 < count ? ", " :
				       " or ", name(i));
}

static int set_enum(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	char cswaps[64];
	int idx = -1;
	const char *choices = "";

	switch (o->kind) {
	case K_HP:
		idx = strcmp(v, "2M") == 0 ? CXD_HP_2M :
		      strcmp(v, "1G") == 0 ? CXD_HP_1G : -1;
		choices = "2M or 1G";
		break;
	case K_GPUTYPE:
		idx = strcasecmp(v, "AMD") == 0 ? CXD_GPU_AMD :
		      strcasecmp(v, "NVIDIA") == 0 ? CXD_GPU_NVIDIA :
		      strcasecmp(v, "INTEL") == 0 ? CXD_GPU_INTEL : -1;
		choices = "AMD, NVIDIA or INTEL";
		break;
	case K_AMO_OP:
		idx = cxd_amo_op_parse(v);
		choices = "one of the Atomic Ops listed by --help";
		break;
	case K_TCLASS:
		idx = cxd_tclass_parse(v);
		choices = "low_latency, bulk_data, dedicated_access, "
			  "best_effort or scavenger";
		break;
	case K_CSWAP:
		idx = cxd_cswap_op_parse(v);
		choice_list(cswaps, sizeof(cswaps), CXD_CSWAP_OP_COUNT,
			    cxd_cswap_op_name);
		choices = cswaps;
		break;
	default:
		idx = cxd_amo_type_parse(v);
		choices = "one of the Atomic Types listed by --help";
		break;
	}
	if (idx < 0) {
		char label[48];

		cxd_opt_label(o, label, sizeof(label));
		return fail(err, len, "%s: '%s' (%s takes %s)", o->what, v,
			    label, choices);
	}
	cxd_opt_store(o, cfg, (uint64_t) idx);
	return 0;
}

/* Apply one parsed option; returns 0, CXD_OPTS_HELP/VERSION or -EINVAL. */
static int apply(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		 char *err, size_t len)
{
	switch (o->kind) {
	case K_U64: case K_U32: case K_INT: case K_DURATION:
		return set_number(o, v, cfg, err, len);
	case K_SIZE: case K_SIZE1:
		return set_size(o, v, cfg, err, len);
	case K_REAL:
		return set_real(o, v, cfg, err, len);
	case K_STR:
		return set_name(o, v, cfg, err, len);
	case K_FLAG: /* a run flag, or a bit of the field the row names */
		*(o->off ? (uint32_t *) ((char *) cfg + o->off) :
		  &cfg->run.flags) |= o->val;
		return 0;
	case K_FORMAT:
		if (cfg->out.format != CXD_FMT_TEXT &&
		    cfg->out.format != (int) o->val)
			return fail(err, len, "--json and --csv cannot be "
				    "combined: pick one output format");
		cfg->out.format = (int) o->val;
		return 0;
	case K_LOCAL:
		cfg->role = CXD_LOCAL;
		return 0;
	case K_GIVEN:
		cfg->local.given |= o->val;
		return 0;
	case K_HELP:
		return CXD_OPTS_HELP;
	case K_VERSION:
		return CXD_OPTS_VERSION;
	default:
		return set_enum(o, v, cfg, err, len);
	}
}

/* getopt tables for the options this tool has; ids index opts[]. */
struct getopt_tables {
	struct option longs[CXD_OPT_MAX + 1];
	char shorts[2 + 3 * CXD_OPT_MAX];
};

static void build_tables(const struct cxd_tool *tool, struct getopt_tables *g)
{
	unsigned nl = 0;
	size_t ns = 0;

	g->shorts[ns++] = ':'; /* report a missing value as ':' */
	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];

		if (!cxd_opt_enabled(tool, o))
			continue;
		g->longs[nl].name = o->lname;
		g->longs[nl].has_arg = o->arg ? required_argument : no_argument;
		g->longs[nl].flag = NULL;
		g->longs[nl].val = o->sname ? o->sname : 256 + (int) i;
		nl++;
		if (o->sname) {
			g->shorts[ns++] = (char) o->sname;
			if (o->arg)
				g->shorts[ns++] = ':';
		}
	}
	memset(&g->longs[nl], 0, sizeof(g->longs[nl]));
	g->shorts[ns] = '\0';
}

static const struct opt *find_opt(const struct cxd_tool *tool, int id)
{
	if (id >= 256)
		return &cxd_opt_table[id - 256];
	for (unsigned i = 0; i < cxd_opt_count; i++)
		if (cxd_opt_table[i].sname == id &&
		    cxd_opt_enabled(tool, &cxd_opt_table[i]))
			return &cxd_opt_table[i];
	return NULL;
}

/* A long option some other tool has, with the reason this one has not. */
static const struct opt *elsewhere(const struct cxd_tool *tool,
				   const char *word)
{
	size_t n = strcspn(word + 2, "=");

	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];

		if (o->elsewhere && !cxd_tool_has(tool, CXD_F_NODE) &&
		    strlen(o->lname) == n &&
		    strncmp(o->lname, word + 2, n) == 0 &&
		    !cxd_opt_enabled(tool, o))
			return o;
	}
	return NULL;
}

static int bad_switch(const struct cxd_tool *tool, int c, int idx,
		      char **argv, char *err, size_t len)
{
	const char *word = argv[idx - 1];
	const struct opt *o;

	if (c == ':')
		return fail(err, len, "option '%s' needs a value", word);
	if (optopt && strncmp(word, "--", 2) != 0)
		return fail(err, len, "unknown option '-%c' (see --help)", optopt);
	o = strncmp(word, "--", 2) == 0 ? elsewhere(tool, word) : NULL;
	if (o)
		return fail(err, len, "'%s' is not for this tool: %s",
			    word, o->elsewhere);
	return fail(err, len, "unknown option '%s' (see --help)", word);
}

/* Options whose presence matters later (server-only ones, -n with -D). */
static unsigned given_bit(const struct opt *o)
{
	if (o->off == CXD_CFG_OFF(local.bind) && o->kind == K_STR)
		return CXD_GIVEN_BIND;
	if (o->off == CXD_CFG_OFF(local.max_mem))
		return CXD_GIVEN_MAX_MEM;
	if (o->off == CXD_CFG_OFF(run.iters))
		return CXD_GIVEN_ITERS;
	if (o->off == CXD_CFG_OFF(local.port))
		return CXD_GIVEN_PORT;
	return 0;
}

static int parse_switches(const struct cxd_tool *tool, int argc, char **argv,
			  struct cxd_cfg *cfg, char *err, size_t len)
{
	struct getopt_tables g;
	int c, ret;

	build_tables(tool, &g);
	optind = 0; /* GNU: restart scanning, so parse can run again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const struct opt *o = (c == '?' || c == ':') ? NULL :
				      find_opt(tool, c);

		if (o == NULL)
			return bad_switch(tool, c, optind, argv, err,
					  len);
		ret = apply(o, optarg, cfg, err, len);
		if (ret != 0)
			return ret;
		cfg->local.given |= given_bit(o);
	}
	return 0;
}

static int parse_positionals(const struct cxd_tool *tool, int argc,
			     char **argv, struct cxd_cfg *cfg, char *err,
			     size_t len)
{
	for (int i = optind; i < argc; i++) {
		if (!cxd_tool_has(tool, CXD_F_NET) || cfg->role != CXD_SERVER)
			return fail(err, len, "Unexpected argument: '%s'",
				    argv[i]);
		if (*argv[i] == '\0' || strlen(argv[i]) >= CXD_HOST_LEN)
			return fail(err, len, "Invalid server address: '%s'",
				    argv[i]);
		strcpy(cfg->local.host, argv[i]);
		cfg->role = CXD_CLIENT;
	}
	if (cfg->role != CXD_SERVER && (cfg->local.given & CXD_GIVEN_BIND))
		return fail(err, len, "--bind is a server option: a client "
			    "(or --local, which listens on 127.0.0.1) does not "
			    "take it");
	if (cfg->role == CXD_CLIENT && (cfg->local.given & CXD_GIVEN_MAX_MEM))
		return fail(err, len, "--max-mem is a server option: give it "
			    "to the server, which refuses runs over its limit");
	/* The client's table holds every figure (a latency server's has
	 * none): it is the side that judges. */
	if (cfg->role == CXD_SERVER && cxd_tool_has(tool, CXD_F_NET) &&
	    (cfg->sweep.expect_bw > 0 || cfg->sweep.expect_lat > 0))
		return fail(err, len, "--expect-%s is a client option: give "
			    "it to the client (or use --local), which judges "
			    "the figures it prints",
			    cfg->sweep.expect_bw > 0 ? "bw" : "lat");
	if ((cfg->sweep.sw_flags & CXD_SW_PROGRESS) &&
	    (cfg->sweep.sw_flags & CXD_SW_NO_PROGRESS))
		return fail(err, len, "--progress and --no-progress cannot be "
			    "combined: pick one");
	if (cfg->role == CXD_CLIENT && cfg->local.port == 0)
		return fail(err, len, "Invalid port: '0' (a client needs the "
			    "server's port, 1 to 65535)");
	return 0;
}

int cxd_opts_parse(const struct cxd_tool *tool, int argc, char **argv,
		   struct cxd_cfg *cfg, char *err, size_t errlen)
{
	int ret;

	cxd_cfg_defaults(tool, cfg);
	ret = parse_switches(tool, argc, argv, cfg, err, errlen);
	if (ret != 0)
		return ret;
	if (cfg->role == CXD_LOCAL && optind < argc)
		return fail(err, errlen, "Unexpected argument: '%s' (--local "
			    "runs both sides on this host)", argv[optind]);
	ret = parse_positionals(tool, argc, argv, cfg, err, errlen);
	if (ret != 0)
		return ret;
	if (cxd_tool_has(tool, CXD_F_ATOMIC)) {
		cfg->run.min_size = cxd_amo_type_size(cfg->run.amo_type);
		cfg->run.max_size = cfg->run.min_size;
	}
	ret = cxd_opts_interval(tool, cfg, err, errlen);
	if (ret != 0)
		return ret;
	/* The originals keep every latency only in iteration mode. */
	if (cxd_run_has(&cfg->run, CXD_RUN_DURATION))
		cfg->run.flags &= ~CXD_RUN_REPORT_ALL;
	return cxd_run_validate(tool, &cfg->run, err, errlen);
}

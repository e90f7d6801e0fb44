/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the cxi knobs' tests (test_cxi_knobs.c,
 * test_cxi_knobs_ops.c, and their builds against the stand-in
 * <rdma/fi_cxi_ext.h>): a parsed command line, its plan, a stand-in
 * environment. Static inline: each test uses a part of them.
 */
#ifndef CXD_TEST_CXI_KNOBS_AID_H
#define CXD_TEST_CXI_KNOBS_AID_H

#include <string.h>

#include "fabric/cxi_knobs.h"
#include "fabric/fabric.h"
#include "cxd/opts.h"
#include "argv_cfg.h"

/* A stand-in environment: NULL-terminated name/value pairs. */
static inline const char *table_env(void *ctx, const char *name)
{
	const char *const *kv = ctx;

	for (; kv && kv[0]; kv += 2)
		if (strcmp(kv[0], name) == 0)
			return kv[1];
	return NULL;
}

struct run {
	const struct cxd_tool *tool;
	struct cxd_cfg cfg;
	struct cxd_cxi_plan plan;
	char err[CXD_ERR_LEN];
};

/* Parse argv (NULL-terminated, or NULL) for the tool as the command line
 * would (support/argv_cfg.h); it must parse. */
static inline void setup_run(struct run *r, const char *tool, const char *const *argv)
{
	memset(r, 0, sizeof(*r));
	r->tool = cxd_tool_find(tool);
	assert_non_null(r->tool);
	assert_int_equal(argv_cfg_list(&r->cfg, r->err, tool, argv), 0);
}

static inline int plan_for(struct run *r, const char *prov,
		    const struct cxd_cxi_reported *rep, const char **env)
{
	return cxd_cxi_plan(r->tool, &r->cfg.run, &r->cfg.local, prov, rep,
			    table_env, env, &r->plan, r->err, sizeof(r->err));
}

static inline const struct cxd_cxi_env *env_of(const struct cxd_cxi_plan *p,
					const char *name)
{
	for (size_t i = 0; i < p->n_env; i++)
		if (strcmp(p->env[i].name, name) == 0)
			return &p->env[i];
	return NULL;
}

/* cxd_cxi_prepare for provider PROV ("": not picked yet). */
static inline int prepare_for(struct run *r, struct cxd_cxi_envsnap *snap,
		       const char *prov)
{
	return cxd_cxi_prepare(snap, &r->plan, r->tool, &r->cfg.run,
			       &r->cfg.local, prov, NULL, r->err,
			       sizeof(r->err));
}

/* The plan on cxi for TOOL ARGS..., nothing reported, no environment. */
static inline void cxi_plan(struct run *r, const char *tool, const char *const *argv)
{
	setup_run(r, tool, argv);
	assert_int_equal(plan_for(r, "cxi", NULL, NULL), 0);
}

/* The plan sets variable NAME to VALUE. */
static inline void expect_env(const struct run *r, const char *name,
		       const char *value)
{
	const struct cxd_cxi_env *e = env_of(&r->plan, name);

	if (e == NULL)
		fail_msg("%s: no %s in the plan", r->tool->name, name);
	assert_string_equal(e->value, value);
}

/* A NULL-terminated list of words, for setup_run and cxi_plan. */
#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A stand-in environment for plan_for: NAME, VALUE, ... */
#define ENV(...) ((const char *[]){ __VA_ARGS__, NULL })
#endif

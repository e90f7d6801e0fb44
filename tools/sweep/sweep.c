/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: every pair of MPI ranks measured, in rounds of disjoint
 * pairs. The main: the options, then the mode (the sweep, --health,
 * --congestion) on the sweep's core with the engine --engine names
 * (engine_list.c): libfabric's (engine_fabric.c: the pair tools' runners
 * and op hooks, reaching the partner through sw_peer_mpi) or MPI
 * point-to-point (engine_mpi.c). MPI also bootstraps, paces and gathers
 * (mpi_util.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "cxd/opts.h"
#include "cxd/tool.h"
#include "base/stamp.h"
#include "sweep/model/pairs.h"
#include "phases/preflight.h"
#include "phases/boot.h"
#include "phases/budget_mpi.h"
#include "phases/congest_mpi.h"
#include "phases/health.h"
#include "phases/run.h"

static int usage_or_help(const struct sw_ctx *c, const struct sw_engine *e,
			 const struct cxd_tool *tool, int ret, const char *err)
{
	if (c->m.rank == 0 && ret == CXD_OPTS_HELP) {
		cxd_opts_help(tool, stdout);
		printf("\nLaunch it with mpirun or srun, one rank per node: it "
		       "measures every pair\nof ranks (bandwidth both ways, "
		       "8-byte latency, each --repeat times),\njudges each "
		       "link against the typical link by the run's own noise "
		       "(and\nagainst --baseline, --expect-bw, --expect-lat), "
		       "retests the outliers and\nnames the suspects. "
		       "With --budget SECONDS only a covering plan's pairs,\n"
		       "chosen from --topology's link lines, within that "
		       "time.\n"
		       "Exit status: 0 pass, 3 outliers found (--health: a bad NIC), 4 "
		       "inconclusive (too noisy to\nvouch for the links), 2 "
		       "usage, 1 a failure.\n");
		sw_help_scale(stdout);
		if (e->help) /* the simulated build's */
			e->help(stdout);
	} else if (c->m.rank == 0 && ret == CXD_OPTS_VERSION) {
		char ver[128] = "";

		e->version(ver, sizeof(ver));
		printf("cxi_sweep version %s (%s engine: %s%s)\n",
		       CXD_SUITE_VERSION, e->name,
		       strcmp(e->name, "fabric") == 0 ? "libfabric " : "",
		       ver);
	} else if (c->m.rank == 0) {
		fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	return ret < 0 ? CXD_EXIT_USAGE : CXD_EXIT_OK;
}

/* --engine, or this build's default (also for -h and -V); an unknown
 * name turns *ret into the usage error. */
static void pick_engine(const struct sw_ctx *c, struct sw_engine *e,
			int *ret, char *err, size_t len)
{
	const char *name = *ret == 0 ? c->cfg.sweep.engine : "";
	int r = sw_engine_pick(name, e, &c->m, err, len);

	if (r != 0) {
		*ret = r;
		sw_engine_pick("", e, &c->m, err, 0); /* for the message */
	}
}

/* Options: the pair tools' table; bandwidth and latency runs derived.
 * -1 to go on, else the exit status. */
static int parse(struct sw_ctx *c, struct sw_engine *e, int argc,
		 char **argv)
{
	const struct cxd_tool *tool = cxd_tool_find("cxi_sweep");
	char err[CXD_ERR_LEN] = "";
	int ret = cxd_opts_parse(tool, argc, argv, &c->cfg, err, sizeof(err));

	cxd_stamp_take(&c->cfg.out.stamp, argc, argv); /* for the JSON */
	if (ret == 0)
		ret = cxd_run_validate(cxd_tool_find("cxi_write_bw"),
				       &c->cfg.run, err, sizeof(err));
	if (ret == 0) /* --budget's, before the modes it excludes */
		ret = sw_budget_check(c, err, sizeof(err));
	if (ret == 0) /* --congestion's options */
		ret = sw_congest_check(c, err, sizeof(err));
	if (ret == 0 || ret == CXD_OPTS_HELP || ret == CXD_OPTS_VERSION)
		pick_engine(c, e, &ret, err, sizeof(err));
	if (ret == 0 && e->check)
		ret = e->check(&c->cfg, err, sizeof(err));
	if (ret != 0)
		return usage_or_help(c, e, tool, ret, err);
	sw_ctx_derive(c);
	return -1;
}

/* The mode the options ask for, on the bootstrapped context. */
static int run_mode(struct sw_ctx *c, struct sw_engine *e,
		    struct sw_inputs *in)
{
	if (c->cfg.local.given & CXD_GIVEN_HEALTH)
		return sw_health(c, e);
	if (c->cfg.sweep.cg_flags)
		return sw_congest(c, e);
	return sw_run(c, e, in);
}

int main(int argc, char **argv)
{
	static struct sw_ctx c; /* large; one per process */
	struct sw_engine eng = { 0 }; /* filled by parse's pick_engine */
	struct sw_inputs in = { 0 };
	int ret;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "cxi_sweep: MPI_Init failed\n");
		return CXD_EXIT_FAIL;
	}
	sw_ctx_init(&c);
	ret = parse(&c, &eng, argc, argv);
	if (sw_agree_opts(&c.m, argc, argv) != 0)
		ret = CXD_EXIT_USAGE;
	if (ret < 0) { /* not -h, -V or a usage error */
		ret = sw_inputs_read(&in, &c);
		if (ret == 0)
			ret = run_mode(&c, &eng, &in);
	}
	if (eng.close) /* opened or not: its state */
		eng.close(&eng);
	sw_inputs_free(&in);
	sw_ctx_free(&c);
	MPI_Finalize();
	return ret;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: every pair of MPI ranks measured, in rounds of disjoint
 * pairs. The main: the options, then the mode (the sweep, --health,
 * --congestion) on the sweep's core with the engine --engine names
 * (engine_list.c): libfabric's (engine_fabric.c: the pair tools' runners
 * and op hooks, reaching the partner through sw_peer_mpi) or MPI
 * point-to-point (engine_mpi.c). MPI also bootstraps, paces and gathers
 * (sw_mpi.h).
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
#include "sweep/pairs.h"
#include "congest_run.h"
#include "sweep_mpi.h"
#include "health.h"

/* What the simulated build does differently, for its -h. */
static void help_sim(FILE *out)
{
#ifdef CXD_SIM
	fprintf(out, "\nThis is the simulated build (make sim): run it with "
		"SimGrid's smpirun over a\nplatform file. It has the mpi "
		"engine only (no libfabric inside). Where\nSMPI lacks a call "
		"or makes it quadratic, it differs: all-gather, all-reduce\n"
		"and all-to-all go through rank 0 (gather, then broadcast or "
		"scatter);\n--matrix is refused (SMPI has no nonblocking "
		"MPI-IO write and stores no\nfile data); the time ranks wait "
		"for a CPU is not known (each link's\ncpu_wait_pct is "
		"null); every wait blocks (the simulator ends a run that\n"
		"deadlocks); a latency run is the partner's word that it is "
		"ready (not 10\nuntimed ping-pongs) and one timed ping-pong: "
		"the leader lets the simulated\nclock pass for the rest of "
		"--lat-iters at its pace (8-byte messages load no\nlink, and "
		"each costs wall time); a bandwidth window travels as one\n"
		"message of its -l messages' bytes (the links share their rate "
		"among flows,\nso it takes what its messages would take "
		"together; -s times -l must be\nunder 2 GiB); and the words "
		"and pings use blocking calls (SMPI's cost is per\nmessage and "
		"per call).\n");
#else
	(void) out;
#endif
}

static int usage_or_help(const struct sw *w, const struct cxd_tool *tool,
			 int ret, const char *err)
{
	if (w->m.rank == 0 && ret == CXD_OPTS_HELP) {
		cxd_opts_help(tool, stdout);
		printf("\nLaunch it with mpirun or srun, one rank per node: it "
		       "measures every pair\nof ranks (bandwidth both ways, "
		       "8-byte latency, each --repeat times),\njudges each "
		       "link against the typical link by the run's own noise "
		       "(and\nagainst --baseline, --expect-bw, --expect-lat), "
		       "retests the outliers and\nnames the suspects.\n"
		       "Exit status: 0 pass, 3 outliers found (--health: a bad NIC), 4 "
		       "inconclusive (too noisy to\nvouch for the links), 2 "
		       "usage, 1 a failure.\n");
		sw_help_scale(stdout);
		help_sim(stdout);
	} else if (w->m.rank == 0 && ret == CXD_OPTS_VERSION) {
		char ver[128] = "";

		w->eng->version(ver, sizeof(ver));
		printf("cxi_sweep version %s (%s engine: %s%s)\n",
		       CXD_SUITE_VERSION, w->eng->name,
		       strcmp(w->eng->name, "fabric") == 0 ? "libfabric " : "",
		       ver);
	} else if (w->m.rank == 0) {
		fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	return ret < 0 ? CXD_EXIT_USAGE : CXD_EXIT_OK;
}

/* What the simulated build cannot do, refused (see help_sim). */
static int sim_check(const struct sw *w, char *err, size_t len)
{
#ifdef CXD_SIM
	if (w->cfg.sweep.matrix[0]) {
		snprintf(err, len, "--matrix: the simulated build cannot write "
			 "it (SMPI has no nonblocking MPI-IO write and keeps "
			 "no file data); use --json");
		return -EINVAL;
	}
#else
	(void) w;
	(void) err;
	(void) len;
#endif
	return 0;
}

/* --engine, or this build's default (also for -h and -V); an unknown
 * name turns *ret into the usage error. */
static void pick_engine(struct sw *w, int *ret, char *err, size_t len)
{
	const char *name = *ret == 0 ? w->cfg.sweep.engine : "";
	int r = sw_engine_pick(name, w->eng, w, err, len);

	if (r != 0) {
		*ret = r;
		sw_engine_pick("", w->eng, w, err, 0); /* for the message */
	}
}

/* Options: the pair tools' table; bandwidth and latency runs derived. */
static int parse(struct sw *w, int argc, char **argv)
{
	const struct cxd_tool *tool = cxd_tool_find("cxi_sweep");
	char err[CXD_ERR_LEN] = "";
	int ret = cxd_opts_parse(tool, argc, argv, &w->cfg, err, sizeof(err));

	cxd_stamp_take(&w->cfg.out.stamp, argc, argv); /* for the JSON */
	if (ret == 0)
		ret = cxd_run_validate(cxd_tool_find("cxi_write_bw"),
				       &w->cfg.run, err, sizeof(err));
	if (ret == 0) /* --congestion's options */
		ret = sw_congest_check(w, err, sizeof(err));
	if (ret == 0 || ret == CXD_OPTS_HELP || ret == CXD_OPTS_VERSION)
		pick_engine(w, &ret, err, sizeof(err));
	if (ret == 0 && w->eng->check)
		ret = w->eng->check(w, err, sizeof(err));
	if (ret == 0)
		ret = sim_check(w, err, sizeof(err));
	if (ret != 0)
		return usage_or_help(w, tool, ret, err);
	/* Defaults applied by cxd_opts_parse (the option table's). */
	w->lat_iters = w->cfg.sweep.lat_iters;
	w->repeat = w->cfg.sweep.repeat;
	w->bw_run = w->cfg.run;
	w->lat_run = w->cfg.run;
	w->lat_run.min_size = w->lat_run.max_size = CXD_SWEEP_LAT_SIZE;
	w->lat_run.iters = w->lat_iters;
	w->lat_run.list_size = 1;
	w->lat_run.latency_gap_us = 0; /* the originals' gap spins: none */
	w->lat_run.flags &= ~(uint32_t) CXD_RUN_DURATION;
	/* A pair's wait covers its longest phase, plus slack. */
	w->m.wait_ns = ((w->cfg.run.flags & CXD_RUN_DURATION ?
		       w->cfg.run.duration_s : 0) + CXD_SWEEP_WAIT_S) *
		     1000000000ULL;
	return -1;
}

int main(int argc, char **argv)
{
	static struct sw w; /* large; one per process */
	struct sw_engine eng = { 0 }; /* filled by parse's pick_engine */
	int ret;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "cxi_sweep: MPI_Init failed\n");
		return CXD_EXIT_FAIL;
	}
	sw_init(&w, &eng);
	ret = parse(&w, argc, argv);
	if (sw_agree_opts(&w, argc, argv) != 0)
		ret = CXD_EXIT_USAGE;
	if (ret >= 0) {
		if (eng.close) /* never opened: its state only */
			eng.close(&eng);
		MPI_Finalize();
		return ret;
	}
	ret = sw_read_inputs(&w);
	if (ret == 0)
		ret = w.cfg.local.given & CXD_GIVEN_HEALTH ? sw_health(&w) :
		      w.cfg.sweep.cg_flags ? sw_congest(&w) : sw_run(&w);
	sw_counters_free(&w);
	sw_free(&w);
	MPI_Finalize();
	return ret;
}

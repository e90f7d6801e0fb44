/*
 * cxi_sweep: every pair of MPI ranks measured over libfabric, in rounds of
 * disjoint pairs. MPI only bootstraps (ranks, hosts, fabric addresses,
 * barriers, gathering); the traffic runs through the pair tools' runners
 * and op hooks, reaching the partner through sw_peer_mpi (peer_mpi.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "cxd/session.h"
#include "sweep/sweep.h"
#include "sweep_mpi.h"

static int usage_or_help(struct sw *w, int ret, const char *err)
{
	if (w->rank == 0 && ret == CXD_OPTS_HELP) {
		cxd_opts_help(w->tool, stdout);
		printf("\nLaunch it with mpirun or srun, one rank per node: it "
		       "measures every pair\nof ranks (bandwidth both ways, "
		       "8-byte latency) and names the outliers.\n");
		sw_help_scale(stdout);
	} else if (w->rank == 0 && ret == CXD_OPTS_VERSION) {
		uint32_t v = fi_version();

		printf("cxi_sweep version %s (libfabric %u.%u)\n",
		       CXD_SUITE_VERSION, FI_MAJOR(v), FI_MINOR(v));
	} else if (w->rank == 0) {
		fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	return ret < 0 ? 2 : 0;
}

/* Options: the pair tools' table; bandwidth and latency runs derived. */
static int parse(struct sw *w, int argc, char **argv)
{
	char err[CXD_ERR_LEN] = "";
	int ret = cxd_opts_parse(w->tool, argc, argv, &w->cfg, err,
				 sizeof(err));

	if (ret == 0)
		ret = cxd_run_validate(w->bw_tool, &w->cfg.run, err,
				       sizeof(err));
	if (ret != 0)
		return usage_or_help(w, ret, err);
	/* Defaults applied by cxd_opts_parse (the option table's). */
	w->bw_pct = w->cfg.sweep.bw_pct;
	w->lat_pct = w->cfg.sweep.lat_pct;
	w->lat_iters = w->cfg.sweep.lat_iters;
	/* The pair runners' liveness floor (--timeout), as in the pair tools. */
	w->s.timeout_ms = (uint64_t) w->cfg.local.timeout_s * 1000;
	w->bw_run = w->cfg.run;
	w->lat_run = w->cfg.run;
	w->lat_run.min_size = w->lat_run.max_size = CXD_SWEEP_LAT_SIZE;
	w->lat_run.iters = w->lat_iters;
	w->lat_run.list_size = 1;
	w->lat_run.latency_gap_us = 0; /* the originals' gap spins: none */
	w->lat_run.flags &= ~(uint32_t) CXD_RUN_DURATION;
	/* A pair's wait covers its longest phase, plus slack. */
	w->wait_ns = ((w->cfg.run.flags & CXD_RUN_DURATION ?
		       w->cfg.run.duration_s : 0) + CXD_SWEEP_WAIT_S) *
		     1000000000ULL;
	return -1;
}

int main(int argc, char **argv)
{
	static struct sw w; /* large; one per process */
	int ret;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "cxi_sweep: MPI_Init failed\n");
		return 1;
	}
	sw_init(&w);
	ret = parse(&w, argc, argv);
	if (sw_agree_opts(&w, argc, argv) != 0)
		ret = 2;
	if (ret >= 0) {
		MPI_Finalize();
		return ret;
	}
	ret = sw_run(&w);
	sw_free(&w);
	MPI_Finalize();
	return ret;
}

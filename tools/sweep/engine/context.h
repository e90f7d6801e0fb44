/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's context: what every part of a run reads and, once the
 * bootstrap is over, none changes: this rank's place in the job, the
 * options, the two runs an engine makes, every rank's host and address,
 * how the ranks share hosts, where --topology places them and how many
 * pairs its shared links carry at full rate. The bootstrap (boot.c),
 * the engine's open, the placement and the widths fill it; the parts
 * are handed it const.
 */
#ifndef CXD_SWEEP_CONTEXT_H
#define CXD_SWEEP_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/clock.h"
#include "base/exit_codes.h"
#include "cxd/config.h"
#include "cxd/opts.h"
#include "sweep/model/pairs.h"
#include "sweep/model/topo.h"
#include "mpi/mpi_util.h"

/* How this rank shares its host, and so how many pairs run at once. */
struct sw_hosts {
	int pairs_at_once;     /* per round: --max-pairs or by host CPUs */
	int local, nlocal;     /* place among this host's ranks, and count */
	bool one_host;         /* every rank on one host */
	int cpus;              /* this host's CPUs its ranks may run on */
	/* This host has a CPU for each of its ranks that can be at work at
	 * once (both ends of pairs_at_once pairs, at most its ranks): a
	 * rank waiting for a CPU here waits for someone else's work. */
	bool cpus_enough;
};

struct sw_ctx {
	struct sw_mpi m;       /* rank, n, the wait bound (mpi_util.h) */
	struct cxd_cfg cfg;
	struct cxd_run_opts bw_run, lat_run; /* the engine's two runs */
	uint64_t lat_iters, repeat;
	struct cxd_sweep_rank *ranks; /* every rank's host and address */
	struct sw_hosts hosts;
	/* --topology's switch and group of every rank, on every rank
	 * (place.switch_of NULL: none given); its links, switches' groups
	 * and route rule on rank 0 only (NULL, 0 elsewhere). */
	struct cxd_topo_map place;
	/* Pairs at full rate across one link of each kind (topo_types.h's
	 * CXD_TOPO_W_*), stated or measured (width_mpi.c), on every rank;
	 * 0: unknown. */
	int width[CXD_TOPO_W_KINDS];
	/* which of them the topology states (the site's word), every rank */
	bool width_stated[CXD_TOPO_W_KINDS];
	bool coord_only;       /* test copies: time the pacing alone */
};

#endif

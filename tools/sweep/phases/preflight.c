/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: faults that are one rank's but must be told once, by rank
 * 0, with every rank leaving with the same status (2, a usage error):
 * ranks started with different options, a device choice that fails on
 * some node. Every rank takes part; each wait is bounded.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "base/mem_avail.h"
#include "sweep/model/footprint.h"
#include "sweep/model/matrix.h"
#include "sweep/result/out_types.h"
#include "preflight.h"

/* FNV-1a over the arguments after the program's name. */
static uint64_t args_hash(int argc, char **argv, char *line, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t used = 0;

	line[0] = '\0';
	for (int i = 1; i < argc; i++) {
		for (const char *c = argv[i]; ; c++) {
			h = (h ^ (unsigned char) *c) * 1099511628211ULL;
			if (*c == '\0')
				break;
		}
		if (used < len)
			used += (size_t) snprintf(line + used, len - used,
						  "%s%s", i > 1 ? " " : "",
						  argv[i]);
	}
	return h;
}

int sw_agree_opts(const struct sw_mpi *m, int argc, char **argv)
{
	char line[200], err[CXD_ERR_LEN] = "";
	uint64_t h = args_hash(argc, argv, line, sizeof(line)), h0 = h;
	MPI_Request q;

	MPI_Ibcast(&h0, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(m, &q, "the comparison of options");
	if (h != h0)
		snprintf(err, sizeof(err), "started with other options than "
			 "rank 0 (\"%s\"): every rank must get the same ones",
			 line);
	return sw_agree_err(m, err);
}

int sw_agree_memory(const struct sw_ctx *c)
{
	const struct cxd_sweep_opts *o = &c->cfg.sweep;
	char err[CXD_ERR_LEN] = "";
	unsigned what = 0;

	if (o->json[0] || o->csv[0] ||
	    (o->metrics[0] && c->m.n <= CXD_SWEEP_METRICS_LINKS))
		what |= CXD_MEM_LINKS;
	if (o->json[0])
		what |= CXD_MEM_JSON;
	if (o->baseline[0])
		what |= cxd_matrix_is(o->baseline) ? CXD_MEM_BASE_BIN :
						     CXD_MEM_BASE_JSON;
	if (c->m.rank == 0)
		cxd_footprint_check(c->m.n, c->hosts.pairs_at_once, what,
				    cxd_mem_available(""), err,
				    sizeof(err));
	return sw_agree_err(&c->m, err);
}

void sw_help_scale(FILE *out)
{
	fprintf(out, "\nOne rank per NIC: -d auto gives each rank of a host "
		"the device at its place\namong the host's ranks, in the "
		"provider's order; -d cxi0,cxi1 names them,\none per rank of "
		"a host. Links between NICs of one host are measured too.\n");
	fprintf(out, "\nMemory at N ranks: each rank holds about 1 kB per "
		"rank (hosts, addresses,\nits own steps of the schedule, "
		"which it computes) and judges its own links;\nrank 0 adds "
		"about %d kB per rank (medians, noise, the outliers it lists)."
		"\nOnly files that list every link make rank 0 gather the "
		"matrices: --csv (and\n--metrics up to %d ranks; beyond, it "
		"gives each rank's median) 32 N^2 bytes\n(3.2 GB at 10,000 "
		"ranks), --json about %d N^2 more (96 GB).\n--matrix FILE "
		"writes every link at any scale: each rank writes its own "
		"rows\n(MPI-IO), 16 N^2 bytes on disk. A run that rank 0's "
		"host cannot hold is refused\nup front (exit 2) with the "
		"figures.\n",
		CXD_SWEEP_RANK0_PER_RANK / 1024, CXD_SWEEP_METRICS_LINKS,
		4 * CXD_SWEEP_JSON_VALUE_BYTES);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The nine diagnostics, one row each: the only place a tool is defined.
 * A new tool is a row; a new kind of operation also needs its struct
 * cxd_ops (session.h), which carries the facts the core asks about.
 */
#include <string.h>

#include "cxd/config.h"
#include "cxd/tool.h"

#define NET_BW (CXD_F_NET | CXD_F_LIST | CXD_F_BIDIR | CXD_F_GATE_BW)
#define NET_LAT (CXD_F_NET | CXD_F_LATOPTS | CXD_F_LL | CXD_F_RANGE | \
		 CXD_F_GATE_LAT)
#define HOST_MEM (CXD_F_GPU | CXD_F_HP)

/* The simulated build (make sim) has cxi_sweep alone, with no libfabric
 * inside: its rows keep their names, options and defaults, but no
 * runner and no operation. Chosen here, at file scope, so that the table
 * stays one. */
#ifdef CXD_SIM
#define RUN(fn) NULL
#define OPS(ops) NULL
#else /* the runners and operations: libfabric's */
#include "ops/ops.h"
#include "run/run.h"
#include "session/session.h"
#define RUN(fn) fn
#define OPS(ops) (&(ops))
#endif

/* How the core runs each family: bandwidth lists, latency samples. */
#define BW .run = RUN(cxd_runner_bw), .traits = CXD_TRAIT_LISTS
#define LAT .run = RUN(cxd_runner_lat), .traits = CXD_TRAIT_SAMPLES

#define BW_COLS(sz, cnt, szw) \
	.size_col = sz, .count_col = cnt, .bw_col = "BW[MB/s]", \
	.rate_col = "PktRate[Mpkt/s]", .size_w = szw, .rate_w = 15
#define LAT_COLS(sz, cnt, szw) \
	.size_col = sz, .count_col = cnt, .size_w = szw

static const struct cxd_tool tools[] = {
	{
		.name = "cxi_write_bw",
		.title = "CXI RDMA Write Bandwidth Test",
		BW, .ops = OPS(cxd_write_ops),
		.noun = "Write", .noun_lower = "write", .index_col = "WriteNum",
		.features = NET_BW | HOST_MEM | CXD_F_HRP | CXD_F_IDC |
			    CXD_F_UNRESTRICTED | CXD_F_BUF | CXD_F_RANGE,
		.def = { .iters = 1000, .list_size = 256, .size = 65536 },
		BW_COLS("RDMA Size[B]", "Writes", 12),
	},
	{
		.name = "cxi_read_bw",
		.title = "CXI RDMA Read Bandwidth Test",
		BW, .ops = OPS(cxd_read_ops),
		.noun = "Read", .noun_lower = "read", .index_col = "ReadNum",
		.features = NET_BW | HOST_MEM | CXD_F_UNRESTRICTED |
			    CXD_F_BUF | CXD_F_RANGE,
		.def = { .iters = 1000, .list_size = 256, .size = 65536 },
		BW_COLS("RDMA Size[B]", "Reads", 12),
	},
	{
		.name = "cxi_send_bw",
		.title = "CXI RDMA Send Bandwidth Test",
		BW, .ops = OPS(cxd_send_ops),
		.noun = "Send", .noun_lower = "send", .index_col = "SendNum",
		.features = NET_BW | HOST_MEM | CXD_F_RDZV | CXD_F_IDC |
			    CXD_F_BUF | CXD_F_RANGE,
		.def = { .iters = 1000, .list_size = 256, .size = 65536 },
		BW_COLS("Send Size[B]", "Sends", 12),
	},
	{
		.name = "cxi_atomic_bw",
		.title = "CXI Atomic Memory Operation Bandwidth Test",
		BW, .ops = OPS(cxd_atomic_ops),
		.noun = "AMO", .noun_lower = "AMO", .index_col = "OpNum",
		.features = NET_BW | CXD_F_ATOMIC | CXD_F_HRP | CXD_F_IDC |
			    CXD_F_UNRESTRICTED,
		.def = { .iters = 10000, .list_size = 4096, .size = 8 },
		.size_col = "AMO Size[B]", .count_col = "Ops",
		.bw_col = "BW[MB/s]", .rate_col = "OpRate[M/s]",
		.size_w = 11, .rate_w = 13,
	},
	{
		.name = "cxi_gpu_loopback_bw",
		.title = "CXI Loopback Bandwidth Test",
		/* one process writes into its own buffer (host or GPU) */
		.run = RUN(cxd_runner_loopback), .ops = OPS(cxd_write_ops),
		.traits = CXD_TRAIT_LOOPBACK,
		.noun = "Write", .noun_lower = "write", .index_col = "WriteNum",
		.features = HOST_MEM | CXD_F_LOOPBACK | CXD_F_GATE_BW,
		.def = { .iters = 25, .list_size = 8192, .size = 524288 },
		.size_col = "RDMA Size[B]", .count_col = "Writes",
		.bw_col = "BW[Gb/s]", .rate_col = "PktRate[Mpkt/s]",
		.size_w = 12, .rate_w = 15,
	},
	{
		.name = "cxi_write_lat",
		.title = "CXI RDMA Write Latency Test",
		LAT, .ops = OPS(cxd_write_ops),
		.noun = "Write", .noun_lower = "write", .index_col = "WriteNum",
		.features = NET_LAT | HOST_MEM | CXD_F_IDC | CXD_F_UNRESTRICTED,
		.def = { .iters = 100, .list_size = 1, .size = 8 },
		LAT_COLS("RDMA Size[B]", "Writes", 12),
	},
	{
		.name = "cxi_read_lat",
		.title = "CXI RDMA Read Latency Test",
		LAT, .ops = OPS(cxd_read_ops),
		.noun = "Read", .noun_lower = "read", .index_col = "ReadNum",
		.features = NET_LAT | HOST_MEM | CXD_F_UNRESTRICTED,
		.def = { .iters = 100, .list_size = 1, .size = 8 },
		LAT_COLS("RDMA Size[B]", "Reads", 12),
	},
	{
		.name = "cxi_send_lat",
		.title = "CXI RDMA Send Latency Test",
		.run = RUN(cxd_runner_lat), .ops = OPS(cxd_send_ops),
		/* the server answers each send: half the round trip */
		.traits = CXD_TRAIT_SAMPLES | CXD_TRAIT_PING_PONG,
		.noun = "Send", .noun_lower = "send", .index_col = "SendNum",
		.features = NET_LAT | HOST_MEM | CXD_F_IDC | CXD_F_RDZV,
		.def = { .iters = 100, .list_size = 1, .size = 8 },
		LAT_COLS("Bytes", "Sends", 10),
	},
	{
		.name = "cxi_atomic_lat",
		.title = "CXI Atomic Memory Operation Latency Test",
		LAT, .ops = OPS(cxd_atomic_ops),
		.noun = "AMO", .noun_lower = "AMO", .index_col = "OpNum",
		.features = (NET_LAT & ~CXD_F_RANGE) | CXD_F_ATOMIC |
			    CXD_F_IDC | CXD_F_UNRESTRICTED,
		.def = { .iters = 100, .list_size = 1, .size = 8 },
		LAT_COLS("AMO Size[B]", "Ops", 11),
	},
};

/*
 * The all-pairs sweep: launched by MPI, not a pair tool, so it is kept
 * out of cxd_tool_at's list (which enumerates the pair tools). It
 * measures with the cxi_write_bw and cxi_write_lat rows.
 */
static const struct cxd_tool sweep_tool = {
	.name = "cxi_sweep",
	.title = "CXI Fabric Sweep (all pairs)",
	BW, .ops = OPS(cxd_write_ops),
	.noun = "Write", .noun_lower = "write", .index_col = "WriteNum",
	.features = CXD_F_SWEEP | CXD_F_LIST | CXD_F_GATE_BW |
		    CXD_F_GATE_LAT,
	.def = { .iters = 10, .list_size = 16, .size = 65536 },
	BW_COLS("RDMA Size[B]", "Writes", 12),
};

/*
 * The node check (lib/node_health.c): this host's NICs, no peer, so it
 * is no pair tool either and stays out of cxd_tool_at's list.
 */
static const struct cxd_tool node_tool = {
	.name = "cxi_node_health",
	.title = "CXI Node Health Check",
	.alone = RUN(cxd_node_health),
	.noun = "NIC", .noun_lower = "NIC", .index_col = "NIC",
	.features = CXD_F_NODE,
	.def = { .iters = 1, .list_size = 1, .size = 1 }, /* none: valid */
};

const struct cxd_tool *cxd_tool_at(unsigned idx)
{
	if (idx >= sizeof(tools) / sizeof(tools[0]))
		return NULL;
	return &tools[idx];
}

const struct cxd_tool *cxd_tool_find(const char *name)
{
	const struct cxd_tool *t;

	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++)
		if (strcmp(t->name, name) == 0)
			return t;
	if (strcmp(name, node_tool.name) == 0)
		return &node_tool;
	return strcmp(name, sweep_tool.name) == 0 ? &sweep_tool : NULL;
}

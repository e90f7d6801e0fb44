/* SPDX-License-Identifier: BSD-3-Clause */
/* The tool table: every diagnostic is one row; the shared core does the rest. */
#ifndef CXD_TOOL_H
#define CXD_TOOL_H

#include <stdint.h>

struct cxd_ops;    /* session/session.h: an operation's hooks and facts */
struct cxd_sess;
struct cxd_report;
struct cxd_cfg;

/* Runs every size of a session and reports it (run_bw.c, run_lat.c). */
typedef int (*cxd_runner_fn)(struct cxd_sess *s, struct cxd_report *rep);

/*
 * Traits: how the shared core runs and shows a tool. Each row has exactly
 * one of LISTS, SAMPLES and LOOPBACK.
 */
/* Lists of -l operations, each to its own slot: "List Size", MB/s. */
#define CXD_TRAIT_LISTS (1u << 0)
/* One operation at a time, timed to its completion: latency figures. */
#define CXD_TRAIT_SAMPLES (1u << 1)
/* One process targets itself: no peer, "TX/RX Mem" lines, Gb/s. */
#define CXD_TRAIT_LOOPBACK (1u << 2)
/* The passive side answers every operation: latency is half the trip. */
#define CXD_TRAIT_PING_PONG (1u << 3)

/* Feature bits: which options and summary lines a tool has. */
#define CXD_F_NET (1u << 0)          /* client/server: ADDR, -p */
#define CXD_F_GPU (1u << 1)          /* -t -r -g */
#define CXD_F_HP (1u << 2)           /* --use-hp */
#define CXD_F_BIDIR (1u << 3)        /* -b */
#define CXD_F_HRP (1u << 4)          /* --no-hrp */
#define CXD_F_IDC (1u << 5)          /* --no-idc */
#define CXD_F_UNRESTRICTED (1u << 6) /* --unrestricted */
#define CXD_F_RDZV (1u << 7)         /* -R */
#define CXD_F_LL (1u << 8)           /* --no-ll */
#define CXD_F_ATOMIC (1u << 9)       /* -A -C -T --fetching --matching */
#define CXD_F_LIST (1u << 10)        /* -l */
#define CXD_F_BUF (1u << 11)         /* --buf-sz --buf-align */
#define CXD_F_RANGE (1u << 12)       /* -s MIN:MAX */
#define CXD_F_LATOPTS (1u << 13)     /* --warmup --latency-gap --report-all */
#define CXD_F_LOOPBACK (1u << 14)    /* -i ITERS -n XFERS */
#define CXD_F_SWEEP (1u << 15)       /* cxi_sweep: --json FILE, --min-bw */
#define CXD_F_GATE_BW (1u << 16)     /* --expect-bw: a bandwidth floor */
#define CXD_F_GATE_LAT (1u << 17)    /* --expect-lat: a latency ceiling */
/* cxi_node_health: only the rows that name this bit, and -h -V. */
#define CXD_F_NODE (1u << 18)

struct cxd_tool_defaults {
	uint64_t iters;
	uint64_t list_size;
	uint64_t size;
};

struct cxd_tool {
	const char *name;       /* "cxi_write_bw" */
	const char *title;      /* "CXI RDMA Write Bandwidth Test" */
	const struct cxd_ops *ops; /* the operation: posting hooks, facts */
	cxd_runner_fn run;         /* cxd_runner_bw, cxd_runner_lat, ... */
	/* A tool with no peer and no session (cxi_node_health): main()
	 * hands it the parsed options and exits with what it returns. */
	int (*alone)(const struct cxd_tool *tool, struct cxd_cfg *cfg);
	unsigned traits;           /* CXD_TRAIT_* */
	const char *noun;       /* "Write": "Write Size", help text */
	const char *noun_lower; /* "write": help text */
	const char *index_col;  /* --report-all index header: "WriteNum" */
	unsigned features;      /* CXD_F_* */
	struct cxd_tool_defaults def;
	/* Result table columns and their printf widths. */
	const char *size_col, *count_col, *bw_col, *rate_col;
	int size_w, rate_w;
};

const struct cxd_tool *cxd_tool_find(const char *name);
const struct cxd_tool *cxd_tool_at(unsigned idx); /* NULL past the end */

static inline int cxd_tool_has(const struct cxd_tool *t, unsigned f)
{
	return (t->features & f) != 0;
}

static inline int cxd_tool_is(const struct cxd_tool *t, unsigned trait)
{
	return (t->traits & trait) != 0;
}

/* node_health.c: cxi_node_health's whole run; the exit status. */
int cxd_node_health(const struct cxd_tool *tool, struct cxd_cfg *cfg);

/* main_flow.c: main() of every tool, and its two sides. */
int cxd_main(const struct cxd_tool *tool, int argc, char **argv);
/* One side of a run from a parsed configuration; returns the exit status. */
int cxd_main_client(const struct cxd_tool *tool, struct cxd_cfg *cfg);
/* ready_fd >= 0: the server writes its port there (uint32_t) once it
 * listens, for a parent that runs the client (--local, tests). */
int cxd_main_server(const struct cxd_tool *tool, struct cxd_cfg *cfg,
		   int ready_fd);

#endif

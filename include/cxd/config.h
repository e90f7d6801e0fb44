/* SPDX-License-Identifier: BSD-3-Clause */
/* Run configuration: one struct, grouped by who owns each field. */
#ifndef CXD_CONFIG_H
#define CXD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CXD_SUITE_VERSION "0.1.0"
#define CXD_MAX_MSG_SIZE 4294967295ULL /* 2^32 - 1, as the originals */
#define CXD_MAX_LIST_SIZE 16382
#define CXD_NAME_LEN 64
#define CXD_HOST_LEN 256

enum cxd_role { CXD_SERVER, CXD_CLIENT, CXD_LOCAL };
enum cxd_format { CXD_FMT_TEXT, CXD_FMT_JSON, CXD_FMT_CSV };
enum cxd_hugepage { CXD_HP_NONE, CXD_HP_2M, CXD_HP_1G };
enum cxd_gpu_type { CXD_GPU_NONE = -1, CXD_GPU_AMD, CXD_GPU_NVIDIA, CXD_GPU_INTEL };

enum cxd_amo_op {
	CXD_AMO_MIN, CXD_AMO_MAX, CXD_AMO_SUM, CXD_AMO_LOR, CXD_AMO_LAND,
	CXD_AMO_BOR, CXD_AMO_BAND, CXD_AMO_LXOR, CXD_AMO_BXOR, CXD_AMO_SWAP,
	CXD_AMO_CSWAP, CXD_AMO_AXOR, CXD_AMO_OP_COUNT
};
enum cxd_cswap_op {
	CXD_CSWAP_EQ, CXD_CSWAP_NE, CXD_CSWAP_LE, CXD_CSWAP_LT, CXD_CSWAP_GE,
	CXD_CSWAP_GT, CXD_CSWAP_OP_COUNT
};
enum cxd_amo_type {
	CXD_T_INT8, CXD_T_UINT8, CXD_T_INT16, CXD_T_UINT16, CXD_T_INT32,
	CXD_T_UINT32, CXD_T_INT64, CXD_T_UINT64, CXD_T_FLOAT, CXD_T_DOUBLE,
	CXD_T_FLOAT_COMPLEX, CXD_T_DOUBLE_COMPLEX, CXD_T_UINT128,
	CXD_T_COUNT
};

/* Run flags: chosen by the client, sent to the server. */
#define CXD_RUN_BIDIR (1u << 0)
#define CXD_RUN_NO_HRP (1u << 1)
#define CXD_RUN_NO_IDC (1u << 2)
#define CXD_RUN_NO_LL (1u << 3)
#define CXD_RUN_UNRESTRICTED (1u << 4)
#define CXD_RUN_RDZV (1u << 5)
#define CXD_RUN_FETCHING (1u << 6)
#define CXD_RUN_MATCHING (1u << 7)
#define CXD_RUN_REPORT_ALL (1u << 8)
#define CXD_RUN_DURATION (1u << 9) /* duration_s is in force, not iters */
#define CXD_RUN_VALIDATE (1u << 10) /* check the data after each size */

/* Per side: never sent to the peer. */
struct cxd_local_opts {
	char device[CXD_NAME_LEN];   /* "" = pick automatically */
	char provider[CXD_NAME_LEN]; /* "" = pick automatically */
	char host[CXD_HOST_LEN];     /* client: the server's address */
	char bind[CXD_HOST_LEN];     /* server: listen address, "" = any */
	uint32_t port;               /* 0 on a server = ephemeral */
	uint32_t svc_id;
	bool svc_id_set;             /* -v given: cxi gets an auth key */
	int tx_gpu, rx_gpu;          /* -1 = system memory */
	int gpu_type;                /* enum cxd_gpu_type */
	uint64_t max_mem;            /* server: largest buffer a client may ask */
	uint32_t timeout_s;          /* --timeout: liveness floor, seconds */
	int local_child;             /* --local: server child's pid; -1 in it */
	uint64_t interval_s;         /* --interval: window length, 0 = none */
	unsigned given;              /* CXD_GIVEN_*: options on the command line */
	/* A launcher step (lib/launch.c): where the server publishes its
	 * address, "" = none; how long a client retries a refused
	 * connection (its server may not listen yet), or a server waits for
	 * its client; 0 = as by hand (no retry, no limit). */
	char rendezvous[CXD_HOST_LEN];
	uint32_t connect_wait_ms;
};
#define CXD_GIVEN_BIND (1u << 0)
#define CXD_GIVEN_MAX_MEM (1u << 1)
#define CXD_GIVEN_ITERS (1u << 2)
#define CXD_GIVEN_HEALTH (1u << 3) /* cxi_sweep --health */
#define CXD_GIVEN_PORT (1u << 4)

/* The run: the client's values win, the server copies them. */
struct cxd_run_opts {
	uint64_t iters;
	uint64_t duration_s;
	uint64_t min_size, max_size;
	uint64_t list_size;
	uint64_t warmup;
	uint64_t latency_gap_us;
	uint64_t buf_sz, buf_align;
	uint32_t flags;     /* CXD_RUN_* */
	uint32_t hugepages; /* enum cxd_hugepage */
	uint32_t amo_op, cswap_op, amo_type;
	char provider[CXD_NAME_LEN]; /* the client's resolved choice */
	uint32_t tclass;    /* enum cxd_tclass (base/tclass.h); 0: default */
};

/* Where, when and how a run started: every JSON document carries it
 * (docs/json.md). Filled by main after parsing, not an option. */
struct cxd_stamp {
	char host[CXD_HOST_LEN];
	char start[32];	   /* ISO 8601, UTC: 2026-01-31T23:59:59Z */
	int argc;
	char *const *argv; /* main's, alive for the whole run */
};

struct cxd_out_opts {
	int format; /* enum cxd_format */
	char metrics[CXD_HOST_LEN]; /* pair tools' --metrics FILE; "" = none */
	struct cxd_stamp stamp;
};

/* --interval: windows a run may hold (kept in memory for JSON). */
#define CXD_MAX_WINDOWS 100000ULL

/* cxi_sweep's latency runs: bytes per write (not an option). */
#define CXD_SWEEP_LAT_SIZE 8

/* cxi_sweep only; defaults in the option table (lib/opts/opts_table.c). */
struct cxd_sweep_opts {
	char json[CXD_HOST_LEN]; /* "" = no JSON file */
	char csv[CXD_HOST_LEN];
	char matrix[CXD_HOST_LEN]; /* "" = none; binary, see sweep/matrix.h */
	char baseline[CXD_HOST_LEN]; /* "" = none; an earlier --json file */
	char topology[CXD_HOST_LEN]; /* "" = none */
	char suspects[CXD_HOST_LEN]; /* "" = no suspects file */
	char metrics[CXD_HOST_LEN];  /* "" = no OpenMetrics file */
	uint64_t bw_pct;    /* flag bandwidth below this % of the typical
			     * link; 0 = from the run's noise */
	uint64_t lat_pct;   /* flag latency above this %; 0 = from noise */
	uint64_t lat_iters; /* 8-byte writes timed per direction */
	uint64_t max_pairs; /* pairs measured at once; 0 = all of a round */
	uint64_t repeat;    /* measurements per direction of each link */
	double expect_bw;   /* MB/s floor per link; 0 = none */
	double expect_lat;  /* us ceiling per link; 0 = none */
	double budget_s;    /* --budget: a covering plan's pairs within
			     * this many seconds; 0 = every pair */
	/* --congestion (tools/sweep/phases/congest_mpi.c, lib/sweep/congest/) */
	uint32_t cg_flags;     /* CXD_CG_* */
	uint32_t aggr_tclass;  /* aggressors' enum cxd_tclass; 0: --tclass */
	uint64_t seed;         /* random placement; 0: drawn and printed */
	char placement[16];    /* random, first, last, spread; "": random */
	char victims[16];      /* victims' share of the ranks, (0,1) */
	char engine[16];       /* --engine: fabric, mpi; "": the build's
				* first (tools/sweep/engine/engine_list.c) */
	uint32_t sw_flags;     /* CXD_SW_* */
};
#define CXD_SW_NO_CAPACITY (1u << 0) /* --no-capacity */
#define CXD_SW_PROGRESS (1u << 1)    /* --progress */
#define CXD_SW_NO_PROGRESS (1u << 2) /* --no-progress */
#define CXD_CG_ON (1u << 0)        /* --congestion */
#define CXD_CG_AGGR_ONLY (1u << 1) /* --aggressors-only */

struct cxd_cfg {
	int role; /* enum cxd_role */
	struct cxd_local_opts local;
	struct cxd_run_opts run;
	struct cxd_out_opts out;
	struct cxd_sweep_opts sweep;
};

static inline bool cxd_run_has(const struct cxd_run_opts *run, uint32_t flag)
{
	return (run->flags & flag) != 0;
}

#endif

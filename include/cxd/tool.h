/* The tool table: every diagnostic is one row; the shared core does the rest. */
#ifndef CXD_TOOL_H
#define CXD_TOOL_H

#include <stdint.h>

enum cxd_pattern { CXD_PAT_BW, CXD_PAT_LAT, CXD_PAT_LOOPBACK };
enum cxd_op_kind { CXD_OP_WRITE, CXD_OP_READ, CXD_OP_SEND, CXD_OP_ATOMIC };

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

struct cxd_tool_defaults {
	uint64_t iters;
	uint64_t list_size;
	uint64_t size;
};

struct cxd_tool {
	const char *name;       /* "cxi_write_bw" */
	const char *title;      /* "CXI RDMA Write Bandwidth Test" */
	enum cxd_pattern pattern;
	enum cxd_op_kind op;
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

#endif

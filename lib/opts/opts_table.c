/*
 * The option table: every option of every tool, once. Getopt strings,
 * parsing, range checks, -h and the man pages' OPTIONS are made from it.
 * Help tokens: {n} {ns} {N} the tool's noun, {max} the row's maximum; the
 * "(default: ...)" is added by opts_help.c from dflt.
 */
#include <limits.h>

#include "cxd/config.h"
#include "opts_priv.h"

#define CFG CXD_CFG_OFF
#define MAXD 31536000ULL /* one year of seconds */
#define MAX_ALIGN (1ULL << 30)
#define DV "" /* the default is the configured value */

const struct opt cxd_opt_table[] = {
	{ 'd', "device", "DEV", 0, 0, K_STR, CFG(local.device), 0, 0, 0,
	  "Invalid device name",
	  "Device to use; with providers other than cxi,\n"
	  "the libfabric domain (e.g. \"lo\", \"shm\")",
	  "the provider's first, \"cxi0\" on one NIC" },
	{ 'v', "svc-id", "SVC_ID", 0, 0, K_U32, CFG(local.svc_id), 1, INT_MAX,
	  0, "Invalid svc_id", "CXI service the endpoints belong to", DV },
	{ 'p', "port", "PORT", CXD_F_NET, 0, K_U32, CFG(local.port), 0, 65535,
	  0, "Invalid port",
	  "TCP port of the server's control connection", DV },
	{ 't', "tx-gpu", "GPU", CXD_F_GPU, 0, K_INT, CFG(local.tx_gpu), 0,
	  INT_MAX, 0, "Invalid src gpu device",
	  "Place the sending buffer on GPU number GPU", "no GPU" },
	{ 'r', "rx-gpu", "GPU", CXD_F_GPU, 0, K_INT, CFG(local.rx_gpu), 0,
	  INT_MAX, 0, "Invalid dest gpu device",
	  "Place the receiving buffer on GPU number GPU", "no GPU" },
	{ 'g', "gpu-type", "TYPE", CXD_F_GPU, 0, K_GPUTYPE, CFG(local.gpu_type),
	  0, 0, 0, "Invalid GPU type",
	  "Which vendor's GPU runtime to load: AMD,\n"
	  "NVIDIA or INTEL",
	  "the one whose device files this host has" },
	{ 'n', "iters", "ITERS", 0, CXD_F_LOOPBACK, K_U64, CFG(run.iters), 1,
	  UINT64_MAX, 0, "Invalid iteration count",
	  "How many timed iterations to do", DV },
	{ 'i', "iters", "ITERS", CXD_F_LOOPBACK, 0, K_U64, CFG(run.iters), 1,
	  UINT64_MAX, 0, "Invalid iteration count",
	  "How many timed iterations to do when -D is\n"
	  "not given", DV },
	{ 'n', "num-xfers", "XFERS", CXD_F_LOOPBACK, 0, K_U64,
	  CFG(run.list_size), 1, CXD_MAX_LIST_SIZE, 0,
	  "Invalid number of transfers",
	  "{N}s queued per iteration, all of them before\n"
	  "the first one is started", DV },
	{ 'D', "duration", "SEC", 0, 0, K_DURATION, CFG(run.duration_s), 1,
	  MAXD, 0, "Invalid duration",
	  "Stop after SEC seconds rather than after a\n"
	  "count of iterations", NULL },
	{ 0, "warmup", "WARMUP", CXD_F_LATOPTS, 0, K_U64, CFG(run.warmup), 0,
	  1000000000, 0, "Invalid warmup count",
	  "Untimed iterations done before timing starts", DV },
	{ 0, "latency-gap", "USEC", CXD_F_LATOPTS, 0, K_U64,
	  CFG(run.latency_gap_us), 0, 60000000, 0, "Invalid iteration gap",
	  "Pause between two iterations, in microseconds", DV },
	{ 's', "size", "MIN[:MAX]", CXD_F_RANGE, 0, K_SIZE, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid size",
	  "Bytes per {n}; MIN:MAX (two powers of 2, e.g.\n"
	  "\"1:8192\") runs each power of 2 from MIN to MAX;\n"
	  "at most {max}", DV },
	{ 's', "size", "SIZE", CXD_F_SWEEP, 0, K_SIZE1, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid transfer size",
	  "Bytes per write when measuring bandwidth", DV },
	{ 's', "size", "SIZE", CXD_F_LOOPBACK, 0, K_SIZE1, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid transfer size",
	  "Bytes per {n}, at most {max}", DV },
	{ 'l', "list-size", "SIZE", CXD_F_LIST, 0, K_U64, CFG(run.list_size),
	  1, CXD_MAX_LIST_SIZE, 0, "Invalid list size",
	  "{N}s posted per iteration: all are queued\n"
	  "before the first one is started", DV },
	{ 'A', "atomic-op", "OP", CXD_F_ATOMIC, 0, K_AMO_OP, CFG(run.amo_op),
	  0, 0, 0, "Invalid atomic operation",
	  "Operation applied at the target (see Atomic\n"
	  "Ops below)", DV },
	{ 'C', "cswap-op", "OP", CXD_F_ATOMIC, 0, K_CSWAP, CFG(run.cswap_op),
	  0, 0, 0, "Invalid CSWAP operation",
	  "Comparison made by CSWAP (see CSWAP Ops)", DV },
	{ 'T', "atomic-type", "TYPE", CXD_F_ATOMIC, 0, K_AMO_TYPE,
	  CFG(run.amo_type), 0, 0, 0, "Invalid atomic type",
	  "Operand type (see Atomic Types below)", DV },
	{ 'b', "bidirectional", NULL, CXD_F_BIDIR, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_BIDIR, NULL, "Send in both directions at the same time",
	  NULL },
	{ 'R', "rdzv", NULL, CXD_F_RDZV, 0, K_FLAG, 0, 0, 0, CXD_RUN_RDZV, NULL,
	  "Send through the rendezvous protocol", NULL },
	{ 0, "fetching", NULL, CXD_F_ATOMIC, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_FETCHING, NULL,
	  "Fetching form: each operation returns the\n"
	  "target's previous value", NULL },
	{ 0, "matching", NULL, CXD_F_ATOMIC, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_MATCHING, NULL,
	  "Expose the target buffer through a matching\n"
	  "list entry", NULL },
	{ 0, "unrestricted", NULL, CXD_F_UNRESTRICTED, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_UNRESTRICTED, NULL,
	  "Issue the {ns} as unrestricted operations", NULL },
	{ 0, "no-hrp", NULL, CXD_F_HRP, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_HRP,
	  NULL, "Turn High Rate Puts off (they serve sizes up\n"
	  "to 2048 bytes)", NULL },
	{ 0, "no-idc", NULL, CXD_F_IDC, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_IDC,
	  NULL, "Turn Immediate Data Cmds (IDC) off", NULL },
	{ 0, "no-ll", NULL, CXD_F_LL, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_LL, NULL,
	  "Turn low-latency command issue off", NULL },
	{ 0, "validate", NULL, 0, CXD_F_SWEEP, K_FLAG, 0, 0, 0, CXD_RUN_VALIDATE,
	  NULL,
	  "After each size, check every byte the target\n"
	  "received (reads: the initiator); atomic tools\n"
	  "always verify, and this makes a mismatch fail", NULL },
	{ 0, "report-all", NULL, CXD_F_LATOPTS, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_REPORT_ALL, NULL,
	  "Print each latency sample, not just the summary\n"
	  "(counted runs only: -D turns it off)", NULL },
	{ 0, "buf-sz", "SIZE", CXD_F_BUF, 0, K_U64, CFG(run.buf_sz), 1,
	  UINT64_MAX, 0, "Invalid buffer size",
	  "Largest TX/RDMA buffer in bytes; when size x\n"
	  "list_size is more, the {ns} share (overlap) it", DV },
	{ 0, "buf-align", "ALIGN", CXD_F_BUF, 0, K_U64, CFG(run.buf_align), 1,
	  MAX_ALIGN, 0, "Invalid buffer alignment",
	  "Each {n} starts at a multiple of ALIGN bytes", DV },
	/* The read_bw man page spells it with an underscore: accept both. */
	{ 0, "buf_align", "ALIGN", CXD_F_BUF, 0, K_U64, CFG(run.buf_align), 1,
	  MAX_ALIGN, 0, "Invalid buffer alignment", NULL, NULL },
	{ 0, "use-hp", "SIZE", CXD_F_HP, 0, K_HP, CFG(run.hugepages), 0, 0, 0,
	  "Invalid hugepage type",
	  "Back the buffers with huge pages of SIZE, \"2M\"\n"
	  "or \"1G\", where the system provides them", NULL },
	{ 0, "provider", "NAME", 0, 0, K_STR, CFG(local.provider), 0, 0, 0,
	  "Invalid provider name",
	  "libfabric provider: cxi, verbs, efa, tcp, shm...\n"
	  "(FI_PROVIDER is honoured)",
	  "cxi if present, else shm when both ends\n"
	  "are on this host, else tcp" },
	{ 0, "local", NULL, CXD_F_NET, 0, K_LOCAL, 0, 0, 0, 0, NULL,
	  "Run server and client in one command on this host", NULL },
	{ 0, "bind", "ADDR", CXD_F_NET, 0, K_STR, CFG(local.bind), 0, 0, 0,
	  "Invalid bind address",
	  "Server: listen on this address only", "all" },
	{ 0, "max-mem", "BYTES", CXD_F_NET, 0, K_U64, CFG(local.max_mem), 1,
	  UINT64_MAX, 0, "Invalid memory limit",
	  "Server: refuse runs whose buffers need more than\n"
	  "BYTES", "a quarter of physical memory" },
	{ 0, "timeout", "SEC", 0, 0, K_U32, CFG(local.timeout_s), 1, 3600, 0,
	  "Invalid timeout",
	  "Seconds of silence from the peer, or of no progress,\n"
	  "before the run is ended; each iteration is also\n"
	  "allowed 1 s per MB in flight", DV },
	{ 0, "json", NULL, 0, CXD_F_SWEEP, K_FORMAT, 0, 0, 0, CXD_FMT_JSON,
	  NULL, "Print the results as one JSON document", NULL },
	{ 0, "csv", NULL, 0, CXD_F_SWEEP, K_FORMAT, 0, 0, 0, CXD_FMT_CSV, NULL,
	  "Print the results as CSV", NULL },
	/* cxi_sweep: files written by rank 0 (val: the field's capacity). */
	{ 0, "json", "FILE", CXD_F_SWEEP, 0, K_STR, CFG(sweep.json), 0, 0,
	  CXD_HOST_LEN, "Invalid JSON file name",
	  "Write matrices, outliers and rounds as JSON to FILE", NULL },
	{ 0, "csv", "FILE", CXD_F_SWEEP, 0, K_STR, CFG(sweep.csv), 0, 0,
	  CXD_HOST_LEN, "Invalid CSV file name",
	  "Write one line per measured link as CSV to FILE", NULL },
	{ 0, "min-bw", "PCT", CXD_F_SWEEP, 0, K_U64, CFG(sweep.bw_pct), 1,
	  100, 0, "Invalid bandwidth threshold",
	  "Flag links whose bandwidth is below PCT % of\n"
	  "the median of all links", DV },
	{ 0, "max-lat", "PCT", CXD_F_SWEEP, 0, K_U64, CFG(sweep.lat_pct), 100,
	  1000000, 0, "Invalid latency threshold",
	  "Flag links whose latency is above PCT % of\n"
	  "the median of all links", DV },
	{ 0, "lat-iters", "ITERS", CXD_F_SWEEP, 0, K_U64,
	  CFG(sweep.lat_iters), 1, 1000000, 0, "Invalid latency iteration count",
	  "8-byte writes timed per link for latency", DV },
	{ 0, "max-pairs", "PAIRS", CXD_F_SWEEP, 0, K_U64, CFG(sweep.max_pairs),
	  1, 1000000, 0, "Invalid pair count",
	  "Measure at most PAIRS pairs at a time (1 = one\n"
	  "link at a time)", "all pairs of a round" },
	{ 'h', "help", NULL, 0, 0, K_HELP, 0, 0, 0, 0, NULL,
	  "List the options (this text) and exit", NULL },
	{ 'V', "version", NULL, 0, 0, K_VERSION, 0, 0, 0, 0, NULL,
	  "Print which version this is and exit", NULL },
};

#define NROWS (sizeof(cxd_opt_table) / sizeof(cxd_opt_table[0]))
_Static_assert(NROWS <= CXD_OPT_MAX, "raise CXD_OPT_MAX");
const unsigned cxd_opt_count = NROWS;

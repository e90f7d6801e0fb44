/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: every option of every tool, once. Getopt strings,
 * parsing, range checks, -h and the man pages' OPTIONS are made from it.
 * Help tokens: {n} {ns} {N} the tool's noun, {max} the row's maximum; the
 * "(default: ...)" is added by opts_help.c from dflt.
 *
 * A row names its switch with OPT(), what it sets with one of NUM, SIZE,
 * NAME, CHOICE or FLAG (or .kind alone for the rest), then the tools that
 * have it (.need/.deny feature bits), its error head, help and default.
 */
#include <limits.h>

#include "cxd/config.h"
#include "opts_priv.h"

#define MAXD 31536000ULL /* one year of seconds */
#define MAX_ALIGN (1ULL << 30)

/* -c/--name=ARG; c 0 for a long option only, ARG NULL for a switch. */
#define OPT(c, name, argname) .sname = (c), .lname = (name), .arg = (argname)
/* An integer field of struct cxd_cfg, from lo to hi. */
#define NUM(k, field, lo, hi) \
	.kind = (k), .off = CXD_CFG_OFF(field), .min = (lo), .max = (hi)
/* -s: run.min_size and run.max_size, each at most CXD_MAX_MSG_SIZE. */
#define SIZE(k) .kind = (k), .min = 1, .max = CXD_MAX_MSG_SIZE
/* A string field; .val gives its capacity when it is not CXD_NAME_LEN. */
#define NAME(field) .kind = K_STR, .off = CXD_CFG_OFF(field)
/* A decimal number (a double field) above 0, at most hi. */
#define REAL(field, hi) \
	.kind = K_REAL, .off = CXD_CFG_OFF(field), .min = 0, .max = (hi)
/* One of a list of names, stored as its index. */
#define CHOICE(k, field) .kind = (k), .off = CXD_CFG_OFF(field)
/* A run flag (CXD_RUN_*) set by the switch. */
#define FLAG(bit) .kind = K_FLAG, .val = (bit)
/* cxi_sweep's switches that set a bit of one of its flag fields. */
#define SWEEP_FLAG(field, bit)                                       \
	.kind = K_FLAG, .off = CXD_CFG_OFF(sweep.field), .val = (bit), \
	.need = CXD_F_SWEEP
/* cxi_sweep's whole numbers, and its short words (up to 15 bytes). */
#define SWEEP_NUM(field, lo, hi) \
	NUM(K_U64, sweep.field, lo, hi), .need = CXD_F_SWEEP
#define SWEEP_WORD(field) NAME(sweep.field), .val = 16, .need = CXD_F_SWEEP
/* A file cxi_sweep writes or reads: --NAME FILE, a path of up to
 * CXD_HOST_LEN; err heads the message for a bad one. */
#define SWEEP_FILE(name, field, err)                                  \
	OPT(0, name, "FILE"), NAME(sweep.field), .val = CXD_HOST_LEN, \
	.need = CXD_F_SWEEP, .what = (err)

/* The default, stated here only: cxd_cfg_defaults stores it, -h and the
 * man pages print it ("(default: v)"). */
#define DEFAULT(v) .has_init = true, .init = (uint64_t) (v), .dflt = ""
/* A stored default that stands for something said in words. */
#define DEFAULT_SAID(v, words) \
	.has_init = true, .init = (uint64_t) (v), .dflt = (words)
/* No stored default (0 or ""): what happens instead, in words. */
#define SAID(words) .dflt = (words)
/* The tool row's .def (lib/tools.c), printed as the value. */
#define PER_TOOL .dflt = ""

const struct opt cxd_opt_table[] = {
	{ OPT('d', "device", "DEV"), NAME(local.device),
	  .what = "Invalid device name",
	  .help = "Device to use; with providers other than cxi,\n"
		  "the libfabric domain (e.g. \"lo\", \"shm\")",
	  SAID("the provider's first, \"cxi0\" on one NIC") },
	{ OPT('v', "svc-id", "SVC_ID"), NUM(K_U32, local.svc_id, 1, INT_MAX),
	  .what = "Invalid svc_id",
	  .help = "CXI service the endpoints belong to", DEFAULT(1) },
	{ OPT('p', "port", "PORT"), NUM(K_U32, local.port, 0, 65535),
	  .need = CXD_F_NET, .what = "Invalid port",
	  .help = "TCP port of the server's control connection",
	  DEFAULT(49194) },
	{ OPT('t', "tx-gpu", "GPU"), NUM(K_INT, local.tx_gpu, 0, INT_MAX),
	  .need = CXD_F_GPU, .what = "Invalid src gpu device",
	  .help = "Place the sending buffer on GPU number GPU",
	  DEFAULT_SAID(-1, "no GPU") },
	{ OPT('r', "rx-gpu", "GPU"), NUM(K_INT, local.rx_gpu, 0, INT_MAX),
	  .need = CXD_F_GPU, .what = "Invalid dest gpu device",
	  .help = "Place the receiving buffer on GPU number GPU",
	  DEFAULT_SAID(-1, "no GPU") },
	{ OPT('g', "gpu-type", "TYPE"), CHOICE(K_GPUTYPE, local.gpu_type),
	  .need = CXD_F_GPU, .what = "Invalid GPU type",
	  .help = "Which vendor's GPU runtime to load: AMD,\n"
		  "NVIDIA or INTEL",
	  DEFAULT_SAID(CXD_GPU_NONE,
		       "the one whose device files this host has") },
	{ OPT('n', "iters", "ITERS"), NUM(K_U64, run.iters, 1, UINT64_MAX),
	  .deny = CXD_F_LOOPBACK, .what = "Invalid iteration count",
	  .help = "How many timed iterations to do", PER_TOOL },
	{ OPT('i', "iters", "ITERS"), NUM(K_U64, run.iters, 1, UINT64_MAX),
	  .need = CXD_F_LOOPBACK, .what = "Invalid iteration count",
	  .help = "How many timed iterations to do when -D is\n"
		  "not given",
	  PER_TOOL },
	{ OPT('n', "num-xfers", "XFERS"),
	  NUM(K_U64, run.list_size, 1, CXD_MAX_LIST_SIZE),
	  .need = CXD_F_LOOPBACK, .what = "Invalid number of transfers",
	  .help = "{N}s queued per iteration, all of them before\n"
		  "the first one is started",
	  PER_TOOL },
	{ OPT('D', "duration", "SEC"), NUM(K_DURATION, run.duration_s, 1, MAXD),
	  .what = "Invalid duration",
	  .help = "Stop after SEC seconds rather than after a\n"
		  "count of iterations" },
	{ OPT(0, "interval", "SEC"), NUM(K_U64, local.interval_s, 1, MAXD),
	  .deny = CXD_F_SWEEP, .what = "Invalid interval",
	  .help = "With -D: measure every SEC seconds as a window\n"
		  "of its own (rows on stderr, or \"windows\" in\n"
		  "JSON) and name the worst one",
	  SAID("no windows") },
	{ OPT(0, "warmup", "WARMUP"), NUM(K_U64, run.warmup, 0, 1000000000),
	  .need = CXD_F_LATOPTS, .what = "Invalid warmup count",
	  .help = "Untimed iterations done before timing starts",
	  DEFAULT(10) },
	{ OPT(0, "latency-gap", "USEC"),
	  NUM(K_U64, run.latency_gap_us, 0, 60000000),
	  .need = CXD_F_LATOPTS, .what = "Invalid iteration gap",
	  .help = "Pause between two iterations, in microseconds",
	  DEFAULT(1000) },
	{ OPT('s', "size", "MIN[:MAX]"), SIZE(K_SIZE),
	  .need = CXD_F_RANGE, .what = "Invalid size",
	  .help = "Bytes per {n}; MIN:MAX (two powers of 2, e.g.\n"
		  "\"1:8192\") runs each power of 2 from MIN to MAX;\n"
		  "at most {max}",
	  PER_TOOL },
	{ OPT('s', "size", "SIZE"), SIZE(K_SIZE1),
	  .need = CXD_F_SWEEP, .what = "Invalid transfer size",
	  .help = "Bytes per write when measuring bandwidth", PER_TOOL },
	{ OPT('s', "size", "SIZE"), SIZE(K_SIZE1),
	  .need = CXD_F_LOOPBACK, .what = "Invalid transfer size",
	  .help = "Bytes per {n}, at most {max}", PER_TOOL },
	{ OPT('l', "list-size", "SIZE"),
	  NUM(K_U64, run.list_size, 1, CXD_MAX_LIST_SIZE),
	  .need = CXD_F_LIST, .what = "Invalid list size",
	  .help = "{N}s posted per iteration: all are queued\n"
		  "before the first one is started",
	  PER_TOOL },
	{ OPT('A', "atomic-op", "OP"), CHOICE(K_AMO_OP, run.amo_op),
	  .need = CXD_F_ATOMIC, .what = "Invalid atomic operation",
	  .help = "Operation applied at the target (see Atomic\n"
		  "Ops below)",
	  DEFAULT(CXD_AMO_SUM) },
	{ OPT('C', "cswap-op", "OP"), CHOICE(K_CSWAP, run.cswap_op),
	  .need = CXD_F_ATOMIC, .what = "Invalid CSWAP operation",
	  .help = "Comparison made by CSWAP (see CSWAP Ops)",
	  DEFAULT(CXD_CSWAP_EQ) },
	{ OPT('T', "atomic-type", "TYPE"), CHOICE(K_AMO_TYPE, run.amo_type),
	  .need = CXD_F_ATOMIC, .what = "Invalid atomic type",
	  .help = "Operand type (see Atomic Types below)",
	  DEFAULT(CXD_T_UINT64) },
	{ OPT('b', "bidirectional", NULL), FLAG(CXD_RUN_BIDIR),
	  .need = CXD_F_BIDIR,
	  .help = "Send in both directions at the same time" },
	{ OPT('R', "rdzv", NULL), FLAG(CXD_RUN_RDZV), .need = CXD_F_RDZV,
	  .help = "Send through the rendezvous protocol" },
	{ OPT(0, "fetching", NULL), FLAG(CXD_RUN_FETCHING),
	  .need = CXD_F_ATOMIC,
	  .help = "Fetching form: each operation returns the\n"
		  "target's previous value" },
	{ OPT(0, "matching", NULL), FLAG(CXD_RUN_MATCHING),
	  .need = CXD_F_ATOMIC,
	  .help = "Expose the target buffer through a matching\n"
		  "list entry" },
	{ OPT(0, "unrestricted", NULL), FLAG(CXD_RUN_UNRESTRICTED),
	  .need = CXD_F_UNRESTRICTED,
	  .help = "Issue the {ns} as unrestricted operations" },
	{ OPT(0, "no-hrp", NULL), FLAG(CXD_RUN_NO_HRP), .need = CXD_F_HRP,
	  .help = "Turn High Rate Puts off (they serve sizes up\n"
		  "to 2048 bytes)" },
	{ OPT(0, "no-idc", NULL), FLAG(CXD_RUN_NO_IDC), .need = CXD_F_IDC,
	  .help = "Turn Immediate Data Cmds (IDC) off" },
	{ OPT(0, "no-ll", NULL), FLAG(CXD_RUN_NO_LL), .need = CXD_F_LL,
	  .help = "Turn low-latency command issue off" },
	{ OPT(0, "validate", NULL), FLAG(CXD_RUN_VALIDATE),
	  .deny = CXD_F_SWEEP,
	  .help = "After each size, check every byte the target\n"
		  "received (reads: the initiator); atomic tools\n"
		  "always verify, and this makes a mismatch fail" },
	{ OPT(0, "report-all", NULL), FLAG(CXD_RUN_REPORT_ALL),
	  .need = CXD_F_LATOPTS,
	  .help = "Print each latency sample, not just the summary\n"
		  "(counted runs only: -D turns it off)" },
	{ OPT(0, "buf-sz", "SIZE"), NUM(K_U64, run.buf_sz, 1, UINT64_MAX),
	  .need = CXD_F_BUF, .what = "Invalid buffer size",
	  .help = "Largest TX/RDMA buffer in bytes; when size x\n"
		  "list_size is more, the {ns} share (overlap) it",
	  DEFAULT(4294967296ULL) },
	{ OPT(0, "buf-align", "ALIGN"),
	  NUM(K_U64, run.buf_align, 1, MAX_ALIGN),
	  .need = CXD_F_BUF, .what = "Invalid buffer alignment",
	  .help = "Each {n} starts at a multiple of ALIGN bytes",
	  DEFAULT(64) },
	/* The read_bw man page spells it with an underscore: accept both
	 * (the row above states the default). */
	{ OPT(0, "buf_align", "ALIGN"),
	  NUM(K_U64, run.buf_align, 1, MAX_ALIGN),
	  .need = CXD_F_BUF, .what = "Invalid buffer alignment" },
	{ OPT(0, "use-hp", "SIZE"), CHOICE(K_HP, run.hugepages),
	  .need = CXD_F_HP, .what = "Invalid hugepage type",
	  .help = "Back the buffers with huge pages of SIZE, \"2M\"\n"
		  "or \"1G\", where the system provides them" },
	{ OPT(0, "provider", "NAME"), NAME(local.provider),
	  .what = "Invalid provider name",
	  .help = "libfabric provider: cxi, verbs, efa, tcp, shm...\n"
		  "(FI_PROVIDER is honoured)",
	  SAID("cxi if present, else shm when both ends\n"
	       "are on this host, else tcp") },
	{ OPT(0, "tclass", "NAME"), CHOICE(K_TCLASS, run.tclass),
	  .what = "Invalid traffic class",
	  .help = "libfabric traffic class of the endpoints:\n"
		  "low_latency, bulk_data, dedicated_access,\n"
		  "best_effort or scavenger (the summary says what\n"
		  "the provider does with it)",
	  SAID("none asked: the provider's") },
	{ OPT(0, "local", NULL), .kind = K_LOCAL, .need = CXD_F_NET,
	  .help = "Run server and client in one command on this host" },
	{ OPT(0, "bind", "ADDR"), NAME(local.bind), .need = CXD_F_NET,
	  .what = "Invalid bind address",
	  .help = "Server: listen on this address only", SAID("all") },
	{ OPT(0, "max-mem", "BYTES"), NUM(K_U64, local.max_mem, 1, UINT64_MAX),
	  .need = CXD_F_NET, .what = "Invalid memory limit",
	  .help = "Server: refuse runs whose buffers need more than\n"
		  "BYTES",
	  SAID("a quarter of physical memory") }, /* cxd_cfg_defaults works
						   * it out */
	{ OPT(0, "timeout", "SEC"), NUM(K_U32, local.timeout_s, 1, 3600),
	  .what = "Invalid timeout",
	  .help = "Seconds of silence from the peer, or of no progress,\n"
		  "before the run is ended; each iteration is also\n"
		  "allowed 1 s per MB in flight",
	  DEFAULT(5) },
	{ OPT(0, "json", NULL), .kind = K_FORMAT, .val = CXD_FMT_JSON,
	  .deny = CXD_F_SWEEP,
	  .help = "Print the results as one JSON document" },
	{ OPT(0, "csv", NULL), .kind = K_FORMAT, .val = CXD_FMT_CSV,
	  .deny = CXD_F_SWEEP, .help = "Print the results as CSV" },
	/* Site tooling (docs/site.md): Prometheus, launcher steps. */
	{ OPT(0, "metrics", "FILE"), NAME(out.metrics), .val = CXD_HOST_LEN,
	  .deny = CXD_F_SWEEP, .what = "Invalid metrics file name",
	  .help = "Also write each size's figures to FILE in\n"
		  "Prometheus text format (node_exporter's textfile\n"
		  "collector), replaced whole" },
	{ OPT(0, "rendezvous", "DIR"), NAME(local.rendezvous),
	  .val = CXD_HOST_LEN, .need = CXD_F_NET,
	  .what = "Invalid rendezvous directory",
	  .help = "In a launcher step (srun, mpirun): the server\n"
		  "writes its address to a file in DIR, a directory\n"
		  "both nodes see, and the client reads it there",
	  SAID("Slurm: the step's first node; mpirun: one node only") },
	/* cxi_sweep: files written by rank 0 (val: the field's capacity). */
	{ SWEEP_FILE("json", json, "Invalid JSON file name"),
	  .help = "Write matrices, outliers and rounds as JSON to FILE" },
	{ SWEEP_FILE("csv", csv, "Invalid CSV file name"),
	  .help = "Write one line per measured link as CSV to FILE" },
	{ SWEEP_FILE("matrix", matrix, "Invalid matrix file name"),
	  .help = "Write every link's bandwidth and latency to FILE\n"
		  "in binary, each rank its own rows (MPI-IO): every\n"
		  "link at any scale; cxi_plot and --baseline read it" },
	{ OPT(0, "min-bw", "PCT"), SWEEP_NUM(bw_pct, 1, 100),
	  .what = "Invalid bandwidth threshold",
	  .help = "Flag links whose bandwidth is below PCT % of\n"
		  "the typical link",
	  SAID("from the run's noise, at least 10 % below") },
	{ OPT(0, "max-lat", "PCT"), SWEEP_NUM(lat_pct, 100, 1000000),
	  .what = "Invalid latency threshold",
	  .help = "Flag links whose latency is above PCT % of\n"
		  "the typical link",
	  SAID("from the run's noise, at least 100 % above") },
	{ OPT(0, "repeat", "COUNT"), SWEEP_NUM(repeat, 2, 100),
	  .what = "Invalid repeat count",
	  .help = "Measure each direction of each link COUNT times:\n"
		  "the median is its figure, the spread the noise",
	  DEFAULT(3) },
	/* Gates: cxi_sweep judges each link by them, a pair tool each size
	 * it prints (lib/report/gate.c); both exit 3 on a miss. */
	{ OPT(0, "expect-bw", "MB_S"), REAL(sweep.expect_bw, 1000000000),
	  .need = CXD_F_GATE_BW, .what = "Invalid expected bandwidth",
	  .elsewhere = "it bounds bandwidth; a latency tool takes "
		       "--expect-lat US",
	  .help = "Fail (exit 3) where bandwidth is below MB_S MB/s:\n"
		  "any size printed, or with cxi_sweep any link",
	  SAID("none") },
	{ OPT(0, "expect-lat", "US"), REAL(sweep.expect_lat, 1000000000),
	  .need = CXD_F_GATE_LAT, .what = "Invalid expected latency",
	  .elsewhere = "it bounds latency; a bandwidth tool takes "
		       "--expect-bw MB_S",
	  .help = "Fail (exit 3) where the median latency is above\n"
		  "US microseconds: any size printed, or with\n"
		  "cxi_sweep any link",
	  SAID("none") },
	{ SWEEP_FILE("baseline", baseline, "Invalid baseline file name"),
	  .help = "Judge each link against its figure in FILE, an\n"
		  "earlier run's --json or --matrix output" },
	{ SWEEP_FILE("topology", topology, "Invalid topology file name"),
	  .help = "Read each host's switch and group from FILE\n"
		  "(lines: NAME SWITCH [GROUP]) to name a bad\n"
		  "switch or group" },
	/* cxi_sweep --budget (tools/sweep/phases/budget_mpi.c). */
	{ OPT(0, "budget", "SECONDS"), REAL(sweep.budget_s, MAXD),
	  .need = CXD_F_SWEEP, .what = "Invalid time budget",
	  .help = "Measure only a covering plan's pairs, chosen from\n"
		  "the link lines of --topology so that every NIC,\n"
		  "link, bundle and switch is crossed by two of them,\n"
		  "and say so before measuring (exit 2) if the plan's\n"
		  "estimate exceeds SECONDS; without link lines, ring\n"
		  "shifts that name NICs only",
	  SAID("none: every pair is measured") },
	{ SWEEP_FILE("suspects", suspects, "Invalid suspects file name"),
	  .help = "Write the suspect hosts to FILE, one per line" },
	{ SWEEP_FILE("metrics", metrics, "Invalid metrics file name"),
	  .help = "Write per-link figures, suspects and the verdict\n"
		  "to FILE in OpenMetrics text (Prometheus)" },
	{ OPT(0, "lat-iters", "ITERS"), SWEEP_NUM(lat_iters, 1, 1000000),
	  .what = "Invalid latency iteration count",
	  .help = "8-byte writes timed per link for latency", DEFAULT(100) },
	{ OPT(0, "max-pairs", "PAIRS"), SWEEP_NUM(max_pairs, 1, 1000000),
	  .what = "Invalid pair count",
	  .help = "Measure at most PAIRS pairs at a time (1 = one\n"
		  "link at a time)",
	  SAID("all pairs of a round") },
	{ OPT(0, "engine", "NAME"), SWEEP_WORD(engine),
	  .what = "Invalid engine",
	  .help = "What measures a pair: fabric (a libfabric\n"
		  "endpoint, as the pair tools) or mpi (MPI\n"
		  "point-to-point, as mpiGraph; the simulated build's\n"
		  "only engine)",
	  SAID("fabric; mpi in the simulated build") },
	{ OPT(0, "health", NULL), .kind = K_GIVEN, .val = CXD_GIVEN_HEALTH,
	  .need = CXD_F_SWEEP,
	  .help = "Only check every rank's NIC (link, speed, PCIe,\n"
		  "error counters) and name the hosts that are down,\n"
		  "degraded or erroring; no traffic is sent" },
	{ OPT(0, "no-capacity", NULL), SWEEP_FLAG(sw_flags, CXD_SW_NO_CAPACITY),
	  .help = "Skip the capacity pass: each bundle, switch\n"
		  "connection and leaf's uplinks that the topology\n"
		  "names, loaded with more pairs than its width to\n"
		  "find links down behind the redundancy",
	  SAID("run where --topology names groups or switches") },
	/* Rank 0's progress line (tools/sweep/phases/progress_tty_real.c). */
	{ OPT(0, "progress", NULL), SWEEP_FLAG(sw_flags, CXD_SW_PROGRESS),
	  .help = "Show the progress line (phase, round, time\n"
		  "left) on rank 0's stderr even where that is not\n"
		  "a terminal, as when a launcher forwards it to one",
	  SAID("after 2 s on a terminal: rank 0's stderr, or\n"
	       "mpirun's on rank 0's host; none with --json") },
	{ OPT(0, "no-progress", NULL),
	  SWEEP_FLAG(sw_flags, CXD_SW_NO_PROGRESS),
	  .help = "Never show the progress line" },
	/* cxi_sweep --congestion (tools/sweep/phases/congest_mpi.c). */
	{ OPT(0, "congestion", NULL), SWEEP_FLAG(cg_flags, CXD_CG_ON),
	  .help = "Congestion impact instead of the all-pairs sweep:\n"
		  "victim pairs measured alone, then under each\n"
		  "aggressor pattern (incast, all-to-all, read\n"
		  "broadcast); impact = loaded / isolated" },
	{ OPT(0, "aggressors-only", NULL),
	  SWEEP_FLAG(cg_flags, CXD_CG_AGGR_ONLY),
	  .help = "Every rank an aggressor: run each pattern for -D\n"
		  "seconds, for victims measured by other means" },
	{ OPT(0, "victims", "FRAC"), SWEEP_WORD(victims),
	  .what = "Invalid victim fraction",
	  .help = "--congestion: share of the ranks that are\n"
		  "victims, above 0 and below 1",
	  SAID("0.2") },
	{ OPT(0, "placement", "HOW"), SWEEP_WORD(placement),
	  .what = "Invalid placement",
	  .help = "--congestion: which ranks are victims: random,\n"
		  "first, last or spread (every k-th rank)",
	  SAID("random, its seed printed") },
	{ OPT(0, "seed", "SEED"), SWEEP_NUM(seed, 1, UINT64_MAX),
	  .what = "Invalid seed",
	  .help = "--congestion: seed of the random placement, to\n"
		  "repeat an earlier split",
	  SAID("drawn from the clock") },
	{ OPT(0, "aggressor-tclass", "NAME"),
	  CHOICE(K_TCLASS, sweep.aggr_tclass), .need = CXD_F_SWEEP,
	  .what = "Invalid traffic class",
	  .help = "--congestion: the aggressors' traffic class\n"
		  "(names as --tclass)",
	  SAID("the class of --tclass") },
	/* cxi_node_health (lib/node_health.c). */
	{ OPT('d', "device", "NICS"), NAME(local.device), .need = CXD_F_NODE,
	  .what = "Invalid NIC list",
	  .help = "Check only these NICs (names as in /sys/class/cxi,\n"
		  "infiniband or net, comma-separated); one that is\n"
		  "not there fails the check",
	  SAID("every NIC: each cxi and InfiniBand device,\n"
	       "and each netdev backed by a device") },
	{ OPT(0, "interval", "SEC"), NUM(K_U64, local.interval_s, 1, 600),
	  .need = CXD_F_NODE, .what = "Invalid interval",
	  .help = "Seconds between the two reads of the error\n"
		  "counters and link flaps",
	  SAID("2") },
	{ OPT('h', "help", NULL), .kind = K_HELP,
	  .help = "List the options (this text) and exit" },
	{ OPT('V', "version", NULL), .kind = K_VERSION,
	  .help = "Print which version this is and exit" },
};

#define NROWS (sizeof(cxd_opt_table) / sizeof(cxd_opt_table[0]))
_Static_assert(NROWS <= CXD_OPT_MAX, "raise CXD_OPT_MAX");
const unsigned cxd_opt_count = NROWS;

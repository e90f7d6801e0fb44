/* The option table: getopt strings, --help and value checks are made from it. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cxd/amo.h"
#include "cxd/opts.h"

enum opt_kind {
	K_U64, K_U32, K_INT, K_FLAG, K_STR, K_SIZE, K_SIZE1, K_DURATION,
	K_HP, K_GPUTYPE, K_AMO_OP, K_CSWAP, K_AMO_TYPE, K_FORMAT, K_LOCAL,
	K_HELP, K_VERSION
};

struct opt {
	int sname;           /* short letter, 0 for long only */
	const char *lname;
	const char *arg;     /* value name, NULL for a switch */
	unsigned need, deny; /* tool feature bits required / excluded */
	enum opt_kind kind;
	size_t off;          /* field in struct cxd_cfg */
	uint64_t min, max;
	uint32_t val;        /* run flag bit or format */
	const char *what;    /* head of the error message */
	const char *help;    /* NULL: hidden alias; {n} {ns} {N} {iters}... */
};

#define CFG(f) offsetof(struct cxd_cfg, f)
#define MAXD 31536000ULL /* one year of seconds */

static const struct opt opts[] = {
	{ 'd', "device", "DEV", 0, 0, K_STR, CFG(local.device), 0, 0, 0,
	  "Invalid device name",
	  "Device name (default: \"cxi0\"); on other providers\n"
	  "the libfabric domain, e.g. \"lo\" or \"shm\"" },
	{ 'v', "svc-id", "SVC_ID", 0, 0, K_U32, CFG(local.svc_id), 1, INT_MAX,
	  0, "Invalid svc_id", "Service ID (default: 1)" },
	{ 'p', "port", "PORT", CXD_F_NET, 0, K_U32, CFG(local.port), 0, 65535,
	  0, "Invalid port",
	  "The port to listen on/connect to (default: 49194)" },
	{ 't', "tx-gpu", "GPU", CXD_F_GPU, 0, K_INT, CFG(local.tx_gpu), 0,
	  INT_MAX, 0, "Invalid src gpu device",
	  "GPU index for allocating TX buf (default: no GPU)" },
	{ 'r', "rx-gpu", "GPU", CXD_F_GPU, 0, K_INT, CFG(local.rx_gpu), 0,
	  INT_MAX, 0, "Invalid dest gpu device",
	  "GPU index for allocating RX buf (default: no GPU)" },
	{ 'g', "gpu-type", "TYPE", CXD_F_GPU, 0, K_GPUTYPE, CFG(local.gpu_type),
	  0, 0, 0, "Invalid GPU type",
	  "GPU type (AMD or NVIDIA or INTEL) (default type determined\n"
	  "by discovered GPU files on system)" },
	{ 'n', "iters", "ITERS", 0, CXD_F_LOOPBACK, K_U64, CFG(run.iters), 1,
	  UINT64_MAX, 0, "Invalid iteration count",
	  "Number of iterations to run (default: {iters})" },
	{ 'i', "iters", "ITERS", CXD_F_LOOPBACK, 0, K_U64, CFG(run.iters), 1,
	  UINT64_MAX, 0, "Invalid iteration count",
	  "Number of iterations to run if duration not\n"
	  "specified (default: {iters})" },
	{ 'n', "num-xfers", "XFERS", CXD_F_LOOPBACK, 0, K_U64,
	  CFG(run.list_size), 1, CXD_MAX_LIST_SIZE, 0,
	  "Invalid number of transfers",
	  "Number of transfers per iteration, all pushed to\n"
	  "the Tx CQ prior to initiating xfer (default: {list})" },
	{ 'D', "duration", "SEC", 0, 0, K_DURATION, CFG(run.duration_s), 1,
	  MAXD, 0, "Invalid duration",
	  "Run for the specified number of seconds" },
	{ 0, "warmup", "WARMUP", CXD_F_LATOPTS, 0, K_U64, CFG(run.warmup), 0,
	  1000000000, 0, "Invalid warmup count",
	  "Number of warmup iterations to run (default: 10)" },
	{ 0, "latency-gap", "USEC", CXD_F_LATOPTS, 0, K_U64,
	  CFG(run.latency_gap_us), 0, 60000000, 0, "Invalid iteration gap",
	  "Number of microseconds to wait between each\n"
	  "iteration (default: 1000)" },
	{ 's', "size", "MIN[:MAX]", CXD_F_RANGE, 0, K_SIZE, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid size",
	  "{N} size or range to use (default: {size})\n"
	  "Ranges must be powers of 2 (e.g. \"1:8192\")\n"
	  "The maximum size is 4294967295" },
	{ 's', "size", "SIZE", CXD_F_SWEEP, 0, K_SIZE1, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid transfer size",
	  "Bandwidth transfer size in bytes (default: {size})" },
	{ 's', "size", "SIZE", CXD_F_LOOPBACK, 0, K_SIZE1, 0, 1,
	  CXD_MAX_MSG_SIZE, 0, "Invalid transfer size",
	  "Transfer Size in Bytes (default: {size})\n"
	  "The maximum size is 4294967295 bytes" },
	{ 'l', "list-size", "SIZE", CXD_F_LIST, 0, K_U64, CFG(run.list_size),
	  1, CXD_MAX_LIST_SIZE, 0, "Invalid list size",
	  "Number of {ns} per iteration, all pushed to\n"
	  "the Tx CQ prior to initiating xfer (default: {list})" },
	{ 'A', "atomic-op", "OP", CXD_F_ATOMIC, 0, K_AMO_OP, CFG(run.amo_op),
	  0, 0, 0, "Invalid atomic operation",
	  "The atomic operation to use (default: SUM)" },
	{ 'C', "cswap-op", "OP", CXD_F_ATOMIC, 0, K_CSWAP, CFG(run.cswap_op),
	  0, 0, 0, "Invalid CSWAP operation",
	  "The CSWAP operation to use (default: EQ)" },
	{ 'T', "atomic-type", "TYPE", CXD_F_ATOMIC, 0, K_AMO_TYPE,
	  CFG(run.amo_type), 0, 0, 0, "Invalid atomic type",
	  "The atomic type to use (default: UINT64)" },
	{ 'b', "bidirectional", NULL, CXD_F_BIDIR, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_BIDIR, NULL, "Measure bidirectional bandwidth" },
	{ 'R', "rdzv", NULL, CXD_F_RDZV, 0, K_FLAG, 0, 0, 0, CXD_RUN_RDZV, NULL,
	  "Use rendezvous PUTs" },
	{ 0, "fetching", NULL, CXD_F_ATOMIC, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_FETCHING, NULL, "Use fetching AMOs" },
	{ 0, "matching", NULL, CXD_F_ATOMIC, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_MATCHING, NULL, "Use matching list entries at the target" },
	{ 0, "unrestricted", NULL, CXD_F_UNRESTRICTED, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_UNRESTRICTED, NULL, "Use unrestricted {ns}" },
	{ 0, "no-hrp", NULL, CXD_F_HRP, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_HRP,
	  NULL, "Do not use High Rate Puts (sizes <= 2048 bytes)" },
	{ 0, "no-idc", NULL, CXD_F_IDC, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_IDC,
	  NULL, "Do not use Immediate Data Cmds" },
	{ 0, "no-ll", NULL, CXD_F_LL, 0, K_FLAG, 0, 0, 0, CXD_RUN_NO_LL, NULL,
	  "Do not use Low-Latency command issuing" },
	{ 0, "validate", NULL, 0, CXD_F_SWEEP, K_FLAG, 0, 0, 0, CXD_RUN_VALIDATE, NULL,
	  "After each size, check every byte the target\n"
	  "received (reads: the initiator); atomic tools\n"
	  "always verify, and this makes a mismatch fail" },
	{ 0, "report-all", NULL, CXD_F_LATOPTS, 0, K_FLAG, 0, 0, 0,
	  CXD_RUN_REPORT_ALL, NULL,
	  "Report all latency measurements individually\n"
	  "This option is ignored when using --duration" },
	{ 0, "buf-sz", "SIZE", CXD_F_BUF, 0, K_U64, CFG(run.buf_sz), 1,
	  UINT64_MAX, 0, "Invalid buffer size",
	  "The max TX/RDMA buffer size, specified in bytes\n"
	  "If (size * list_size) > buf_sz, {ns} will overlap\n"
	  "(default: 4294967296)" },
	{ 0, "buf-align", "ALIGN", CXD_F_BUF, 0, K_U64, CFG(run.buf_align), 1,
	  1ULL << 30, 0, "Invalid buffer alignment",
	  "Byte-alignment of {ns} in the buffer (default: 64)" },
	/* The read_bw man page spells it with an underscore: accept both. */
	{ 0, "buf_align", "ALIGN", CXD_F_BUF, 0, K_U64, CFG(run.buf_align), 1,
	  1ULL << 30, 0, "Invalid buffer alignment", NULL },
	{ 0, "use-hp", "SIZE", CXD_F_HP, 0, K_HP, CFG(run.hugepages), 0, 0, 0,
	  "Invalid hugepage type",
	  "Attempt to use huge pages when allocating\n"
	  "Size may be \"2M\" or \"1G\"" },
	{ 0, "provider", "NAME", 0, 0, K_STR, CFG(local.provider), 0, 0, 0,
	  "Invalid provider name",
	  "libfabric provider: cxi, verbs, efa, tcp, shm...\n"
	  "(default: cxi if present, else shm when both ends\n"
	  "are on this host, else tcp; FI_PROVIDER is honoured)" },
	{ 0, "local", NULL, CXD_F_NET, 0, K_LOCAL, 0, 0, 0, 0, NULL,
	  "Run server and client in one command on this host" },
	{ 0, "bind", "ADDR", CXD_F_NET, 0, K_STR, CFG(local.bind), 0, 0, 0,
	  "Invalid bind address",
	  "Server: listen on this address only (default: all)" },
	{ 0, "max-mem", "BYTES", CXD_F_NET, 0, K_U64, CFG(local.max_mem), 1,
	  UINT64_MAX, 0, "Invalid memory limit",
	  "Server: refuse runs whose buffers need more than\n"
	  "BYTES (default: a quarter of physical memory)" },
	{ 0, "timeout", "SEC", 0, 0, K_U32, CFG(local.timeout_s), 1, 3600, 0,
	  "Invalid timeout",
	  "Seconds of silence from the peer, or of no progress,\n"
	  "before the run is ended; each iteration is also\n"
	  "allowed 1 s per MB in flight (default: 5)" },
	{ 0, "json", NULL, 0, CXD_F_SWEEP, K_FORMAT, 0, 0, 0, CXD_FMT_JSON,
	  NULL, "Print the results as one JSON document" },
	{ 0, "csv", NULL, 0, CXD_F_SWEEP, K_FORMAT, 0, 0, 0, CXD_FMT_CSV, NULL,
	  "Print the results as CSV" },
	/* cxi_sweep: files written by rank 0 (val: the field's capacity). */
	{ 0, "json", "FILE", CXD_F_SWEEP, 0, K_STR, CFG(sweep.json), 0, 0,
	  CXD_HOST_LEN, "Invalid JSON file name",
	  "Write matrices, outliers and rounds as JSON to FILE" },
	{ 0, "csv", "FILE", CXD_F_SWEEP, 0, K_STR, CFG(sweep.csv), 0, 0,
	  CXD_HOST_LEN, "Invalid CSV file name",
	  "Write one line per measured link as CSV to FILE" },
	{ 0, "min-bw", "PCT", CXD_F_SWEEP, 0, K_U64, CFG(sweep.bw_pct), 1,
	  100, 0, "Invalid bandwidth threshold",
	  "Flag links whose bandwidth is below PCT % of\n"
	  "the median of all links (default: 50)" },
	{ 0, "max-lat", "PCT", CXD_F_SWEEP, 0, K_U64, CFG(sweep.lat_pct), 100,
	  1000000, 0, "Invalid latency threshold",
	  "Flag links whose latency is above PCT % of\n"
	  "the median of all links (default: 300)" },
	{ 0, "lat-iters", "ITERS", CXD_F_SWEEP, 0, K_U64,
	  CFG(sweep.lat_iters), 1, 1000000, 0, "Invalid latency iteration count",
	  "8-byte writes timed per link for latency\n"
	  "(default: 100)" },
	{ 0, "max-pairs", "PAIRS", CXD_F_SWEEP, 0, K_U64, CFG(sweep.max_pairs),
	  1, 1000000, 0, "Invalid pair count",
	  "Measure at most PAIRS pairs at a time (default:\n"
	  "all pairs of a round; 1 = one link at a time)" },
	{ 'h', "help", NULL, 0, 0, K_HELP, 0, 0, 0, 0, NULL,
	  "Print this help text and exit" },
	{ 'V', "version", NULL, 0, 0, K_VERSION, 0, 0, 0, 0, NULL,
	  "Print the version and exit" },
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static int enabled(const struct cxd_tool *tool, const struct opt *o)
{
	return (tool->features & o->need) == o->need &&
	       (tool->features & o->deny) == 0;
}

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void cxd_cfg_defaults(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	memset(cfg, 0, sizeof(*cfg));
	cfg->role = CXD_SERVER;
	cfg->local.port = CXD_DEFAULT_PORT;
	cfg->local.svc_id = 1;
	cfg->local.tx_gpu = -1;
	cfg->local.rx_gpu = -1;
	cfg->local.gpu_type = CXD_GPU_NONE;
	cfg->local.max_mem = (pages > 0 && psz > 0) ?
		(uint64_t) pages * (uint64_t) psz / 4 : (1ULL << 32);
	cfg->run.iters = tool->def.iters;
	cfg->run.list_size = tool->def.list_size;
	cfg->run.min_size = tool->def.size;
	cfg->run.max_size = tool->def.size;
	cfg->run.warmup = 10;
	cfg->run.latency_gap_us = 1000;
	cfg->local.timeout_s = CXD_DEFAULT_TIMEOUT_S;
	cfg->run.buf_sz = CXD_DEFAULT_BUF_SZ;
	cfg->run.buf_align = CXD_DEFAULT_BUF_ALIGN;
	cfg->run.amo_op = CXD_AMO_SUM;
	cfg->run.cswap_op = CXD_CSWAP_EQ;
	cfg->run.amo_type = CXD_T_UINT64;
	cfg->out.format = CXD_FMT_TEXT;
}

int cxd_parse_u64(const char *s, uint64_t *v_p)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts a sign and spaces; a count must be plain digits. */
	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	*v_p = v;
	return 0;
}

static int is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

int cxd_parse_size_range(const char *s, int allow_range, uint64_t *min_p,
			 uint64_t *max_p)
{
	char buf[64];
	char *colon;
	uint64_t lo, hi;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon != NULL) {
		if (!allow_range)
			return -EINVAL;
		*colon = '\0';
	}
	if (cxd_parse_u64(buf, &lo) != 0 || lo == 0 || lo > CXD_MAX_MSG_SIZE)
		return -EINVAL;
	hi = lo;
	if (colon != NULL &&
	    (cxd_parse_u64(colon + 1, &hi) != 0 || hi < lo ||
	     hi > CXD_MAX_MSG_SIZE))
		return -EINVAL;
	if (colon != NULL && hi != lo && (!is_pow2(lo) || !is_pow2(hi)))
		return -ERANGE;
	*min_p = lo;
	*max_p = hi;
	return 0;
}

static void opt_label(const struct opt *o, char *buf, size_t len)
{
	if (o->sname)
		snprintf(buf, len, "-%c/--%s", o->sname, o->lname);
	else
		snprintf(buf, len, "--%s", o->lname);
}

static int set_number(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		      char *err, size_t len)
{
	char label[48];
	uint64_t n;
	char *field = (char *) cfg + o->off;

	if (cxd_parse_u64(v, &n) != 0 || n < o->min || n > o->max) {
		opt_label(o, label, sizeof(label));
		return fail(err, len,
			    "%s: '%s' (%s takes an integer from %llu to %llu)",
			    o->what, v, label, (unsigned long long) o->min,
			    (unsigned long long) o->max);
	}
	if (o->kind == K_U64 || o->kind == K_DURATION)
		*(uint64_t *) (void *) field = n;
	else if (o->kind == K_U32)
		*(uint32_t *) (void *) field = (uint32_t) n;
	else
		*(int *) (void *) field = (int) n;
	if (o->kind == K_DURATION)
		cfg->run.flags |= CXD_RUN_DURATION;
	if (o->off == CFG(local.svc_id))
		cfg->local.svc_id_set = true;
	return 0;
}

static int set_size(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	int ret = cxd_parse_size_range(v, o->kind == K_SIZE, &cfg->run.min_size,
				       &cfg->run.max_size);

	if (ret == -ERANGE)
		return fail(err, len, "%s: '%s' (ranges must be powers of 2)",
			    o->what, v);
	if (ret != 0)
		return fail(err, len, "%s: '%s' (-s/--size takes %s from 1 to "
			    "4294967295)", o->what, v,
			    o->kind == K_SIZE ? "MIN[:MAX]" : "one size");
	return 0;
}

static int set_name(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	char label[48];
	size_t cap = o->val ? o->val :
		     o->off == CFG(local.bind) ? CXD_HOST_LEN : CXD_NAME_LEN;

	if (*v == '\0' || strlen(v) >= cap) {
		opt_label(o, label, sizeof(label));
		return fail(err, len, "%s: '%s' (%s takes 1 to %zu characters)",
			    o->what, v, label, cap - 1);
	}
	strcpy((char *) cfg + o->off, v);
	return 0;
}

static int set_enum(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		    char *err, size_t len)
{
	int idx = -1;
	const char *choices = "";

	switch (o->kind) {
	case K_HP:
		idx = strcmp(v, "2M") == 0 ? CXD_HP_2M :
		      strcmp(v, "1G") == 0 ? CXD_HP_1G : -1;
		choices = "2M or 1G";
		break;
	case K_GPUTYPE:
		idx = strcasecmp(v, "AMD") == 0 ? CXD_GPU_AMD :
		      strcasecmp(v, "NVIDIA") == 0 ? CXD_GPU_NVIDIA :
		      strcasecmp(v, "INTEL") == 0 ? CXD_GPU_INTEL : -1;
		choices = "AMD, NVIDIA or INTEL";
		break;
	case K_AMO_OP:
		idx = cxd_amo_op_parse(v);
		choices = "one of the Atomic Ops listed by --help";
		break;
	case K_CSWAP:
		idx = cxd_cswap_op_parse(v);
		choices = "EQ, NE, LE, LT, GE or GT";
		break;
	default:
		idx = cxd_amo_type_parse(v);
		choices = "one of the Atomic Types listed by --help";
		break;
	}
	if (idx < 0) {
		char label[48];

		opt_label(o, label, sizeof(label));
		return fail(err, len, "%s: '%s' (%s takes %s)", o->what, v,
			    label, choices);
	}
	if (o->kind == K_GPUTYPE)
		cfg->local.gpu_type = idx;
	else
		*(uint32_t *) (void *) ((char *) cfg + o->off) = (uint32_t) idx;
	return 0;
}

/* Apply one parsed option; returns 0, CXD_OPTS_HELP/VERSION or -EINVAL. */
static int apply(const struct opt *o, const char *v, struct cxd_cfg *cfg,
		 char *err, size_t len)
{
	switch (o->kind) {
	case K_U64: case K_U32: case K_INT: case K_DURATION:
		return set_number(o, v, cfg, err, len);
	case K_SIZE: case K_SIZE1:
		return set_size(o, v, cfg, err, len);
	case K_STR:
		return set_name(o, v, cfg, err, len);
	case K_FLAG:
		cfg->run.flags |= o->val;
		return 0;
	case K_FORMAT:
		if (cfg->out.format != CXD_FMT_TEXT &&
		    cfg->out.format != (int) o->val)
			return fail(err, len, "--json and --csv cannot be "
				    "combined: pick one output format");
		cfg->out.format = (int) o->val;
		return 0;
	case K_LOCAL:
		cfg->role = CXD_LOCAL;
		return 0;
	case K_HELP:
		return CXD_OPTS_HELP;
	case K_VERSION:
		return CXD_OPTS_VERSION;
	default:
		return set_enum(o, v, cfg, err, len);
	}
}

/* getopt tables for the options this tool has; ids index opts[]. */
struct getopt_tables {
	struct option longs[NOPTS + 1];
	char shorts[2 + 3 * NOPTS];
};

static void build_tables(const struct cxd_tool *tool, struct getopt_tables *g)
{
	unsigned nl = 0;
	size_t ns = 0;

	g->shorts[ns++] = ':'; /* report a missing value as ':' */
	for (unsigned i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];

		if (!enabled(tool, o))
			continue;
		g->longs[nl].name = o->lname;
		g->longs[nl].has_arg = o->arg ? required_argument : no_argument;
		g->longs[nl].flag = NULL;
		g->longs[nl].val = o->sname ? o->sname : 256 + (int) i;
		nl++;
		if (o->sname) {
			g->shorts[ns++] = (char) o->sname;
			if (o->arg)
				g->shorts[ns++] = ':';
		}
	}
	memset(&g->longs[nl], 0, sizeof(g->longs[nl]));
	g->shorts[ns] = '\0';
}

static const struct opt *find_opt(const struct cxd_tool *tool, int id)
{
	if (id >= 256)
		return &opts[id - 256];
	for (unsigned i = 0; i < NOPTS; i++)
		if (opts[i].sname == id && enabled(tool, &opts[i]))
			return &opts[i];
	return NULL;
}

static int bad_switch(int c, int idx, char **argv, char *err, size_t len)
{
	const char *word = argv[idx - 1];

	if (c == ':')
		return fail(err, len, "option '%s' needs a value", word);
	if (optopt && strncmp(word, "--", 2) != 0)
		return fail(err, len, "unknown option '-%c' (see --help)", optopt);
	return fail(err, len, "unknown option '%s' (see --help)", word);
}

/* Options whose presence matters later (server-only ones, -n with -D). */
static unsigned given_bit(const struct opt *o)
{
	if (o->off == CFG(local.bind) && o->kind == K_STR)
		return CXD_GIVEN_BIND;
	if (o->off == CFG(local.max_mem))
		return CXD_GIVEN_MAX_MEM;
	if (o->off == CFG(run.iters))
		return CXD_GIVEN_ITERS;
	return 0;
}

static int parse_switches(const struct cxd_tool *tool, int argc, char **argv,
			  struct cxd_cfg *cfg, char *err, size_t len)
{
	struct getopt_tables g;
	int c, ret;

	build_tables(tool, &g);
	optind = 0; /* GNU: restart scanning, so parse can run again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const struct opt *o = (c == '?' || c == ':') ? NULL :
				      find_opt(tool, c);

		if (o == NULL)
			return bad_switch(c, optind, argv, err, len);
		ret = apply(o, optarg, cfg, err, len);
		if (ret != 0)
			return ret;
		cfg->local.given |= given_bit(o);
	}
	return 0;
}

static int parse_positionals(const struct cxd_tool *tool, int argc,
			     char **argv, struct cxd_cfg *cfg, char *err,
			     size_t len)
{
	for (int i = optind; i < argc; i++) {
		if (!cxd_tool_has(tool, CXD_F_NET) || cfg->role != CXD_SERVER)
			return fail(err, len, "Unexpected argument: '%s'",
				    argv[i]);
		if (*argv[i] == '\0' || strlen(argv[i]) >= CXD_HOST_LEN)
			return fail(err, len, "Invalid server address: '%s'",
				    argv[i]);
		strcpy(cfg->local.host, argv[i]);
		cfg->role = CXD_CLIENT;
	}
	if (cfg->role != CXD_SERVER && (cfg->local.given & CXD_GIVEN_BIND))
		return fail(err, len, "--bind is a server option: a client "
			    "(or --local, which listens on 127.0.0.1) does not "
			    "take it");
	if (cfg->role == CXD_CLIENT && (cfg->local.given & CXD_GIVEN_MAX_MEM))
		return fail(err, len, "--max-mem is a server option: give it "
			    "to the server, which refuses runs over its limit");
	if (cfg->role == CXD_CLIENT && cfg->local.port == 0)
		return fail(err, len, "Invalid port: '0' (a client needs the "
			    "server's port, 1 to 65535)");
	return 0;
}

int cxd_opts_parse(const struct cxd_tool *tool, int argc, char **argv,
		   struct cxd_cfg *cfg, char *err, size_t errlen)
{
	int ret;

	cxd_cfg_defaults(tool, cfg);
	ret = parse_switches(tool, argc, argv, cfg, err, errlen);
	if (ret != 0)
		return ret;
	if (cfg->role == CXD_LOCAL && optind < argc)
		return fail(err, errlen, "Unexpected argument: '%s' (--local "
			    "runs both sides on this host)", argv[optind]);
	ret = parse_positionals(tool, argc, argv, cfg, err, errlen);
	if (ret != 0)
		return ret;
	if (cxd_tool_has(tool, CXD_F_ATOMIC)) {
		cfg->run.min_size = cxd_amo_type_size(cfg->run.amo_type);
		cfg->run.max_size = cfg->run.min_size;
	}
	/* The originals keep every latency only in iteration mode. */
	if (cxd_run_has(&cfg->run, CXD_RUN_DURATION))
		cfg->run.flags &= ~CXD_RUN_REPORT_ALL;
	return cxd_run_validate(tool, &cfg->run, err, errlen);
}

static int check_sizes(const struct cxd_tool *tool,
		       const struct cxd_run_opts *run, char *err, size_t len)
{
	uint64_t lo = run->min_size, hi = run->max_size;

	if (lo == 0 || hi < lo || hi > CXD_MAX_MSG_SIZE)
		return fail(err, len, "Invalid size: %llu:%llu",
			    (unsigned long long) lo, (unsigned long long) hi);
	if (lo != hi && !cxd_tool_has(tool, CXD_F_RANGE))
		return fail(err, len, "Invalid size: %llu:%llu (%s takes one "
			    "size)", (unsigned long long) lo,
			    (unsigned long long) hi, tool->name);
	if (lo != hi && (!is_pow2(lo) || !is_pow2(hi)))
		return fail(err, len, "Invalid size: %llu:%llu (ranges must be "
			    "powers of 2)", (unsigned long long) lo,
			    (unsigned long long) hi);
	if (cxd_tool_has(tool, CXD_F_BUF) && run->buf_sz < hi)
		return fail(err, len, "Max RDMA buffer size (%llu) < max %s "
			    "size (%llu)!", (unsigned long long) run->buf_sz,
			    tool->noun_lower, (unsigned long long) hi);
	return 0;
}

static int check_atomic(const struct cxd_run_opts *run, char *err, size_t len)
{
	if (run->amo_op >= CXD_AMO_OP_COUNT ||
	    run->cswap_op >= CXD_CSWAP_OP_COUNT || run->amo_type >= CXD_T_COUNT)
		return fail(err, len, "Invalid atomic operation or type codes "
			    "%u/%u/%u", run->amo_op, run->cswap_op,
			    run->amo_type);
	if (!cxd_amo_valid(run->amo_op, run->cswap_op, run->amo_type))
		return fail(err, len, "Invalid Op and Type combination: %s%s%s "
			    "%s", cxd_amo_op_name(run->amo_op),
			    run->amo_op == CXD_AMO_CSWAP ? " " : "",
			    run->amo_op == CXD_AMO_CSWAP ?
			    cxd_cswap_op_name(run->cswap_op) : "",
			    cxd_amo_type_name(run->amo_type));
	if (run->min_size != cxd_amo_type_size(run->amo_type) ||
	    run->max_size != run->min_size)
		return fail(err, len, "Invalid size: %llu for atomic type %s",
			    (unsigned long long) run->min_size,
			    cxd_amo_type_name(run->amo_type));
	return 0;
}

int cxd_run_validate(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, char *err, size_t errlen)
{
	int ret;

	if (run->iters == 0)
		return fail(err, errlen, "Invalid iteration count: 0");
	if (cxd_run_has(run, CXD_RUN_DURATION) &&
	    (run->duration_s == 0 || run->duration_s > MAXD))
		return fail(err, errlen, "Invalid duration: %llu",
			    (unsigned long long) run->duration_s);
	if (run->list_size == 0 || run->list_size > CXD_MAX_LIST_SIZE)
		return fail(err, errlen, "Invalid list size: %llu",
			    (unsigned long long) run->list_size);
	if (run->buf_sz == 0 || run->buf_align == 0 ||
	    run->buf_align > (1ULL << 30))
		return fail(err, errlen, "Invalid buffer size or alignment: "
			    "%llu/%llu", (unsigned long long) run->buf_sz,
			    (unsigned long long) run->buf_align);
	if (run->warmup > 1000000000 || run->latency_gap_us > 60000000)
		return fail(err, errlen, "Invalid warmup count or iteration "
			    "gap: %llu/%llu", (unsigned long long) run->warmup,
			    (unsigned long long) run->latency_gap_us);
	if (run->hugepages > CXD_HP_1G || run->flags >= (CXD_RUN_VALIDATE << 1))
		return fail(err, errlen, "Invalid hugepage type or run flags");
	ret = check_sizes(tool, run, err, errlen);
	if (ret == 0 && cxd_tool_has(tool, CXD_F_ATOMIC))
		ret = check_atomic(run, err, errlen);
	return ret;
}

/* Expand {n} {ns} {N} {iters} {list} {size} in a help template. */
static void expand(const struct cxd_tool *tool, const char *tpl, char *out,
		   size_t len)
{
	size_t o = 0;

	while (*tpl && o + 1 < len) {
		char word[32] = "";
		const char *close = *tpl == '{' ? strchr(tpl, '}') : NULL;

		if (close == NULL) {
			out[o++] = *tpl++;
			continue;
		}
		if (strncmp(tpl, "{n}", 3) == 0)
			snprintf(word, sizeof(word), "%s", tool->noun_lower);
		else if (strncmp(tpl, "{ns}", 4) == 0)
			snprintf(word, sizeof(word), "%ss", tool->noun_lower);
		else if (strncmp(tpl, "{N}", 3) == 0)
			snprintf(word, sizeof(word), "%s", tool->noun);
		else if (strncmp(tpl, "{iters}", 7) == 0)
			snprintf(word, sizeof(word), "%llu",
				 (unsigned long long) tool->def.iters);
		else if (strncmp(tpl, "{list}", 6) == 0)
			snprintf(word, sizeof(word), "%llu",
				 (unsigned long long) tool->def.list_size);
		else
			snprintf(word, sizeof(word), "%llu",
				 (unsigned long long) tool->def.size);
		o += (size_t) snprintf(out + o, len - o, "%s", word);
		tpl = close + 1;
	}
	out[o < len ? o : len - 1] = '\0';
}

static int switch_text(const struct opt *o, char *buf, size_t len)
{
	return snprintf(buf, len, "  %c%c%c --%s%s%s", o->sname ? '-' : ' ',
			o->sname ? o->sname : ' ', o->sname ? ',' : ' ',
			o->lname, o->arg ? "=" : "", o->arg ? o->arg : "");
}

static void help_usage(const struct cxd_tool *tool, FILE *out, int pad)
{
	fprintf(out, "Usage:\n");
	if (!cxd_tool_has(tool, CXD_F_NET)) {
		fprintf(out, "  %s [OPTIONS]\n\n", tool->name);
		return;
	}
	fprintf(out, "  %s [-d DEV] [-p PORT]\n%*sStart a server and wait for "
		"connection\n", tool->name, pad, "");
	fprintf(out, "  %s ADDR [OPTIONS]\n%*sConnect to server with address "
		"ADDR\n", tool->name, pad, "");
	fprintf(out, "  %s --local [OPTIONS]\n%*sRun both sides on this host\n\n",
		tool->name, pad, "");
}

void cxd_opts_help(const struct cxd_tool *tool, FILE *out)
{
	char sw[64], text[512];
	int pad = 0;

	for (unsigned i = 0; i < NOPTS; i++)
		if (enabled(tool, &opts[i]) && opts[i].help) {
			int w = switch_text(&opts[i], sw, sizeof(sw)) + 2;

			pad = w > pad ? w : pad;
		}
	help_usage(tool, out, pad);
	fprintf(out, "Options:\n");
	for (unsigned i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];
		char *line, *save = NULL;
		int w;

		if (!enabled(tool, o) || o->help == NULL)
			continue;
		w = switch_text(o, sw, sizeof(sw));
		expand(tool, o->help, text, sizeof(text));
		line = strtok_r(text, "\n", &save);
		fprintf(out, "%s%*s%s\n", sw, pad - w, "", line);
		while ((line = strtok_r(NULL, "\n", &save)) != NULL)
			fprintf(out, "%*s%s\n", pad, "", line);
	}
	if (cxd_tool_has(tool, CXD_F_ATOMIC))
		fprintf(out, "\nAtomic Ops:\n  MIN, MAX, SUM, LOR, LAND, BOR, "
			"BAND, LXOR, BXOR, SWAP, CSWAP, AXOR\nCSWAP Ops:\n  "
			"EQ, NE, LE, LT, GE, GT\nAtomic Types:\n  INT8, UINT8, "
			"INT16, UINT16, INT32, UINT32, INT64, UINT64, FLOAT, "
			"DOUBLE,\n  FLOAT_COMPLEX, DOUBLE_COMPLEX, UINT128\n");
}

void cxd_opts_each(const struct cxd_tool *tool, cxd_opt_doc_fn fn, void *ctx)
{
	char text[512];

	for (unsigned i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];
		struct cxd_opt_doc d = { o->sname, o->lname, o->arg, text, 0,
					 o->min, o->max };

		if (!enabled(tool, o) || o->help == NULL)
			continue;
		d.numeric = o->kind == K_U64 || o->kind == K_U32 ||
			    o->kind == K_INT || o->kind == K_DURATION;
		expand(tool, o->help, text, sizeof(text));
		fn(&d, ctx);
	}
}

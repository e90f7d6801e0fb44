/* SPDX-License-Identifier: BSD-3-Clause */
/* The cross-field rules on run options. Ranges of single numbers are
 * the option table's (min, max), checked here as well so that a client's
 * options get the same rules as a command line. */
#include "base/amo.h"
#include "opt_value.h"

#define CFG CXD_CFG_OFF

/* The row whose name and limits stand for a field: the tool's own
 * option for it when it has one (-i or -n both set iters). */
static const struct opt *row_for(const struct cxd_tool *tool, size_t off)
{
	const struct opt *first = NULL;

	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];

		if (o->off != off || !cxd_opt_numeric(o))
			continue;
		if (cxd_opt_enabled(tool, o))
			return o;
		if (first == NULL)
			first = o;
	}
	return first;
}

/* Each numeric run field within its option's range. */
static int check_ranges(const struct cxd_tool *tool,
			const struct cxd_run_opts *run, char *err, size_t len)
{
	const size_t lo = CFG(run), hi = CFG(run) + sizeof(*run);
	struct cxd_cfg cfg;

	cfg.run = *run;
	for (unsigned i = 0; i < cxd_opt_count; i++) {
		const struct opt *o = &cxd_opt_table[i];
		uint64_t v;

		if (o->off < lo || o->off >= hi || row_for(tool, o->off) != o)
			continue;
		if (o->kind == K_DURATION &&
		    !cxd_run_has(run, CXD_RUN_DURATION))
			continue;
		v = cxd_opt_number(o, &cfg);
		if (v < o->min || v > o->max)
			return cxd_opt_fail(err, len, "%s: %llu", o->what,
					    (unsigned long long) v);
	}
	return 0;
}

static int check_sizes(const struct cxd_tool *tool,
		       const struct cxd_run_opts *run, char *err, size_t len)
{
	uint64_t lo = run->min_size, hi = run->max_size;

	if (lo == 0 || hi < lo || hi > CXD_MAX_MSG_SIZE)
		return cxd_opt_fail(err, len, "Invalid size: %llu:%llu",
				    (unsigned long long) lo,
				    (unsigned long long) hi);
	if (lo != hi && !cxd_tool_has(tool, CXD_F_RANGE))
		return cxd_opt_fail(err, len, "Invalid size: %llu:%llu (%s "
				    "takes one size)", (unsigned long long) lo,
				    (unsigned long long) hi, tool->name);
	if (lo != hi && (!cxd_is_pow2(lo) || !cxd_is_pow2(hi)))
		return cxd_opt_fail(err, len, "Invalid size: %llu:%llu (ranges "
				    "must be powers of 2)",
				    (unsigned long long) lo,
				    (unsigned long long) hi);
	if (cxd_tool_has(tool, CXD_F_BUF) && run->buf_sz < hi)
		return cxd_opt_fail(err, len, "Max RDMA buffer size (%llu) < "
				    "max %s size (%llu)!",
				    (unsigned long long) run->buf_sz,
				    tool->noun_lower, (unsigned long long) hi);
	return 0;
}

static int check_atomic(const struct cxd_run_opts *run, char *err, size_t len)
{
	if (run->amo_op >= CXD_AMO_OP_COUNT ||
	    run->cswap_op >= CXD_CSWAP_OP_COUNT || run->amo_type >= CXD_T_COUNT)
		return cxd_opt_fail(err, len, "Invalid atomic operation or type "
				    "codes %u/%u/%u", run->amo_op,
				    run->cswap_op, run->amo_type);
	if (!cxd_amo_valid(run->amo_op, run->cswap_op, run->amo_type))
		return cxd_opt_fail(err, len, "Invalid Op and Type combination: "
				    "%s%s%s %s", cxd_amo_op_name(run->amo_op),
				    run->amo_op == CXD_AMO_CSWAP ? " " : "",
				    run->amo_op == CXD_AMO_CSWAP ?
				    cxd_cswap_op_name(run->cswap_op) : "",
				    cxd_amo_type_name(run->amo_type));
	if (run->min_size != cxd_amo_type_size(run->amo_type) ||
	    run->max_size != run->min_size)
		return cxd_opt_fail(err, len, "Invalid size: %llu for atomic "
				    "type %s",
				    (unsigned long long) run->min_size,
				    cxd_amo_type_name(run->amo_type));
	return 0;
}

int cxd_run_validate(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, char *err, size_t errlen)
{
	int ret = check_ranges(tool, run, err, errlen);

	if (ret)
		return ret;
	if (run->hugepages > CXD_HP_1G || run->flags >= (CXD_RUN_VALIDATE << 1))
		return cxd_opt_fail(err, errlen,
				    "Invalid hugepage type or run flags");
	ret = check_sizes(tool, run, err, errlen);
	if (ret == 0 && cxd_tool_has(tool, CXD_F_ATOMIC))
		ret = check_atomic(run, err, errlen);
	return ret;
}

/* Windows need a duration to cut; the client (who runs the loop) cuts
 * them; their rows are kept, so their number is bounded. */
int cxd_opts_interval(const struct cxd_tool *tool, const struct cxd_cfg *cfg,
		      char *err, size_t len)
{
	uint64_t iv = cfg->local.interval_s, d = cfg->run.duration_s;

	/* The node check's --interval is the wait between its reads. */
	if (iv == 0 || cxd_tool_has(tool, CXD_F_NODE))
		return 0;
	if (cfg->role == CXD_SERVER && !cxd_tool_is(tool, CXD_TRAIT_LOOPBACK))
		return cxd_opt_fail(err, len, "Invalid interval: "
				    "--interval %llu "
				    "is a client option (the client times "
				    "the run)", (unsigned long long) iv);
	if (!cxd_run_has(&cfg->run, CXD_RUN_DURATION))
		return cxd_opt_fail(err, len, "Invalid interval: "
				    "--interval %llu "
				    "needs a duration run (-D SEC)",
				    (unsigned long long) iv);
	if (iv > d)
		return cxd_opt_fail(err, len, "Invalid interval: "
				    "--interval %llu "
				    "is longer than the run (-D %llu)",
				    (unsigned long long) iv,
				    (unsigned long long) d);
	if (d / iv > CXD_MAX_WINDOWS)
		return cxd_opt_fail(err, len, "Invalid interval: "
				    "--interval %llu "
				    "cuts -D %llu into more than %llu windows",
				    (unsigned long long) iv,
				    (unsigned long long) d, CXD_MAX_WINDOWS);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Atomics: the post hooks of cxi_atomic_bw and cxi_atomic_lat, and the
 * check afterwards that every target word holds what the AMOs must have
 * left there.
 *
 * Layout, as the originals: list slot i targets its own 64-byte word at
 * remote offset 64*i. Its operands live at tx + 64*i (op1 at +0, the
 * compare value or mask at +32); fetched results at tx + 64*list_size +
 * 64*i (--fetching doubles tx). libfabric's compare atomics always return
 * the old value, so without --fetching they land in the slot at +48.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_errno.h>

#include "base/amo.h"
#include "base/amo_sim.h"
#include "session/post.h"
#include "session/session.h"
#include "ops.h"

#define SLOT 64        /* bytes per list slot, local and remote */
#define CMP_OFF 32     /* compare value or mask within a slot */
#define SCRATCH_OFF 48 /* old value of a non-fetching compare atomic */
#define SETTLE_NS 200000000ULL /* a late target update gets this long */

enum amo_kind { KIND_BASE, KIND_FETCH, KIND_COMPARE };

struct amo_state {
	struct cxd_amo_sim sim;     /* operands of the next iteration */
	union cxd_amo_word target0; /* every target word's initial value */
	enum fi_datatype dt;
	enum fi_op fop;
	enum amo_kind kind;
	size_t size;      /* bytes of the type */
	uint64_t slots;   /* list slots in use: list_size (bw) or 1 (lat) */
	uint64_t res_off; /* offset of the fetched results in tx */
	uint64_t iters;   /* iterations done: AMOs each used slot received */
	/* Prepared per size (a sweep changes the peer between pairs): each
	 * post sets the addresses and calls the provider. */
	struct fi_msg_atomic msg;
	struct fi_ioc ioc, cmp, res;
	struct fi_rma_ioc rma;
	void *desc[3];
	uint64_t rbase;
};

static struct amo_state *st(struct cxd_sess *s)
{
	return s->op_state;
}

static const enum fi_op op_map[CXD_AMO_OP_COUNT] = {
	[CXD_AMO_MIN] = FI_MIN,   [CXD_AMO_MAX] = FI_MAX,
	[CXD_AMO_SUM] = FI_SUM,   [CXD_AMO_LOR] = FI_LOR,
	[CXD_AMO_LAND] = FI_LAND, [CXD_AMO_BOR] = FI_BOR,
	[CXD_AMO_BAND] = FI_BAND, [CXD_AMO_LXOR] = FI_LXOR,
	[CXD_AMO_BXOR] = FI_BXOR, [CXD_AMO_SWAP] = FI_ATOMIC_WRITE,
	[CXD_AMO_CSWAP] = FI_CSWAP, [CXD_AMO_AXOR] = FI_MSWAP,
};

static const enum fi_op cswap_map[CXD_CSWAP_OP_COUNT] = {
	[CXD_CSWAP_EQ] = FI_CSWAP,    [CXD_CSWAP_NE] = FI_CSWAP_NE,
	[CXD_CSWAP_LE] = FI_CSWAP_LE, [CXD_CSWAP_LT] = FI_CSWAP_LT,
	[CXD_CSWAP_GE] = FI_CSWAP_GE, [CXD_CSWAP_GT] = FI_CSWAP_GT,
};

static const enum fi_datatype type_map[CXD_T_COUNT] = {
	[CXD_T_INT8] = FI_INT8,     [CXD_T_UINT8] = FI_UINT8,
	[CXD_T_INT16] = FI_INT16,   [CXD_T_UINT16] = FI_UINT16,
	[CXD_T_INT32] = FI_INT32,   [CXD_T_UINT32] = FI_UINT32,
	[CXD_T_INT64] = FI_INT64,   [CXD_T_UINT64] = FI_UINT64,
	[CXD_T_FLOAT] = FI_FLOAT,   [CXD_T_DOUBLE] = FI_DOUBLE,
	[CXD_T_FLOAT_COMPLEX] = FI_FLOAT_COMPLEX,
	[CXD_T_DOUBLE_COMPLEX] = FI_DOUBLE_COMPLEX,
	[CXD_T_UINT128] = FI_UINT128,
};

static char *tx_at(struct cxd_sess *s, uint64_t off)
{
	return (char *) s->tx.ptr + off;
}

static uint64_t result_off(struct cxd_sess *s, uint64_t loff)
{
	return st(s)->kind == KIND_COMPARE &&
	       !cxd_run_has(s->run, CXD_RUN_FETCHING) ?
	       loff + SCRATCH_OFF : st(s)->res_off + loff;
}

/* Post hooks: loff is the slot's operand offset, roff its target word.
 * The msg forms take s->op_flags: FI_MORE within a list, and for
 * non-fetching AMOs FI_INJECT (IDC) and, for latency,
 * FI_DELIVERY_COMPLETE so the time runs to the target's acknowledgement.
 * A fetching or compare latency AMO needs no flags: the plain calls. */
static void aim(struct cxd_sess *s, struct amo_state *as, uint64_t loff,
		uint64_t roff)
{
	as->ioc.addr = tx_at(s, loff);
	as->rma.addr = as->rbase + roff;
}

static int post_base(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t roff)
{
	struct amo_state *as = st(s);

	(void) size;
	aim(s, as, loff, roff);
	return (int) fi_atomicmsg(s->fab->ep, &as->msg, s->op_flags);
}

static int post_fetch_msg(struct cxd_sess *s, uint64_t size, uint64_t loff,
			  uint64_t roff)
{
	struct amo_state *as = st(s);

	(void) size;
	aim(s, as, loff, roff);
	as->res.addr = tx_at(s, result_off(s, loff));
	return (int) fi_fetch_atomicmsg(s->fab->ep, &as->msg, &as->res,
					as->desc, 1, s->op_flags);
}

static int post_compare_msg(struct cxd_sess *s, uint64_t size, uint64_t loff,
			    uint64_t roff)
{
	struct amo_state *as = st(s);

	(void) size;
	aim(s, as, loff, roff);
	as->cmp.addr = tx_at(s, loff + CMP_OFF);
	as->res.addr = tx_at(s, result_off(s, loff));
	return (int) fi_compare_atomicmsg(s->fab->ep, &as->msg, &as->cmp,
					  as->desc, 1, &as->res, as->desc, 1,
					  s->op_flags);
}

static int post_fetch(struct cxd_sess *s, uint64_t size, uint64_t loff,
		      uint64_t roff)
{
	(void) size;
	return (int) fi_fetch_atomic(s->fab->ep, tx_at(s, loff), 1,
				     s->tx_mr.desc,
				     tx_at(s, result_off(s, loff)),
				     s->tx_mr.desc, s->fab->peer,
				     s->peer.rx_base + roff, s->peer.key,
				     st(s)->dt, st(s)->fop, NULL);
}

static int post_compare(struct cxd_sess *s, uint64_t size, uint64_t loff,
			uint64_t roff)
{
	(void) size;
	return (int) fi_compare_atomic(s->fab->ep, tx_at(s, loff), 1,
				       s->tx_mr.desc, tx_at(s, loff + CMP_OFF),
				       s->tx_mr.desc,
				       tx_at(s, result_off(s, loff)),
				       s->tx_mr.desc, s->fab->peer,
				       s->peer.rx_base + roff, s->peer.key,
				       st(s)->dt, st(s)->fop, NULL);
}

static void prepare(struct cxd_sess *s, struct amo_state *as)
{
	as->desc[0] = as->desc[1] = as->desc[2] = s->tx_mr.desc;
	as->ioc.count = as->cmp.count = as->res.count = 1;
	as->rma = (struct fi_rma_ioc) { .count = 1, .key = s->peer.key };
	as->rbase = s->peer.rx_base;
	as->msg = (struct fi_msg_atomic) {
		.msg_iov = &as->ioc, .desc = as->desc, .iov_count = 1,
		.addr = s->fab->peer, .rma_iov = &as->rma, .rma_iov_count = 1,
		.datatype = as->dt, .op = as->fop,
	};
}

static int atomic_post_for(struct cxd_sess *s, uint64_t size)
{
	struct amo_state *as = st(s);
	/* Never for fetching and compare AMOs: see cxd_ops_injects. */
	bool inject = cxd_ops_injects(s->ops, s->run, size,
				      s->fab->inject_size);
	/* A list takes FI_MORE: the msg forms; one AMO at a time needs
	 * flags only when it is non-fetching. */
	bool list = as->slots > 1;

	prepare(s, as);
	if (as->kind == KIND_COMPARE)
		s->post = list ? post_compare_msg : post_compare;
	else if (as->kind == KIND_FETCH)
		s->post = list ? post_fetch_msg : post_fetch;
	else
		s->post = post_base;
	/* Fetching and compare AMOs complete when the old value is back. */
	s->op_flags = inject ? FI_INJECT : 0;
	/* cxi: unreliable (restricted) and HRP; 0 elsewhere. The provider
	 * takes them only on non-fetching AMOs. */
	if (as->kind == KIND_BASE)
		s->op_flags |= s->cxi.amo_flags;
	s->last_flags = as->kind == KIND_BASE ? FI_DELIVERY_COMPLETE : 0;
	if (cxd_tool_is(s->tool, CXD_TRAIT_SAMPLES))
		s->op_flags |= s->last_flags;
	return 0;
}

/* The iteration's operands into one slot; AXOR's mask is ~op2. */
static void write_operands(struct cxd_sess *s, uint64_t loff)
{
	struct amo_state *as = st(s);
	unsigned char *cmp = (unsigned char *) tx_at(s, loff + CMP_OFF);

	memcpy(tx_at(s, loff), as->sim.op1.bytes, as->size);
	if (as->sim.op == CXD_AMO_AXOR) {
		for (size_t i = 0; i < as->size; i++)
			cmp[i] = (unsigned char) ~as->sim.op2.bytes[i];
	} else if (as->kind == KIND_COMPARE) {
		memcpy(cmp, as->sim.op2.bytes, as->size);
	}
}

/* One iteration: every slot's word receives one AMO, then completions. */
static int atomic_bw_iter(struct cxd_sess *s, uint64_t size)
{
	struct amo_state *as = st(s);
	int ret;

	for (uint64_t i = 0; i < s->run->list_size; i++)
		write_operands(s, i * SLOT);
	ret = cxd_post_list(s, size, s->run->list_size);
	if (ret)
		return ret;
	as->iters++;
	cxd_amo_sim_next(&as->sim);
	return 0;
}

/* Warmup AMOs hit the target too: every call counts as an iteration. */
static int atomic_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	struct amo_state *as = st(s);
	int ret;

	(void) last;
	write_operands(s, 0);
	ret = cxd_post_one(s, size);
	if (ret)
		return ret;
	as->iters++;
	cxd_amo_sim_next(&as->sim);
	return 0;
}

static int atomic_progress(struct cxd_sess *s)
{
	/* Reading the counter drives progress, which applies peers' AMOs. */
	(void) fi_cntr_read(s->fab->tx_cntr);
	return 0;
}

/* Does the provider do this op on this type, as the run posts it? */
static int query(struct cxd_sess *s, const struct amo_state *as)
{
	static const uint64_t qflags[] = {
		[KIND_BASE] = 0, [KIND_FETCH] = FI_FETCH_ATOMIC,
		[KIND_COMPARE] = FI_COMPARE_ATOMIC,
	};
	struct fi_atomic_attr attr = { 0 };
	size_t count = 0;
	int ret;

	ret = fi_query_atomic(s->fab->domain, as->dt, as->fop, &attr,
			      qflags[as->kind]);
	if (ret != -FI_ENOSYS)
		return ret ? ret : (attr.count < 1 || attr.size != as->size ?
				    -FI_EOPNOTSUPP : 0);
	/* No domain query: ask the endpoint instead. */
	if (as->kind == KIND_COMPARE)
		ret = fi_compare_atomicvalid(s->fab->ep, as->dt, as->fop,
					     &count);
	else if (as->kind == KIND_FETCH)
		ret = fi_fetch_atomicvalid(s->fab->ep, as->dt, as->fop, &count);
	else
		ret = fi_atomicvalid(s->fab->ep, as->dt, as->fop, &count);
	return ret ? ret : (count < 1 ? -FI_EOPNOTSUPP : 0);
}

static int check_support(struct cxd_sess *s, const struct amo_state *as)
{
	const struct cxd_run_opts *r = s->run;
	int ret = query(s, as);

	if (ret == 0)
		return 0;
	return cxd_sess_fail(s, -EOPNOTSUPP, "provider '%s' cannot do %s "
			     "%s%s%s on %s (libfabric says: %s)", r->provider,
			     cxd_run_has(r, CXD_RUN_FETCHING) ? "fetching" :
			     "non-fetching", cxd_amo_op_name(r->amo_op),
			     r->amo_op == CXD_AMO_CSWAP ? " " : "",
			     r->amo_op == CXD_AMO_CSWAP ?
			     cxd_cswap_op_name(r->cswap_op) : "",
			     cxd_amo_type_name(r->amo_type),
			     fi_strerror(ret < 0 ? -ret : ret));
}

static void plan(struct cxd_sess *s, struct amo_state *as)
{
	const struct cxd_run_opts *r = s->run;

	as->dt = type_map[r->amo_type];
	as->fop = r->amo_op == CXD_AMO_CSWAP ? cswap_map[r->cswap_op] :
					       op_map[r->amo_op];
	if (cxd_amo_compares(r->amo_op))
		as->kind = KIND_COMPARE;
	else
		as->kind = cxd_run_has(r, CXD_RUN_FETCHING) ? KIND_FETCH :
							      KIND_BASE;
	as->size = cxd_amo_type_size(r->amo_type);
	as->slots = cxd_tool_is(s->tool, CXD_TRAIT_LISTS) ? r->list_size : 1;
	as->res_off = SLOT * r->list_size;
	cxd_amo_sim_start(&as->sim, r->amo_op, r->cswap_op, r->amo_type,
			  &as->target0);
}

static int atomic_setup(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	struct amo_state *as;
	int ret;

	if (r->amo_op >= CXD_AMO_OP_COUNT || r->cswap_op >= CXD_CSWAP_OP_COUNT ||
	    r->amo_type >= CXD_T_COUNT)
		return cxd_sess_fail(s, -EINVAL, "unknown atomic operation or "
				     "type %u/%u/%u", r->amo_op, r->cswap_op,
				     r->amo_type);
	as = calloc(1, sizeof(*as));
	if (as == NULL)
		return cxd_sess_fail(s, -ENOMEM, "out of memory");
	s->op_state = as;
	plan(s, as);
	/* Both sides ask: the target applies the AMOs on these providers. */
	ret = check_support(s, as);
	if (ret)
		return ret;
	for (uint64_t i = 0; s->rx.ptr && i < r->list_size &&
			     (i + 1) * SLOT <= s->rx.len; i++)
		memcpy((char *) s->rx.ptr + i * SLOT, as->target0.bytes,
		       as->size);
	return 0;
}

/* Index of the first slot whose word differs from want, or -1. */
static int64_t first_bad(const void *base, uint64_t off, uint64_t slots,
			 unsigned type, const union cxd_amo_word *want)
{
	union cxd_amo_word got;
	size_t size = cxd_amo_type_size(type);

	for (uint64_t i = 0; i < slots; i++) {
		memset(&got, 0, sizeof(got));
		memcpy(got.bytes, (const char *) base + off + i * SLOT, size);
		if (!cxd_amo_word_eq(type, &got, want))
			return (int64_t) i;
	}
	return -1;
}

static void describe(struct cxd_sess *s, const char *what, int64_t slot,
		     uint64_t n)
{
	snprintf(s->err, sizeof(s->err), "atomic verification: %s of slot "
		 "%lld differs from the expected value after %llu iterations",
		 what, (long long) slot, (unsigned long long) n);
}

/* This side's target words after the peer's n iterations: 1 ok, 0 not. */
static uint32_t check_targets(struct cxd_sess *s, uint64_t n)
{
	const struct cxd_run_opts *r = s->run;
	struct amo_state *as = st(s);
	union cxd_amo_word want;
	uint64_t start = cxd_now_ns();
	int64_t bad;

	cxd_amo_sim_run(r->amo_op, r->cswap_op, r->amo_type, n, &want);
	/* Some providers complete an AMO before the target applied it:
	 * keep progressing a moment before calling a mismatch. */
	while ((bad = first_bad(s->rx.ptr, 0, as->slots, r->amo_type,
				&want)) >= 0 &&
	       cxd_now_ns() - start < SETTLE_NS)
		atomic_progress(s);
	if (bad < 0)
		return 1;
	describe(s, "the target word", bad, n);
	return 0;
}

/* The values the last iteration fetched: the target after iters - 1. */
static uint32_t check_fetched(struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	struct amo_state *as = st(s);
	union cxd_amo_word want;
	int64_t bad;

	cxd_amo_sim_run(r->amo_op, r->cswap_op, r->amo_type, as->iters - 1,
			&want);
	bad = first_bad(s->tx.ptr, result_off(s, 0), as->slots, r->amo_type,
			&want);
	if (bad < 0)
		return 1;
	describe(s, "the value fetched", bad, as->iters);
	return 0;
}

static int swap_counts(struct cxd_sess *s, uint64_t size, uint64_t count,
		       uint32_t status, struct cxd_result_msg *peer)
{
	struct cxd_result_msg m = { .size = size, .count = count,
				    .status = status };

	return cxd_sess_share(s, &m, peer);
}

/*
 * Verification: each side checks the words it hosts against the peer's
 * iteration count (status 1 ok, 0 mismatch, 2 nothing to check), then
 * the verdicts are swapped so both sides report the same outcome.
 */
static int atomic_finish(struct cxd_sess *s, struct cxd_result *res)
{
	struct amo_state *as = st(s);
	struct cxd_result_msg peer;
	uint32_t mine = 2;
	int ret;

	cxd_sess_enter(s, "the atomic verification");
	ret = swap_counts(s, res->size, s->active ? as->iters : 0, 0, &peer);
	if (ret)
		return ret;
	if (s->rx.ptr && peer.count > 0)
		mine = check_targets(s, peer.count);
	if (mine != 0 && s->active && as->iters > 0 && as->kind != KIND_BASE)
		mine = check_fetched(s);
	ret = swap_counts(s, res->size, as->iters, mine, &peer);
	if (ret)
		return ret;
	if (mine == 0 || peer.status == 0)
		res->verify = 0;
	else
		res->verify = mine == 1 || peer.status == 1 ? 1 : -1;
	return 0;
}

static void atomic_teardown(struct cxd_sess *s)
{
	free(s->op_state);
	s->op_state = NULL;
}

const struct cxd_ops cxd_atomic_ops = {
	.facts = {
		.caps = FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ |
			FI_REMOTE_WRITE,
		.amo = true,
		.slot = SLOT,
		.injects = true,
		.cxi = CXD_CXI_AMO,
	},
	.setup = atomic_setup,
	.post_for = atomic_post_for,
	.progress = atomic_progress,
	.lat_one = atomic_lat_one,
	.bw_iter = atomic_bw_iter,
	.finish = atomic_finish,
	.teardown = atomic_teardown,
};

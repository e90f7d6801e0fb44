/* SPDX-License-Identifier: BSD-3-Clause */
/* RMA write and read: the post hooks of the write and read tools. */
#include <errno.h>
#include <stdlib.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "session/post.h"
#include "session/session.h"
#include "ops.h"

/*
 * What a size's operations share, prepared once per size: each post then
 * sets the two addresses and calls the provider. The msg forms take
 * per-operation flags: FI_MORE within a list, FI_INJECT (the IDC
 * analogue) and FI_DELIVERY_COMPLETE, which makes a write complete only
 * when the target has it, as the originals' completion is the target's
 * ACK. A latency read needs no flags and takes the plain call.
 */
struct rma_state {
	struct fi_msg_rma msg;
	struct iovec iov;
	struct fi_rma_iov rma;
	struct fid_ep *ep;
	char *lbase;    /* this side's transmit buffer */
	uint64_t rbase; /* the peer's buffer as its key addresses it */
};

/* The prepared message, pointed at this operation's two addresses. */
static struct rma_state *aim(struct cxd_sess *s, uint64_t loff, uint64_t roff)
{
	struct rma_state *rs = s->op_state;

	rs->iov.iov_base = rs->lbase + loff;
	rs->rma.addr = rs->rbase + roff;
	return rs;
}

static int post_write(struct cxd_sess *s, uint64_t size, uint64_t loff,
		      uint64_t roff)
{
	struct rma_state *rs = aim(s, loff, roff);

	(void) size;
	return (int) fi_writemsg(rs->ep, &rs->msg, s->op_flags);
}

/* A read completes when its data has landed here. */
static int post_read(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t roff)
{
	struct rma_state *rs = aim(s, loff, roff);

	(void) size;
	return (int) fi_readmsg(rs->ep, &rs->msg, s->op_flags);
}

static int post_read_plain(struct cxd_sess *s, uint64_t size, uint64_t loff,
			   uint64_t roff)
{
	struct rma_state *rs = s->op_state;

	return (int) fi_read(rs->ep, rs->lbase + loff, size, rs->msg.desc[0],
			     rs->msg.addr, rs->rbase + roff, rs->rma.key, NULL);
}

static int rma_setup(struct cxd_sess *s)
{
	s->op_state = calloc(1, sizeof(struct rma_state));
	return s->op_state ? 0 : cxd_sess_fail(s, -ENOMEM, "out of memory");
}

/* Per size, after the peer is known (a sweep changes it between pairs). */
static void prepare(struct cxd_sess *s, struct rma_state *rs, uint64_t size)
{
	rs->ep = s->fab->ep;
	rs->lbase = s->tx.ptr;
	rs->rbase = s->peer.rx_base;
	rs->iov.iov_len = size;
	rs->rma.len = size;
	rs->rma.key = s->peer.key;
	rs->msg = (struct fi_msg_rma) {
		.msg_iov = &rs->iov, .desc = &s->tx_mr.desc, .iov_count = 1,
		.addr = s->fab->peer, .rma_iov = &rs->rma, .rma_iov_count = 1,
	};
}

/* FI_INJECT as the summary says (cxd_ops_injects); latency: every
 * operation is timed to its own completion. */
static void rma_flags(struct cxd_sess *s, uint64_t size, uint64_t op_flags,
		      uint64_t last_flags)
{
	prepare(s, s->op_state, size);
	s->op_flags = op_flags;
	if (cxd_ops_injects(s->ops, s->run, size, s->fab->inject_size))
		s->op_flags |= FI_INJECT;
	s->last_flags = last_flags;
	if (cxd_tool_is(s->tool, CXD_TRAIT_SAMPLES))
		s->op_flags |= s->last_flags;
}

static int write_post_for(struct cxd_sess *s, uint64_t size)
{
	s->post = post_write;
	/* cxi: HRP; 0 elsewhere */
	rma_flags(s, size, cxd_cxi_write_flags(&s->cxi, size),
		  FI_DELIVERY_COMPLETE);
	return 0;
}

/* Reads carry no flags but FI_MORE; one at a time, the plain call. */
static int read_post_for(struct cxd_sess *s, uint64_t size)
{
	rma_flags(s, size, 0, 0);
	s->post = cxd_tool_is(s->tool, CXD_TRAIT_SAMPLES) && s->op_flags == 0 ?
		  post_read_plain : post_read;
	return 0;
}

static int rma_progress(struct cxd_sess *s)
{
	/* Reading the counter drives manual-progress providers. */
	(void) fi_cntr_read(s->fab->tx_cntr);
	return 0;
}

static void rma_teardown(struct cxd_sess *s)
{
	free(s->op_state);
	s->op_state = NULL;
}

static int rma_bw_iter(struct cxd_sess *s, uint64_t size)
{
	uint64_t n = s->run->list_size;
	/* Writes name their post function: it inlines into the list loop. */
	int ret = s->post == post_write ?
		  cxd_post_batch_with(s, size, n, post_write) :
		  cxd_post_batch(s, size, n);

	return ret ? ret : cxd_post_wait(s);
}

static int rma_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	(void) last;
	return cxd_post_one(s, size);
}

#define RMA_CAPS \
	(FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)

/* Write and read share every hook but the posting one. */
#define RMA_HOOKS(post)                                         \
	.setup = rma_setup, .post_for = (post),                 \
	.progress = rma_progress, .lat_one = rma_lat_one,       \
	.bw_iter = rma_bw_iter, .teardown = rma_teardown

const struct cxd_ops cxd_write_ops = {
	.facts = { .caps = RMA_CAPS, .injects = true, .cxi = CXD_CXI_WRITE },
	RMA_HOOKS(write_post_for),
};

/* A read completes when its data has landed here: never injected. */
const struct cxd_ops cxd_read_ops = {
	.facts = { .caps = RMA_CAPS, .to_initiator = true, .cxi = CXD_CXI_READ },
	RMA_HOOKS(read_post_for),
};

/* RMA write and read: the post hooks of the write and read tools. */
#include <errno.h>
#include <stdlib.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "cxd/post.h"
#include "cxd/session.h"

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

static int post_write(struct cxd_sess *s, uint64_t size, uint64_t loff,
		      uint64_t roff)
{
	struct rma_state *rs = s->op_state;

	(void) size;
	rs->iov.iov_base = rs->lbase + loff;
	rs->rma.addr = rs->rbase + roff;
	return (int) fi_writemsg(rs->ep, &rs->msg, s->op_flags);
}

/* A read completes when its data has landed here. */
static int post_read(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t roff)
{
	struct rma_state *rs = s->op_state;

	(void) size;
	rs->iov.iov_base = rs->lbase + loff;
	rs->rma.addr = rs->rbase + roff;
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

static int rma_post_for(struct cxd_sess *s, uint64_t size)
{
	bool inject = cxd_post_injects(s, size, UINT64_MAX);

	prepare(s, s->op_state, size);
	s->post = s->tool->op == CXD_OP_READ ? post_read : post_write;
	/* Reads carry no flags but FI_MORE, as they always did. */
	s->op_flags = inject && s->post == post_write ? FI_INJECT : 0;
	if (s->tool->op == CXD_OP_WRITE) /* cxi: HRP; 0 elsewhere */
		s->op_flags |= cxd_cxi_write_flags(&s->cxi, size);
	s->last_flags = s->tool->op == CXD_OP_READ ? 0 : FI_DELIVERY_COMPLETE;
	/* Latency: every write is timed to the target's acknowledgement. */
	if (s->tool->pattern == CXD_PAT_LAT)
		s->op_flags |= s->last_flags;
	/* No flags at all: the plain call (a latency read). */
	if (s->post == post_read && s->op_flags == 0 &&
	    s->tool->pattern == CXD_PAT_LAT)
		s->post = post_read_plain;
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

	return ret ? ret : cxd_wait_cntr(s);
}

static int rma_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	(void) last;
	return cxd_post_one(s, size);
}

const struct cxd_ops cxd_rma_ops = {
	.caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.setup = rma_setup,
	.post_for = rma_post_for,
	.progress = rma_progress,
	.lat_one = rma_lat_one,
	.bw_iter = rma_bw_iter,
	.teardown = rma_teardown,
};

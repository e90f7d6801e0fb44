/* RMA write and read: the post hooks of the write and read tools. */
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "cxd/session.h"

/* The msg forms take per-operation flags: FI_INJECT (the IDC analogue)
 * and FI_DELIVERY_COMPLETE, which makes a write complete only when the
 * target has it, as the originals' completion is the target's ACK. */
static void rma_msg(struct cxd_sess *s, uint64_t size, uint64_t loff,
		    uint64_t roff, struct iovec *iov, struct fi_rma_iov *rma,
		    struct fi_msg_rma *m)
{
	iov->iov_base = (char *) s->tx.ptr + loff;
	iov->iov_len = size;
	rma->addr = s->peer.rx_base + roff;
	rma->len = size;
	rma->key = s->peer.key;
	memset(m, 0, sizeof(*m));
	m->msg_iov = iov;
	m->desc = &s->tx_mr.desc;
	m->iov_count = 1;
	m->addr = s->fab->peer;
	m->rma_iov = rma;
	m->rma_iov_count = 1;
}

static int post_write(struct cxd_sess *s, uint64_t size, uint64_t loff,
		      uint64_t roff)
{
	struct iovec iov;
	struct fi_rma_iov rma;
	struct fi_msg_rma m;

	rma_msg(s, size, loff, roff, &iov, &rma, &m);
	return (int) fi_writemsg(s->fab->ep, &m, s->op_flags);
}

static int post_read(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t roff)
{
	struct iovec iov;
	struct fi_rma_iov rma;
	struct fi_msg_rma m;

	/* A read completes when its data has landed here: no flags. */
	rma_msg(s, size, loff, roff, &iov, &rma, &m);
	return (int) fi_readmsg(s->fab->ep, &m, 0);
}

/* FI_INJECT as the summary says (cxd_ops_injects); latency: every
 * operation is timed to its own completion. */
static void rma_flags(struct cxd_sess *s, uint64_t size, uint64_t op_flags,
		      uint64_t last_flags)
{
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

static int read_post_for(struct cxd_sess *s, uint64_t size)
{
	s->post = post_read;
	rma_flags(s, size, 0, 0);
	return 0;
}

static int rma_progress(struct cxd_sess *s)
{
	/* Reading the counter drives manual-progress providers. */
	(void) fi_cntr_read(s->fab->tx_cntr);
	return 0;
}

static int rma_bw_iter(struct cxd_sess *s, uint64_t size)
{
	return cxd_post_list(s, size, s->run->list_size);
}

static int rma_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	(void) last;
	return cxd_post_one(s, size);
}

#define RMA_CAPS \
	(FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)

const struct cxd_ops cxd_write_ops = {
	.caps = RMA_CAPS,
	.injects = true,
	.cxi = CXD_CXI_WRITE,
	.post_for = write_post_for,
	.progress = rma_progress,
	.lat_one = rma_lat_one,
	.bw_iter = rma_bw_iter,
};

/* A read completes when its data has landed here: never injected. */
const struct cxd_ops cxd_read_ops = {
	.caps = RMA_CAPS,
	.to_initiator = true,
	.cxi = CXD_CXI_READ,
	.post_for = read_post_for,
	.progress = rma_progress,
	.lat_one = rma_lat_one,
	.bw_iter = rma_bw_iter,
};

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

static int rma_post_for(struct cxd_sess *s, uint64_t size)
{
	bool inject = !cxd_run_has(s->run, CXD_RUN_NO_IDC) &&
		      size <= s->fab->inject_size;

	s->post = s->tool->op == CXD_OP_READ ? post_read : post_write;
	s->op_flags = inject ? FI_INJECT : 0;
	if (s->tool->op == CXD_OP_WRITE) /* cxi: HRP; 0 elsewhere */
		s->op_flags |= cxd_cxi_write_flags(&s->cxi, size);
	s->last_flags = s->tool->op == CXD_OP_READ ? 0 : FI_DELIVERY_COMPLETE;
	/* Latency: every write is timed to the target's acknowledgement. */
	if (s->tool->pattern == CXD_PAT_LAT)
		s->op_flags |= s->last_flags;
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

const struct cxd_ops cxd_rma_ops = {
	.caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.post_for = rma_post_for,
	.progress = rma_progress,
	.lat_one = rma_lat_one,
	.bw_iter = rma_bw_iter,
};

/* RMA write and read: the post hooks of the write and read tools. */
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "cxd/session.h"

static int post_write(struct cxd_sess *s, uint64_t size, uint64_t loff,
		      uint64_t roff)
{
	return (int) fi_write(s->fab->ep, (char *) s->tx.ptr + loff, size,
			      s->tx_mr.desc, s->fab->peer,
			      s->peer.rx_base + roff, s->peer.key, NULL);
}

static int post_inject_write(struct cxd_sess *s, uint64_t size, uint64_t loff,
			     uint64_t roff)
{
	return (int) fi_inject_write(s->fab->ep, (char *) s->tx.ptr + loff,
				     size, s->fab->peer,
				     s->peer.rx_base + roff, s->peer.key);
}

static int post_read(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t roff)
{
	return (int) fi_read(s->fab->ep, (char *) s->tx.ptr + loff, size,
			     s->tx_mr.desc, s->fab->peer,
			     s->peer.rx_base + roff, s->peer.key, NULL);
}

static int rma_post_for(struct cxd_sess *s, uint64_t size)
{
	bool inject = !cxd_run_has(s->run, CXD_RUN_NO_IDC) &&
		      size <= s->fab->inject_size;

	if (s->tool->op == CXD_OP_READ)
		s->post = post_read;
	else
		s->post = inject ? post_inject_write : post_write;
	return 0;
}

static int rma_progress(struct cxd_sess *s)
{
	/* Reading the counter drives manual-progress providers. */
	(void) fi_cntr_read(s->fab->tx_cntr);
	return 0;
}

/* One bandwidth iteration: list_size operations, then their completions. */
static int rma_bw_iter(struct cxd_sess *s, uint64_t size)
{
	uint64_t n = s->run->list_size;
	int ret;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = cxd_next_off(s);

		ret = s->post(s, size, off, off);
		if (ret && (ret = cxd_post_retry(s, size, off, off)) != 0)
			return ret;
	}
	s->cntr_target += n;
	return cxd_wait_cntr(s);
}

static int rma_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	int ret;

	(void) last;
	ret = s->post(s, size, 0, 0);
	if (ret && (ret = cxd_post_retry(s, size, 0, 0)) != 0)
		return ret;
	s->cntr_target++;
	return cxd_wait_cntr(s);
}

const struct cxd_ops cxd_rma_ops = {
	.caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.post_for = rma_post_for,
	.progress = rma_progress,
	.lat_one = rma_lat_one,
	.bw_iter = rma_bw_iter,
};

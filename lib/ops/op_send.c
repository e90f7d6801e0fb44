/* SPDX-License-Identifier: BSD-3-Clause */
/* Two-sided sends into receives the target pre-posts (tagged messages).
 * Bandwidth: list_size sends, then the receiver answers with a 0-byte
 * response, so the sender never overruns posted receives.
 * Latency: ping-pong; a final marker tag tells the responder to stop. */
#include <errno.h>
#include <stdlib.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include "session/post.h"
#include "session/session.h"
#include "ops.h"

#define TAG_DATA 0x0ULL
#define TAG_FINAL 0x1ULL /* data receives ignore bit 0: they match both */
#define TAG_RESP 0x2ULL
#define IDC_MAX 192      /* the originals inject sends up to 192 bytes */
#define RESP_CTX ((void *) 1)

struct send_state {
	uint64_t nrecv;      /* data receives kept posted */
	uint64_t slot_len;   /* bytes per receive slot */
	uint64_t rx_data;    /* data messages received */
	uint64_t resp_owed;  /* responses still to send */
	uint64_t resp_got;   /* responses received */
	uint64_t resp_need;  /* responses this side waits for */
	uint64_t pings;      /* latency: messages received */
	bool final_seen;
	bool resp_recv;      /* bandwidth: a response receive is posted */
	/* Latency: receive slots to post again once our next send is out,
	 * so reposting overlaps the flight instead of adding to it. */
	uint64_t repost[2];
	unsigned nrepost;
	/* Bandwidth lists take FI_MORE: the msg form, prepared per size. */
	struct fi_msg_tagged msg;
	struct iovec iov;
	char *lbase;
};

static struct send_state *st(struct cxd_sess *s)
{
	return s->op_state;
}

static int post_data_recv(struct cxd_sess *s, uint64_t slot)
{
	struct send_state *ss = st(s);
	char *buf = (char *) s->rx.ptr + (slot * ss->slot_len) % s->rx.len;

	/* Context carries slot + 2 so it never equals RESP_CTX or NULL. */
	return (int) fi_trecv(s->fab->ep, buf, ss->slot_len, s->rx_mr.desc,
			      s->fab->peer, TAG_DATA, TAG_FINAL,
			      (void *) (uintptr_t) (slot + 2));
}

static int post_resp_recv(struct cxd_sess *s)
{
	return (int) fi_trecv(s->fab->ep, NULL, 0, NULL, s->fab->peer,
			      TAG_RESP, 0, RESP_CTX);
}

static int send_setup(struct cxd_sess *s)
{
	struct send_state *ss = calloc(1, sizeof(*ss));
	int ret = 0;

	if (ss == NULL)
		return cxd_sess_fail(s, -ENOMEM, "out of memory");
	s->op_state = ss;
	ss->resp_recv = cxd_tool_is(s->tool, CXD_TRAIT_LISTS);
	/* Latency keeps a second receive posted while one is reposted. */
	ss->nrecv = ss->resp_recv ? s->run->list_size : 2;
	ss->slot_len = s->run->max_size;
	for (uint64_t i = 0; ret == 0 && i < ss->nrecv; i++)
		ret = post_data_recv(s, i);
	if (ret == 0 && ss->resp_recv)
		ret = post_resp_recv(s);
	if (ret)
		return cxd_sess_fail(s, ret, "posting receives failed: %s",
				     fi_strerror(-ret));
	return 0;
}

/* Post hooks: the fourth argument carries the tag for sends. */
static int post_send(struct cxd_sess *s, uint64_t size, uint64_t loff,
		     uint64_t tag)
{
	return (int) fi_tsend(s->fab->ep, (char *) s->tx.ptr + loff, size,
			      s->tx_mr.desc, s->fab->peer, tag, NULL);
}

static int post_inject(struct cxd_sess *s, uint64_t size, uint64_t loff,
		       uint64_t tag)
{
	return (int) fi_tinject(s->fab->ep, (char *) s->tx.ptr + loff, size,
				s->fab->peer, tag);
}

/* A list's data send: the tag is always TAG_DATA, flags from the list. */
static int post_send_msg(struct cxd_sess *s, uint64_t size, uint64_t loff,
			 uint64_t tag)
{
	struct send_state *ss = st(s);

	(void) size;
	(void) tag;
	ss->iov.iov_base = ss->lbase + loff;
	return (int) fi_tsendmsg(s->fab->ep, &ss->msg, s->op_flags);
}

static int send_post_for(struct cxd_sess *s, uint64_t size)
{
	struct send_state *ss = st(s);
	/* Up to IDC_MAX and never with -R: see cxd_ops_injects. */
	bool inject = cxd_ops_injects(s->ops, s->run, size,
				      s->fab->inject_size);

	ss->lbase = s->tx.ptr;
	ss->iov.iov_len = size;
	ss->msg = (struct fi_msg_tagged) {
		.msg_iov = &ss->iov, .desc = &s->tx_mr.desc, .iov_count = 1,
		.addr = s->fab->peer, .tag = TAG_DATA,
	};
	s->op_flags = inject ? FI_INJECT : 0;
	s->last_flags = 0;
	/* Lists take FI_MORE: the msg form. A ping-pong sends one at a time
	 * with no flags: the plain calls. */
	if (ss->resp_recv)
		s->post = post_send_msg;
	else
		s->post = inject ? post_inject : post_send;
	return 0;
}

/* Owed 0-byte responses go out as soon as the queue takes them. */
static int flush_responses(struct cxd_sess *s)
{
	struct send_state *ss = st(s);
	int ret;

	while (ss->resp_owed) {
		ret = (int) fi_tinject(s->fab->ep, NULL, 0, s->fab->peer,
				       TAG_RESP);
		if (ret == -FI_EAGAIN)
			return 0;
		if (ret)
			return cxd_sess_fail(s, ret, "sending a response failed"
					     ": %s", fi_strerror(-ret));
		ss->resp_owed--;
		s->cntr_target++; /* counted by the completion counter too */
	}
	return 0;
}

static int on_completion(struct cxd_sess *s, const struct fi_cq_tagged_entry *e)
{
	struct send_state *ss = st(s);

	if (e->op_context == RESP_CTX) {
		ss->resp_got++;
		return post_resp_recv(s);
	}
	if (e->tag & TAG_FINAL)
		ss->final_seen = true;
	ss->pings++;
	if (cxd_tool_is(s->tool, CXD_TRAIT_SAMPLES) &&
	    ss->nrepost < sizeof(ss->repost) / sizeof(ss->repost[0])) {
		ss->repost[ss->nrepost++] = (uintptr_t) e->op_context - 2;
		return 0;
	}
	if (cxd_tool_is(s->tool, CXD_TRAIT_LISTS) &&
	    ++ss->rx_data % s->run->list_size == 0)
		ss->resp_owed++;
	return post_data_recv(s, (uintptr_t) e->op_context - 2);
}

static int repost_pending(struct cxd_sess *s)
{
	struct send_state *ss = st(s);
	int ret = 0;

	while (ret == 0 && ss->nrepost > 0)
		ret = post_data_recv(s, ss->repost[--ss->nrepost]);
	return ret ? cxd_sess_fail(s, ret, "reposting a receive failed: %s",
				   fi_strerror(-ret)) : 0;
}

static int rx_error(struct cxd_sess *s)
{
	struct fi_cq_err_entry e = { 0 };

	fi_cq_readerr(s->fab->rx_cq, &e, 0);
	return cxd_sess_fail(s, -EIO, "a receive from %s failed during %s: "
			     "%s", cxd_sess_who(s), cxd_sess_phase(s),
			     fi_strerror(e.err));
}

static int send_progress(struct cxd_sess *s)
{
	struct fi_cq_tagged_entry e[16];
	ssize_t n;
	int ret = 0;

	/* Before setup (address exchange) there is nothing posted yet. */
	if (s->op_state == NULL)
		return 0;
	n = fi_cq_read(s->fab->rx_cq, e, 16);

	if (n == -FI_EAVAIL)
		return rx_error(s);
	for (ssize_t i = 0; ret == 0 && i < n; i++)
		ret = on_completion(s, &e[i]);
	if (ret)
		return cxd_sess_fail(s, ret, "reposting a receive failed: %s",
				     fi_strerror(-ret));
	return st(s)->resp_owed ? flush_responses(s) : 0;
}

/* Spin on receive completions until *have reaches want (bounded). */
static int wait_rx(struct cxd_sess *s, const uint64_t *have, uint64_t want)
{
	struct cxd_spin w = CXD_SPIN("message");
	unsigned rounds = 0;
	int ret;

	cxd_sess_beat(s);
	while (*have < want) {
		ret = send_progress(s);
		if (ret == 0 && cxd_post_spin_due(&rounds))
			ret = cxd_post_spin_check(s, &w, *have);
		if (ret)
			return ret;
	}
	return 0;
}

static int send_one(struct cxd_sess *s, uint64_t size, uint64_t off,
		    uint64_t tag)
{
	/* A full queue waits in the shared, bounded retry. */
	int ret = s->post(s, size, off, tag);

	if (ret && (ret = cxd_post_retry(s, size, off, tag)) != 0)
		return ret;
	s->cntr_target++;
	return 0;
}

static int send_bw_iter(struct cxd_sess *s, uint64_t size)
{
	struct send_state *ss = st(s);
	int ret = cxd_post_batch(s, size, s->run->list_size);

	if (ret)
		return ret;
	ss->resp_need++;
	ret = wait_rx(s, &ss->resp_got, ss->resp_need);
	return ret ? ret : cxd_post_wait(s);
}

/* Client: ping, wait for the pong. Responder: wait, pong; 1 when final. */
static int send_lat_one(struct cxd_sess *s, uint64_t size, bool last)
{
	struct send_state *ss = st(s);
	int ret;

	if (s->is_client) {
		ret = send_one(s, size, 0, last ? TAG_FINAL : TAG_DATA);
		if (ret == 0)
			ret = repost_pending(s);
		return ret ? ret : wait_rx(s, &ss->pings, ss->pings + 1);
	}
	ret = wait_rx(s, &ss->pings, ss->pings + 1);
	if (ret == 0)
		ret = send_one(s, size, 0, TAG_DATA);
	if (ret == 0)
		ret = repost_pending(s);
	if (ret == 0 && ss->final_seen) {
		ss->final_seen = false;
		return 1;
	}
	return ret;
}

static void send_teardown(struct cxd_sess *s)
{
	free(s->op_state);
	s->op_state = NULL;
}

const struct cxd_ops cxd_send_ops = {
	.facts = {
		.caps = FI_MSG | FI_TAGGED | FI_SEND | FI_RECV,
		.two_sided = true,
		.injects = true,
		.inject_cap = IDC_MAX,
		.cxi = CXD_CXI_MSG,
	},
	.setup = send_setup,
	.post_for = send_post_for,
	.progress = send_progress,
	.lat_one = send_lat_one,
	.bw_iter = send_bw_iter,
	.teardown = send_teardown,
};

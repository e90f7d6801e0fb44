/* SPDX-License-Identifier: BSD-3-Clause */
/* The peer over the TCP control channel: a client/server pair's way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer_ctrl.h"
#include "sess_priv.h"

#define PEER_WHY_MS 200 /* after a fabric error: is an ERROR frame coming? */
/* A peer that missed two heartbeats is stopped, not busy with our
 * fabric: a wait for it (its message, or a stalled operation) then
 * naps between polls instead of spinning a core until the idle limit
 * ends it. A live peer beats every CXD_HEARTBEAT_MS, so a wait while
 * it works (and may need our progress) never naps. */
#define PEER_QUIET_NS (2ULL * CXD_HEARTBEAT_MS * CXD_NS_PER_MS)
#define PEER_NAP_NS 5000000L

int cxd_sess_ctrl_new(struct cxd_sess *s)
{
	struct cxd_ctrl *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return cxd_sess_fail(s, -ENOMEM, "no memory for the control "
				     "channel");
	/* Safe to close before it connects (connect and accept reset it). */
	c->fd = -1;
	c->hb_pipe[0] = c->hb_pipe[1] = -1;
	s->via_arg = c;
	return 0;
}

int cxd_sess_ctrl_fail(struct cxd_sess *s, int ret)
{
	snprintf(s->err, sizeof(s->err), "%s", cxd_sess_ctrl(s)->err);
	return ret;
}

int cxd_sess_send(struct cxd_sess *s, uint16_t type, const uint8_t *buf,
		  ssize_t len)
{
	int ret;

	if (len < 0)
		return cxd_sess_fail(s, (int) len, "cannot encode a %s message",
				     cxd_msg_name(type));
	ret = cxd_ctrl_send(cxd_sess_ctrl(s), type, buf, (uint32_t) len);
	return ret ? cxd_sess_ctrl_fail(s, ret) : 0;
}

static void nap_if_quiet(const struct cxd_ctrl *c)
{
	struct timespec nap = { 0, PEER_NAP_NS };

	if (cxd_now_ns() - c->last_rx_ns > PEER_QUIET_NS)
		nanosleep(&nap, NULL);
}

static int wait_msg(struct cxd_sess *s, uint16_t type, uint8_t *buf,
		    uint32_t cap, uint32_t *len_p)
{
	unsigned spins = 0;
	int ret;

	/* With a fabric open, keep it progressing: the peer may need us. */
	while (s->fab != NULL) {
		ret = s->ops->progress(s);
		if (ret)
			return ret;
		if (++spins & 63)
			continue;
		cxd_sess_beat(s);
		ret = cxd_ctrl_poll(cxd_sess_ctrl(s));
		if (ret < 0)
			return cxd_sess_ctrl_fail(s, ret);
		if (ret == 1)
			break;
		nap_if_quiet(cxd_sess_ctrl(s));
	}
	ret = cxd_ctrl_expect(cxd_sess_ctrl(s), type, buf, cap, len_p, -1);
	return ret ? cxd_sess_ctrl_fail(s, ret) : 0;
}

static int send_barrier(struct cxd_sess *s)
{
	uint8_t buf[16];

	return cxd_sess_send(s, CXD_MSG_BARRIER, buf,
			     cxd_enc_barrier(s->barrier_seq, buf, sizeof(buf)));
}

/* The client speaks first, the server answers: both have arrived. */
static int ctrl_barrier(struct cxd_sess *s, const char *phase)
{
	uint8_t buf[16];
	uint32_t len, seq = 0;
	int ret;

	s->barrier_seq++;
	if (s->is_client && (ret = send_barrier(s)) != 0)
		return ret;
	ret = wait_msg(s, CXD_MSG_BARRIER, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	if (cxd_dec_barrier(buf, len, &seq) != 0 || seq != s->barrier_seq)
		return cxd_sess_fail(s, -EPROTO, "%s is out of step during %s "
				     "(barrier %u, expected %u)",
				     cxd_sess_who(s), phase, seq,
				     s->barrier_seq);
	return s->is_client ? 0 : send_barrier(s);
}

static int ctrl_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		      struct cxd_result_msg *theirs)
{
	uint8_t buf[64];
	uint32_t len;
	int ret = cxd_sess_send(s, CXD_MSG_RESULT, buf,
				cxd_enc_result(mine, buf, sizeof(buf)));

	if (ret == 0)
		ret = wait_msg(s, CXD_MSG_RESULT, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	if (cxd_dec_result(buf, len, theirs) != 0 || theirs->size != mine->size)
		return cxd_sess_fail(s, -EPROTO, "%s sent results for another "
				     "size during %s", cxd_sess_who(s),
				     cxd_sess_phase(s));
	return 0;
}

static int send_addr(struct cxd_sess *s, const struct cxd_addr_msg *m)
{
	uint8_t buf[CXD_MAX_PAYLOAD];

	return cxd_sess_send(s, CXD_MSG_ADDR, buf,
			     cxd_enc_addr(m, buf, sizeof(buf)));
}

static int recv_addr(struct cxd_sess *s, struct cxd_addr_msg *m)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret = wait_msg(s, CXD_MSG_ADDR, buf, sizeof(buf), &len);

	if (ret)
		return ret;
	if (cxd_dec_addr(buf, len, m) != 0)
		return cxd_sess_fail(s, -EPROTO, "%s sent a malformed address "
				     "during the address exchange",
				     cxd_sess_who(s));
	if (strcmp(m->provider, s->run->provider) != 0)
		return cxd_sess_fail(s, -EPROTO, "%s opened provider '%s', "
				     "this side '%s'", cxd_sess_who(s),
				     m->provider, s->run->provider);
	return 0;
}

static int ctrl_swap_addr(struct cxd_sess *s, const struct cxd_addr_msg *mine,
			  struct cxd_addr_msg *theirs)
{
	int ret = s->is_client ? send_addr(s, mine) : 0;

	if (ret == 0)
		ret = recv_addr(s, theirs);
	if (ret == 0 && !s->is_client)
		ret = send_addr(s, mine);
	return ret;
}

/* Peek at a buffered frame: an ERROR from the peer ends the wait now. */
static int pending_peer_error(struct cxd_sess *s)
{
	struct cxd_hdr h;
	char tmp[128];
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint16_t type;
	uint32_t len;
	int ret;

	if (cxd_hdr_decode(cxd_sess_ctrl(s)->rx, &h, tmp, sizeof(tmp)) != 0 ||
	    h.type != CXD_MSG_ERROR)
		return 0;
	ret = cxd_ctrl_recv(cxd_sess_ctrl(s), &type, buf, sizeof(buf), &len, 0);
	return cxd_sess_ctrl_fail(s, ret ? ret : -EPROTO);
}

static int ctrl_check(struct cxd_sess *s)
{
	int ret = cxd_ctrl_poll(cxd_sess_ctrl(s));

	if (ret < 0)
		return cxd_sess_ctrl_fail(s, ret);
	if (ret == 1)
		return pending_peer_error(s);
	nap_if_quiet(cxd_sess_ctrl(s));
	return 0;
}

static int ctrl_why(struct cxd_sess *s)
{
	uint64_t until = cxd_now_ns() + PEER_WHY_MS * 1000000ULL;
	int ret;

	do {
		ret = cxd_ctrl_poll(cxd_sess_ctrl(s));
		if (ret == 1)
			return pending_peer_error(s);
		if (ret < 0)
			return 0;
	} while (cxd_now_ns() < until);
	return 0;
}

/* From any failure, connected or not (no channel: a failed listen). */
static void ctrl_tell(struct cxd_sess *s, const char *text)
{
	struct cxd_ctrl *c = cxd_sess_ctrl(s);

	if (c && c->fd >= 0)
		cxd_ctrl_send_error(c, text);
}

static void ctrl_watch(struct cxd_sess *s, void (*on_fatal)(void *arg),
		       void *arg)
{
	struct cxd_ctrl *c = cxd_sess_ctrl(s);

	c->on_fatal = on_fatal;
	c->fatal_arg = arg;
	cxd_ctrl_watch(c, s->tool->name);
}

/* The heartbeat thread's messages name the phase. These three are
 * called once connected; no channel (yet) is no watchdog to feed. */
static void ctrl_enter(struct cxd_sess *s, const char *phase)
{
	if (cxd_sess_ctrl(s))
		cxd_ctrl_set_phase(cxd_sess_ctrl(s), phase);
}

static void ctrl_beat(struct cxd_sess *s)
{
	if (cxd_sess_ctrl(s))
		cxd_ctrl_beat(cxd_sess_ctrl(s));
}

static void ctrl_allow(struct cxd_sess *s, uint64_t ms)
{
	if (cxd_sess_ctrl(s))
		cxd_ctrl_allow(cxd_sess_ctrl(s), ms);
}

/* "127.0.0.1:49194" once connected (also asked after a failed listen). */
static const char *ctrl_name(const struct cxd_sess *s)
{
	const struct cxd_ctrl *c = cxd_sess_ctrl(s);

	return c && c->fd >= 0 ? c->peer : NULL;
}

/* The data goes where the control connection goes (e.g. stays on lo). */
static void ctrl_src_host(const struct cxd_sess *s, char *buf, size_t len)
{
	cxd_ctrl_local_host(cxd_sess_ctrl(s), buf, len);
}

static void ctrl_close(struct cxd_sess *s)
{
	struct cxd_ctrl *c = cxd_sess_ctrl(s);

	if (c == NULL)
		return;
	cxd_ctrl_close(c);
	free(c);
	s->via_arg = NULL;
	s->who = NULL; /* it named the channel's peer */
}

const struct cxd_peer_ops cxd_peer_ctrl = {
	.both_roles = false, .separate = true,
	.barrier = ctrl_barrier, .share = ctrl_share,
	.swap_addr = ctrl_swap_addr, .result = cxd_sess_report,
	.check = ctrl_check, .why = ctrl_why, .tell = ctrl_tell,
	.watch = ctrl_watch, .enter = ctrl_enter, .beat = ctrl_beat,
	.allow = ctrl_allow, .name = ctrl_name, .src_host = ctrl_src_host,
	.close = ctrl_close,
};

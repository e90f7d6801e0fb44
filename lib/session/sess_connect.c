/* SPDX-License-Identifier: BSD-3-Clause */
/* Client and server: connect or accept, and the handshake up to the
 * address exchange (the server's verdicts are wire/hs.c's). */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "wire/hs.h"
#include "base/clock.h"
#include "base/signals.h"
#include "peer_ctrl.h"
#include "sess_priv.h"
#include "post.h"

#define CXD_STRAY 1 /* server_handshake: not a client, drop it */
#define CXD_HANDSHAKE_MS 10000 /* a whole handshake, at least */

static int check_hello(struct cxd_sess *s, const uint8_t *buf, uint32_t len)
{
	const struct cxd_ctrl *c = cxd_sess_ctrl(s);

	return cxd_hs_check_hello(s->tool->name, c->peer_role, c->peer, buf,
				  len, s->err, sizeof(s->err));
}

/* The next frame must be of this type (bounded by the peer's liveness). */
static int expect(struct cxd_sess *s, uint16_t type, uint8_t *buf,
		  uint32_t cap, uint32_t *len_p)
{
	int ret = cxd_ctrl_expect(cxd_sess_ctrl(s), type, buf, cap, len_p, -1);

	return ret ? cxd_sess_ctrl_fail(s, ret) : 0;
}

static int send_hello(struct cxd_sess *s)
{
	uint8_t buf[256];

	return cxd_sess_send(s, CXD_MSG_HELLO, buf,
			cxd_hs_enc_hello(s->tool->name, buf, sizeof(buf)));
}

/* The client's side; the server's is server_handshake below. */
static int handshake(struct cxd_sess *s)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_sess_enter(s, "the handshake");
	ret = send_hello(s);
	if (ret == 0)
		ret = expect(s, CXD_MSG_HELLO, buf, sizeof(buf), &len);
	if (ret == 0)
		ret = check_hello(s, buf, len);
	if (ret == 0)
		ret = cxd_ctrl_hb_start(cxd_sess_ctrl(s));
	return ret;
}

static int client_options(struct cxd_sess *s)
{
	struct cxd_accept acc;
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_sess_enter(s, "the option exchange");
	ret = cxd_sess_pick_provider(s, cxd_ctrl_same_host(cxd_sess_ctrl(s)));
	if (ret)
		return ret;
	cxd_sig_install(); /* providers are loaded now: ours win */
	ret = cxd_sess_check_hugepages(s);
	if (ret)
		return ret;
	ret = cxd_sess_send(s, CXD_MSG_RUN, buf,
		       cxd_enc_run(&s->cfg->run, buf, sizeof(buf)));
	if (ret == 0)
		ret = expect(s, CXD_MSG_ACCEPT, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	if (cxd_dec_accept(buf, len, &acc) != 0)
		return cxd_sess_fail(s, -EPROTO, "%s sent a malformed reply "
				     "during the option exchange",
				     cxd_sess_who(s));
	if (acc.status != 0)
		return cxd_sess_fail(s, acc.status, "%s refused the run: %s",
				     cxd_sess_who(s), acc.reason);
	return 0;
}

/* Huge pages free here: the state machine's last check (--max-mem is its
 * own), run on the options as this side would then use them. */
static int hugepage_check(void *arg, const struct cxd_run_opts *run,
			  char *err, size_t errlen)
{
	struct cxd_sess *s = arg;
	int ret;

	s->cfg->run = *run;
	ret = cxd_sess_check_hugepages(s);
	if (ret)
		snprintf(err, errlen, "%s", s->err);
	return ret;
}

/* One frame from the client through the state machine, and its reply. */
static int server_step(struct cxd_sess *s, struct cxd_hs *hs,
		       uint64_t deadline)
{
	struct cxd_hs_reply reply;
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint16_t type;
	uint32_t len;
	uint64_t now = cxd_now_ns();
	int ret, sent, ms;

	cxd_sess_enter(s, cxd_hs_phase(hs));
	ms = now >= deadline ? 0 : (int) ((deadline - now) / 1000000ULL);
	ret = cxd_ctrl_recv(cxd_sess_ctrl(s), &type, buf, sizeof(buf), &len,
			    ms);
	/* Bytes that are not our framing before any HELLO: an HTTP health
	 * check or a scanner, not a client; drop it like a silent one. */
	if (ret == -EPROTO && hs->state == CXD_HS_HELLO)
		return CXD_STRAY;
	if (ret)
		return cxd_sess_ctrl_fail(s, ret);
	ret = cxd_hs_step(hs, type, buf, len, &reply);
	if (ret)
		snprintf(s->err, sizeof(s->err), "%s", hs->err);
	if (hs->have_run)
		s->cfg->run = hs->run;
	if (reply.type == 0)
		return ret;
	/* A lost reply is the connection's error, whatever the verdict. */
	sent = cxd_sess_send(s, reply.type, reply.buf, reply.len);
	return ret ? ret : sent;
}

/* The server's side, judged frame by frame by wire/hs.c. */
static int server_handshake(struct cxd_sess *s)
{
	char mine[CXD_NAME_LEN];
	const struct cxd_ctrl *c = cxd_sess_ctrl(s);
	struct cxd_hs_cfg cfg = {
		.tool = s->tool, .peer_role = c->peer_role,
		.peer = c->peer, .provider = mine,
		.max_mem = s->cfg->local.max_mem,
		.local_check = hugepage_check, .arg = s,
	};
	struct cxd_hs hs;
	uint64_t start = cxd_now_ns();
	uint64_t hello_by = start + s->timeout_ms * 1000000ULL;
	uint64_t done_by = start + (s->timeout_ms * 2 > CXD_HANDSHAKE_MS ?
				    s->timeout_ms * 2 : CXD_HANDSHAKE_MS) *
				   1000000ULL;
	int ret = 0;

	cxd_fabric_core_name(s->cfg->local.provider, mine, sizeof(mine));
	cxd_hs_init(&hs, &cfg);
	while (ret == 0 && hs.state != CXD_HS_DONE) {
		enum cxd_hs_state was = hs.state;

		/* Bounded in total, not per read: a trickle of bytes or of
		 * heartbeats must not hold the server. */
		ret = server_step(s, &hs, was == CXD_HS_HELLO ? hello_by :
					  done_by);
		/* No valid HELLO yet: a port scan, a health check, a stray. */
		if (was == CXD_HS_HELLO && (ret == -ETIMEDOUT ||
					    ret == -ECONNRESET ||
					    ret == CXD_STRAY))
			return CXD_STRAY;
		/* Heartbeats from here on: the client has our HELLO. */
		if (ret == 0 && was == CXD_HS_HELLO && hs.state == CXD_HS_RUN)
			ret = cxd_ctrl_hb_start(cxd_sess_ctrl(s));
	}
	return ret;
}

/* A launcher step's client may start before its server listens: a
 * refused connection is tried again until connect_wait_ms have passed. */
static int connect_waiting(struct cxd_sess *s, struct cxd_ctrl *c)
{
	uint64_t deadline = cxd_deadline_in((int) s->cfg->local.connect_wait_ms);
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	int ret;

	for (;;) {
		ret = cxd_ctrl_connect(s->cfg->local.host, s->cfg->local.port,
				       CXD_CONNECT_TIMEOUT_MS, c, s->err,
				       sizeof(s->err));
		if (ret != -ECONNREFUSED || cxd_sig_pending() ||
		    cxd_ms_left(deadline, cxd_now_ns()) <= 0)
			return ret;
		nanosleep(&nap, NULL);
	}
}

int cxd_sess_client(struct cxd_sess *s)
{
	struct cxd_ctrl *c;
	int ret;

	s->is_client = true;
	s->active = true;
	ret = cxd_sess_ctrl_new(s);
	if (ret)
		return ret;
	c = cxd_sess_ctrl(s);
	ret = connect_waiting(s, c);
	if (ret == 0) {
		s->who = c->who;
		c->idle_ms = (int) s->timeout_ms;
		cxd_post_inflight(s, 0);
		ret = handshake(s);
	}
	if (ret == 0)
		ret = client_options(s);
	if (ret == 0)
		ret = cxd_sess_exchange_addrs(s);
	return ret;
}

/* One client that completes a valid HELLO: strays are dropped, noted on
 * stderr, and the server goes on listening; a launcher step's server
 * waits connect_wait_ms at most (its client may have died). */
static int accept_client(struct cxd_sess *s, int lfd)
{
	struct cxd_ctrl *c = cxd_sess_ctrl(s);
	int ret;

	for (;;) {
		/* A connection starts in no phase, as the channel does. */
		s->phase = NULL;
		ret = cxd_ctrl_accept(lfd, s->cfg->local.connect_wait_ms ?
				      (int) s->cfg->local.connect_wait_ms : -1,
				      c, s->err, sizeof(s->err));
		if (ret)
			return ret;
		s->who = c->who;
		c->idle_ms = (int) s->timeout_ms;
		c->busy_lfd = lfd;
		cxd_post_inflight(s, 0);
		ret = server_handshake(s);
		if (ret != CXD_STRAY)
			return ret;
		fprintf(stderr, "%s: dropped a connection that sent no valid "
			"handshake: %s; still listening\n", s->tool->name,
			c->err);
		fflush(stderr);
		cxd_ctrl_close(c);
		s->err[0] = '\0';
	}
}

int cxd_sess_server(struct cxd_sess *s, int lfd)
{
	int ret;

	s->is_client = false;
	ret = cxd_sess_ctrl_new(s);
	if (ret == 0)
		ret = accept_client(s, lfd);
	s->active = cxd_side_active(s->tool, s->run, false);
	if (ret == 0)
		ret = cxd_sess_exchange_addrs(s);
	return ret;
}

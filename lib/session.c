/* The shared flow of a run: handshake, option and address exchange, barriers. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "cxd/amo.h"
#include "cxd/gpu.h"
#include "cxd/handshake.h"
#include "cxd/session.h"
#include "cxd/signals.h"

int cxd_sess_fail(struct cxd_sess *s, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return ret < 0 ? ret : -EIO;
}

void cxd_phase(struct cxd_sess *s, const char *phase)
{
	s->ctrl.phase = phase;
	if (s->stop_at == NULL || strncmp(phase, "the ", 4) != 0 ||
	    strcmp(phase + 4, s->stop_at) != 0)
		return;
	s->stop_at = NULL; /* first entry only */
	fprintf(stderr, "%s: CXD_TEST_STOP_AT: stopping in %s\n",
		s->tool->name, phase);
	fflush(stderr);
	raise(SIGSTOP);
}

#define CXD_STRAY 1 /* server_handshake: not a client, drop it */
#define CXD_HANDSHAKE_MS 10000 /* a whole handshake, at least */

static int ctrl_fail(struct cxd_sess *s, int ret)
{
	snprintf(s->err, sizeof(s->err), "%s", s->ctrl.err);
	return ret;
}

static int send_msg(struct cxd_sess *s, uint16_t type, const uint8_t *buf,
		    ssize_t len)
{
	int ret;

	if (len < 0)
		return cxd_sess_fail(s, (int) len, "cannot encode a %s message",
				     cxd_msg_name(type));
	ret = cxd_ctrl_send(&s->ctrl, type, buf, (uint32_t) len);
	return ret ? ctrl_fail(s, ret) : 0;
}

int cxd_wait_msg(struct cxd_sess *s, uint16_t type, uint8_t *buf,
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
		cxd_ctrl_beat(&s->ctrl);
		ret = cxd_ctrl_poll(&s->ctrl);
		if (ret < 0)
			return ctrl_fail(s, ret);
		if (ret == 1)
			break;
	}
	ret = cxd_ctrl_expect(&s->ctrl, type, buf, cap, len_p, -1);
	return ret ? ctrl_fail(s, ret) : 0;
}

int cxd_barrier(struct cxd_sess *s, const char *phase)
{
	uint8_t buf[16];
	uint32_t len, seq = 0;
	int ret;

	cxd_phase(s, phase);
	if (s->sync)
		return s->sync->barrier(s, phase);
	s->barrier_seq++;
	if (s->is_client) {
		ret = send_msg(s, CXD_MSG_BARRIER, buf,
			       cxd_enc_barrier(s->barrier_seq, buf,
					       sizeof(buf)));
		if (ret)
			return ret;
	}
	ret = cxd_wait_msg(s, CXD_MSG_BARRIER, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	if (cxd_dec_barrier(buf, len, &seq) != 0 || seq != s->barrier_seq)
		return cxd_sess_fail(s, -EPROTO, "the %s %s is out of step "
				     "during %s (barrier %u, expected %u)",
				     s->ctrl.peer_role, s->ctrl.peer, phase,
				     seq, s->barrier_seq);
	if (!s->is_client)
		return send_msg(s, CXD_MSG_BARRIER, buf,
				cxd_enc_barrier(s->barrier_seq, buf,
						sizeof(buf)));
	return 0;
}

static int check_hello(struct cxd_sess *s, const uint8_t *buf, uint32_t len)
{
	return cxd_hs_check_hello(s->tool->name, s->ctrl.peer_role,
				  s->ctrl.peer, buf, len, s->err,
				  sizeof(s->err));
}

static int send_hello(struct cxd_sess *s)
{
	uint8_t buf[256];

	return send_msg(s, CXD_MSG_HELLO, buf,
			cxd_hs_enc_hello(s->tool->name, buf, sizeof(buf)));
}

/* The client's side; the server's is server_handshake below. */
static int handshake(struct cxd_sess *s)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_phase(s, "the handshake");
	ret = send_hello(s);
	if (ret)
		return ret;
	ret = cxd_ctrl_expect(&s->ctrl, CXD_MSG_HELLO, buf, sizeof(buf), &len,
			      -1);
	if (ret)
		return ctrl_fail(s, ret);
	ret = check_hello(s, buf, len);
	if (ret == 0)
		ret = cxd_ctrl_hb_start(&s->ctrl);
	return ret;
}

/* This side's buffers, as the originals size them (handshake.c). */
static void plan_memory(const struct cxd_sess *s, uint64_t *tx_p,
			uint64_t *rx_p)
{
	/* A sweep rank is both sides: plan as a loopback does. */
	cxd_plan_memory(s->tool, s->run, s->is_client,
			s->loopback || s->sync != NULL, tx_p, rx_p);
}

static int check_memory(struct cxd_sess *s, uint64_t limit)
{
	uint64_t tx, rx, need, pages;
	long have;
	int hp = (int) s->run->hugepages;

	plan_memory(s, &tx, &rx);
	need = tx + rx;
	if (limit && need > limit)
		return cxd_sess_fail(s, -E2BIG, "this run needs %llu bytes of "
				     "buffer memory on the %s, over its limit "
				     "of %llu (--max-mem)",
				     (unsigned long long) need,
				     s->is_client ? "client" : "server",
				     (unsigned long long) limit);
	if (hp == CXD_HP_NONE)
		return 0;
	/* GPU buffers take no huge pages. */
	pages = (s->cfg->local.tx_gpu < 0 ? cxd_pages_needed(tx, hp) : 0) +
		(s->cfg->local.rx_gpu < 0 ? cxd_pages_needed(rx, hp) : 0);
	have = cxd_hp_free(hp);
	if (have < 0 || (uint64_t) have < pages)
		return cxd_sess_fail(s, -ENOMEM, "Insufficient %s huge pages. "
				     "Need %llu to run (the %s has %ld free)",
				     hp == CXD_HP_2M ? "2M" : "1G",
				     (unsigned long long) pages,
				     s->is_client ? "client" : "server",
				     have < 0 ? 0 : have);
	return 0;
}

/* The cxi knobs for this side; see cxd_cxi_prepare. */
static int knobs(struct cxd_sess *s, const char *provider,
		 const struct cxd_cxi_reported *rep)
{
	return cxd_cxi_prepare(&s->env0, &s->cxi, s->tool, s->run,
			       &s->cfg->local, provider, rep, s->err,
			       sizeof(s->err));
}

static int open_side(struct cxd_sess *s)
{
	struct cxd_fabric_req req = { 0 };
	struct cxd_cxi_reported rep;
	char host[128] = "";
	int ret = knobs(s, s->run->provider, NULL);

	if (ret)
		return ret;
	if (s->sync)
		snprintf(host, sizeof(host), "%s", s->sync->src_host);
	else if (!s->loopback)
		cxd_ctrl_local_host(&s->ctrl, host, sizeof(host));
	req.provider = s->run->provider;
	req.domain = s->cfg->local.device;
	req.src_host = host;
	req.caps = s->ops->caps;
	req.cxi = &s->cxi;
	ret = cxd_sess_mem_open(s, &req.caps);
	if (ret == 0) {
		ret = cxd_fabric_open(&req, &s->fab, s->err, sizeof(s->err));
		cxd_sig_install(); /* again: the shm provider installs its own */
	}
	if (ret == 0 && s->cxi.cxi) {
		cxd_fabric_cxi_reported(s->fab, &rep);
		ret = knobs(s, s->run->provider, &rep);
	}
	if (ret == 0)
		ret = cxd_sess_mem_register(s);
	return ret;
}

static int fill_addr(struct cxd_sess *s, struct cxd_addr_msg *m)
{
	size_t alen = sizeof(m->addr);
	int ret;

	memset(m, 0, sizeof(*m));
	ret = cxd_fabric_getname(s->fab, m->addr, &alen, s->err,
				 sizeof(s->err));
	if (ret)
		return ret;
	m->addr_len = (uint32_t) alen;
	snprintf(m->provider, sizeof(m->provider), "%s", s->run->provider);
	snprintf(m->domain, sizeof(m->domain), "%s",
		 s->fab->info->domain_attr->name);
	m->key = s->rx_mr.key;
	m->rx_len = s->rx.map_len;
	m->tx_gpu = s->cfg->local.tx_gpu;
	m->rx_gpu = s->cfg->local.rx_gpu;
	m->gpu_type = s->gpu ? s->gpu->type : CXD_GPU_NONE;
	m->gpu_count = s->gpu ? (uint32_t) s->gpu->ndev : 0;
	m->uid = (uint32_t) geteuid();
	if (s->fab->mr_mode & FI_MR_VIRT_ADDR)
		m->rx_base = (uint64_t) (uintptr_t) s->rx.ptr;
	return 0;
}

int cxd_sess_open_sync(struct cxd_sess *s, struct cxd_addr_msg *mine)
{
	int ret = open_side(s);

	if (ret == 0)
		ret = fill_addr(s, mine);
	if (ret == 0)
		ret = cxd_sess_prepare(s);
	return ret;
}

static int send_addr(struct cxd_sess *s)
{
	struct cxd_addr_msg m;
	uint8_t buf[CXD_MAX_PAYLOAD];
	int ret = fill_addr(s, &m);

	if (ret)
		return ret;
	if (s->loopback) {
		s->peer = m;
		return 0;
	}
	return send_msg(s, CXD_MSG_ADDR, buf,
			cxd_enc_addr(&m, buf, sizeof(buf)));
}

static int recv_addr(struct cxd_sess *s)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret = cxd_wait_msg(s, CXD_MSG_ADDR, buf, sizeof(buf), &len);

	if (ret)
		return ret;
	if (cxd_dec_addr(buf, len, &s->peer) != 0)
		return cxd_sess_fail(s, -EPROTO, "the %s %s sent a malformed "
				     "address during the address exchange",
				     s->ctrl.peer_role, s->ctrl.peer);
	if (strcmp(s->peer.provider, s->run->provider) != 0)
		return cxd_sess_fail(s, -EPROTO, "the %s %s opened provider "
				     "'%s', this side '%s'", s->ctrl.peer_role,
				     s->ctrl.peer, s->peer.provider,
				     s->run->provider);
	return 0;
}

#define SHM_SAME_USER "with shm both sides must run as the same user: run " \
	"both as the same user, or use --provider tcp"

/* shm maps the peer's memory, which only the same user may do; the
 * providers say EINVAL (1.17) or never move data (2.x): check first. */
static int add_peer(struct cxd_sess *s)
{
	bool shm = !s->loopback && strcmp(s->run->provider, "shm") == 0;
	size_t n;
	int ret;

	if (shm && s->peer.uid != (uint32_t) geteuid())
		return cxd_sess_fail(s, -EPERM, "the %s %s runs as user %u and "
				     "this side as user %u; " SHM_SAME_USER,
				     s->ctrl.peer_role, s->ctrl.peer,
				     s->peer.uid, (unsigned) geteuid());
	ret = cxd_fabric_add_peer(s->fab, s->peer.addr, s->err,
				  sizeof(s->err));
	n = strlen(s->err);
	if (ret && shm)
		snprintf(s->err + n, sizeof(s->err) - n, " (" SHM_SAME_USER
			 ")");
	return ret;
}

/* Open the fabric, swap addresses (client first), let the op prepare. */
static int exchange_addrs(struct cxd_sess *s)
{
	int ret = open_side(s);

	cxd_phase(s, "the address exchange");
	if (ret == 0 && s->is_client)
		ret = send_addr(s);
	if (ret == 0 && !s->loopback)
		ret = recv_addr(s);
	if (ret == 0 && !s->is_client && !s->loopback)
		ret = send_addr(s);
	if (ret == 0)
		ret = add_peer(s);
	return ret;
}

int cxd_sess_prepare(struct cxd_sess *s)
{
	cxd_phase(s, "the buffer setup");
	cxd_buf_touch(&s->tx);
	cxd_buf_touch(&s->rx);
	return s->ops->setup ? s->ops->setup(s) : 0;
}

static int client_options(struct cxd_sess *s)
{
	struct cxd_accept acc;
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_phase(s, "the option exchange");
	ret = knobs(s, s->cfg->local.provider, NULL);
	if (ret)
		return ret;
	if (s->cfg->local.provider[0])
		cxd_fabric_core_name(s->cfg->local.provider,
				     s->cfg->run.provider, CXD_NAME_LEN);
	else if ((ret = cxd_fabric_pick(s->ops->caps,
					cxd_ctrl_same_host(&s->ctrl),
					s->cfg->run.provider, CXD_NAME_LEN,
					s->err, sizeof(s->err))) != 0)
		return ret;
	cxd_sig_install(); /* providers are loaded now: ours win */
	ret = check_memory(s, 0);
	if (ret)
		return ret;
	ret = send_msg(s, CXD_MSG_RUN, buf,
		       cxd_enc_run(&s->cfg->run, buf, sizeof(buf)));
	if (ret)
		return ret;
	ret = cxd_ctrl_expect(&s->ctrl, CXD_MSG_ACCEPT, buf, sizeof(buf), &len,
			      -1);
	if (ret)
		return ctrl_fail(s, ret);
	if (cxd_dec_accept(buf, len, &acc) != 0)
		return cxd_sess_fail(s, -EPROTO, "the server %s sent a "
				     "malformed reply during the option "
				     "exchange", s->ctrl.peer);
	if (acc.status != 0)
		return cxd_sess_fail(s, acc.status, "the server %s refused the "
				     "run: %s", s->ctrl.peer, acc.reason);
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
	ret = check_memory(s, 0);
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

	cxd_phase(s, cxd_hs_phase(hs));
	ms = now >= deadline ? 0 : (int) ((deadline - now) / 1000000ULL);
	ret = cxd_ctrl_recv(&s->ctrl, &type, buf, sizeof(buf), &len, ms);
	/* Bytes that are not our framing before any HELLO: an HTTP health
	 * check or a scanner, not a client; drop it like a silent one. */
	if (ret == -EPROTO && hs->state == CXD_HS_HELLO)
		return CXD_STRAY;
	if (ret)
		return ctrl_fail(s, ret);
	ret = cxd_hs_step(hs, type, buf, len, &reply);
	if (ret)
		snprintf(s->err, sizeof(s->err), "%s", hs->err);
	if (hs->have_run)
		s->cfg->run = hs->run;
	if (reply.type == 0)
		return ret;
	/* A lost reply is the connection's error, whatever the verdict. */
	sent = send_msg(s, reply.type, reply.buf, reply.len);
	return ret ? ret : sent;
}

/* The server's side, judged frame by frame by handshake.c. */
static int server_handshake(struct cxd_sess *s)
{
	char mine[CXD_NAME_LEN];
	struct cxd_hs_cfg cfg = {
		.tool = s->tool, .peer_role = s->ctrl.peer_role,
		.peer = s->ctrl.peer, .provider = mine,
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
			ret = cxd_ctrl_hb_start(&s->ctrl);
	}
	return ret;
}

int cxd_sess_client(struct cxd_sess *s)
{
	int ret;

	s->is_client = true;
	s->active = true;
	ret = cxd_ctrl_connect(s->cfg->local.host, s->cfg->local.port,
			       CXD_CONNECT_TIMEOUT_MS, &s->ctrl, s->err,
			       sizeof(s->err));
	if (ret == 0) {
		s->ctrl.idle_ms = (int) s->timeout_ms;
		cxd_set_inflight(s, 0);
		ret = handshake(s);
	}
	if (ret == 0)
		ret = client_options(s);
	if (ret == 0)
		ret = exchange_addrs(s);
	return ret;
}

/* One client that completes a valid HELLO: strays are dropped, noted on
 * stderr, and the server goes on listening. */
static int accept_client(struct cxd_sess *s, int lfd)
{
	int ret;

	for (;;) {
		ret = cxd_ctrl_accept(lfd, -1, &s->ctrl, s->err,
				      sizeof(s->err));
		if (ret)
			return ret;
		s->ctrl.idle_ms = (int) s->timeout_ms;
		s->ctrl.busy_lfd = lfd;
		cxd_set_inflight(s, 0);
		ret = server_handshake(s);
		if (ret != CXD_STRAY)
			return ret;
		fprintf(stderr, "%s: dropped a connection that sent no valid "
			"handshake: %s; still listening\n", s->tool->name,
			s->ctrl.err);
		fflush(stderr);
		cxd_ctrl_close(&s->ctrl);
		s->err[0] = '\0';
	}
}

int cxd_sess_server(struct cxd_sess *s, int lfd)
{
	int ret;

	s->is_client = false;
	ret = accept_client(s, lfd);
	s->active = cxd_side_active(s->tool, s->run, false);
	if (ret == 0)
		ret = exchange_addrs(s);
	return ret;
}

int cxd_sess_loopback(struct cxd_sess *s)
{
	s->is_client = true;
	s->active = true;
	s->loopback = true;
	s->ctrl.fd = -1;
	s->ctrl.hb_pipe[0] = s->ctrl.hb_pipe[1] = -1;
	s->ctrl.peer_role = "endpoint";
	snprintf(s->ctrl.peer, sizeof(s->ctrl.peer), "(itself)");
	if (knobs(s, s->cfg->local.provider, NULL) != 0)
		return -EINVAL;
	if (s->cfg->local.provider[0])
		cxd_fabric_core_name(s->cfg->local.provider,
				     s->cfg->run.provider, CXD_NAME_LEN);
	else if (cxd_fabric_pick(s->ops->caps, true, s->cfg->run.provider,
				 CXD_NAME_LEN, s->err, sizeof(s->err)) != 0)
		return -ENODATA;
	return exchange_addrs(s);
}

void cxd_sess_close(struct cxd_sess *s)
{
	if (s->ops && s->ops->teardown && s->fab)
		s->ops->teardown(s);
	cxd_fabric_mr_close(&s->rx_mr);
	cxd_fabric_mr_close(&s->tx_mr);
	cxd_fabric_close(s->fab);
	s->fab = NULL;
	cxd_sess_mem_close(s);
	if (!s->loopback)
		cxd_ctrl_close(&s->ctrl);
}

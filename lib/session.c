/* The shared flow of a run: handshake, option and address exchange, barriers. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "cxd/amo.h"
#include "cxd/session.h"

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

/* Peek at a buffered frame: an ERROR from the peer ends the wait now. */
static int pending_peer_error(struct cxd_sess *s)
{
	struct cxd_hdr h;
	char tmp[128];
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint16_t type;
	uint32_t len;
	int ret;

	if (cxd_hdr_decode(s->ctrl.rx, &h, tmp, sizeof(tmp)) != 0 ||
	    h.type != CXD_MSG_ERROR)
		return 0;
	ret = cxd_ctrl_recv(&s->ctrl, &type, buf, sizeof(buf), &len, 0);
	return ctrl_fail(s, ret ? ret : -EPROTO);
}

int cxd_stall_check(struct cxd_sess *s, uint64_t *last_change_ns,
		    const char *what)
{
	uint64_t now = cxd_now_ns();
	int ret;

	cxd_ctrl_beat(&s->ctrl);
	if (now - *last_change_ns < 100000000ULL)
		return 0;
	/* Stalled for 100 ms: is the peer still there? */
	if (!s->loopback) {
		ret = cxd_ctrl_poll(&s->ctrl);
		if (ret < 0)
			return ctrl_fail(s, ret);
		if (ret == 1 && (ret = pending_peer_error(s)) != 0)
			return ret;
	}
	if (now - *last_change_ns > CXD_STALL_MS * 1000000ULL)
		return cxd_sess_fail(s, -ETIMEDOUT, "no %s completed for %d s "
				     "during %s: the %s %s or the fabric path "
				     "stopped responding", what,
				     CXD_STALL_MS / 1000, s->ctrl.phase ?
				     s->ctrl.phase : "the run",
				     s->ctrl.peer_role ? s->ctrl.peer_role :
				     "peer", s->ctrl.peer);
	return 0;
}

static int tx_error(struct cxd_sess *s)
{
	char msg[256];

	cxd_fabric_tx_error(s->fab, msg, sizeof(msg));
	return cxd_sess_fail(s, -EIO, "during %s: %s", s->ctrl.phase ?
			     s->ctrl.phase : "the run", msg);
}

int cxd_wait_cntr(struct cxd_sess *s)
{
	struct fid_cntr *c = s->fab->tx_cntr;
	uint64_t v, last = 0, changed = cxd_now_ns();
	unsigned spins = 0;
	int ret;

	cxd_ctrl_beat(&s->ctrl);
	while ((v = fi_cntr_read(c)) < s->cntr_target) {
		if (++spins & 1023)
			continue;
		if (fi_cntr_readerr(c) != s->cntr_errs)
			return tx_error(s);
		if (v != last) {
			last = v;
			changed = cxd_now_ns();
		}
		ret = cxd_stall_check(s, &changed, "operation");
		if (ret)
			return ret;
	}
	return 0;
}

int cxd_post_retry(struct cxd_sess *s, uint64_t size, uint64_t loff,
		   uint64_t roff)
{
	uint64_t since = 0;
	unsigned spins = 0;
	int ret;

	while ((ret = s->post(s, size, loff, roff)) == -FI_EAGAIN) {
		/* Queue full: completions free slots; bound the wait. */
		s->ops->progress(s);
		if (++spins & 1023)
			continue;
		if (since == 0)
			since = cxd_now_ns();
		ret = cxd_stall_check(s, &since, "operation");
		if (ret)
			return ret;
	}
	if (ret != 0)
		return cxd_sess_fail(s, ret, "posting a %llu-byte %s failed "
				     "during %s: %s", (unsigned long long) size,
				     s->tool->noun_lower, s->ctrl.phase ?
				     s->ctrl.phase : "the run",
				     fi_strerror(-ret));
	return 0;
}

int cxd_post_list(struct cxd_sess *s, uint64_t size, uint64_t n)
{
	uint64_t base = s->op_flags;
	int ret = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = cxd_next_off(s);

		/* The iteration ends when the target has the last operation.
		 * Where plain completion is local (tcp) operations travel in
		 * order, so the target then has all of them. */
		if (i == n - 1)
			s->op_flags = base | s->last_flags;
		ret = s->post(s, size, off, off);
		if (ret && (ret = cxd_post_retry(s, size, off, off)) != 0)
			break;
	}
	s->op_flags = base;
	if (ret)
		return ret;
	s->cntr_target += n;
	return cxd_wait_cntr(s);
}

int cxd_post_one(struct cxd_sess *s, uint64_t size)
{
	int ret = s->post(s, size, 0, 0);

	if (ret && (ret = cxd_post_retry(s, size, 0, 0)) != 0)
		return ret;
	s->cntr_target++;
	return cxd_wait_cntr(s);
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

static int version_mismatch(const char *a, const char *b)
{
	const char *da = strchr(a, '.'), *db = strchr(b, '.');

	/* MAJ.MIN must match; the revision may differ. */
	da = da ? strchr(da + 1, '.') : NULL;
	db = db ? strchr(db + 1, '.') : NULL;
	if (!da || !db || da - a != db - b)
		return strcmp(a, b) != 0;
	return strncmp(a, b, (size_t) (da - a)) != 0;
}

static int check_hello(struct cxd_sess *s, const uint8_t *buf, uint32_t len)
{
	struct cxd_hello h;

	if (cxd_dec_hello(buf, len, &h) != 0)
		return cxd_sess_fail(s, -EPROTO, "the %s %s sent a malformed "
				     "hello during the handshake",
				     s->ctrl.peer_role, s->ctrl.peer);
	if (strcmp(h.program, s->tool->name) != 0)
		return cxd_sess_fail(s, -EPROTO, "Client and server program "
				     "names do not match! The %s %s runs '%s'"
				     ", this side runs '%s'", s->ctrl.peer_role,
				     s->ctrl.peer, h.program, s->tool->name);
	if (version_mismatch(h.version, CXD_SUITE_VERSION))
		return cxd_sess_fail(s, -EPROTO, "Client and server program "
				     "versions do not match! The %s %s has %s "
				     "%s, this side %s", s->ctrl.peer_role,
				     s->ctrl.peer, h.program, h.version,
				     CXD_SUITE_VERSION);
	return 0;
}

static int send_hello(struct cxd_sess *s)
{
	struct cxd_hello h;
	uint8_t buf[256];

	memset(&h, 0, sizeof(h));
	snprintf(h.program, sizeof(h.program), "%s", s->tool->name);
	snprintf(h.version, sizeof(h.version), "%s", CXD_SUITE_VERSION);
	return send_msg(s, CXD_MSG_HELLO, buf,
			cxd_enc_hello(&h, buf, sizeof(buf)));
}

static int handshake(struct cxd_sess *s)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_phase(s, "the handshake");
	if (s->is_client && (ret = send_hello(s)) != 0)
		return ret;
	ret = cxd_ctrl_expect(&s->ctrl, CXD_MSG_HELLO, buf, sizeof(buf), &len,
			      -1);
	if (ret)
		return ctrl_fail(s, ret);
	ret = check_hello(s, buf, len);
	if (ret == 0 && !s->is_client)
		ret = send_hello(s);
	if (ret == 0)
		ret = cxd_ctrl_hb_start(&s->ctrl);
	return ret;
}

static bool side_active(const struct cxd_sess *s, bool client_side)
{
	if (client_side)
		return true;
	if (s->tool->pattern == CXD_PAT_LAT)
		return s->tool->op == CXD_OP_SEND; /* ping-pong */
	return cxd_run_has(s->run, CXD_RUN_BIDIR);
}

/* Bytes of the data region, sized as the originals size it. */
static uint64_t data_len(const struct cxd_sess *s)
{
	const struct cxd_run_opts *r = s->run;
	uint64_t step, len;

	if (s->tool->op == CXD_OP_ATOMIC)
		return 64 * r->list_size;
	if (s->tool->pattern != CXD_PAT_BW)
		return r->max_size;
	step = cxd_roundup(r->max_size, r->buf_align);
	if (step == 0 || step > UINT64_MAX / r->list_size)
		return r->buf_sz;
	len = step * r->list_size;
	return len < r->buf_sz ? len : r->buf_sz;
}

static void plan_memory(const struct cxd_sess *s, uint64_t *tx_p,
			uint64_t *rx_p)
{
	bool me = side_active(s, s->is_client);
	bool peer = s->loopback || side_active(s, !s->is_client);
	bool two_sided = s->tool->op == CXD_OP_SEND;
	uint64_t len = data_len(s);

	*tx_p = (me || two_sided) ? len : 0;
	/* Fetching atomics land their results behind the operands. */
	if (*tx_p && cxd_run_has(s->run, CXD_RUN_FETCHING))
		*tx_p *= 2;
	*rx_p = (peer || two_sided) ? len : 0;
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
	pages = cxd_pages_needed(tx, hp) + cxd_pages_needed(rx, hp);
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

static int register_buffers(struct cxd_sess *s)
{
	uint64_t tx, rx;
	int hp = (int) s->run->hugepages, ret = 0;

	plan_memory(s, &tx, &rx);
	if (tx)
		ret = cxd_buf_alloc(tx, hp, 0xA5, &s->tx, s->err,
				    sizeof(s->err));
	if (ret == 0 && rx)
		ret = cxd_buf_alloc(rx, hp, 0, &s->rx, s->err, sizeof(s->err));
	if (ret == 0 && tx)
		ret = cxd_fabric_mr_reg(s->fab, s->tx.ptr, s->tx.map_len, 1,
					&s->tx_mr, s->err, sizeof(s->err));
	if (ret == 0 && rx)
		ret = cxd_fabric_mr_reg(s->fab, s->rx.ptr, s->rx.map_len, 2,
					&s->rx_mr, s->err, sizeof(s->err));
	s->wrap = data_len(s);
	return ret;
}

static int open_side(struct cxd_sess *s)
{
	struct cxd_fabric_req req = { 0 };
	char host[128] = "";
	int ret;

	if (!s->loopback)
		cxd_ctrl_local_host(&s->ctrl, host, sizeof(host));
	req.provider = s->run->provider;
	req.domain = s->cfg->local.device;
	req.src_host = host;
	req.caps = s->ops->caps;
	ret = cxd_fabric_open(&req, &s->fab, s->err, sizeof(s->err));
	if (ret == 0)
		ret = register_buffers(s);
	return ret;
}

static int send_addr(struct cxd_sess *s)
{
	struct cxd_addr_msg m;
	uint8_t buf[CXD_MAX_PAYLOAD];
	size_t alen = sizeof(m.addr);
	int ret;

	memset(&m, 0, sizeof(m));
	ret = cxd_fabric_getname(s->fab, m.addr, &alen, s->err,
				 sizeof(s->err));
	if (ret)
		return ret;
	m.addr_len = (uint32_t) alen;
	snprintf(m.provider, sizeof(m.provider), "%s", s->run->provider);
	snprintf(m.domain, sizeof(m.domain), "%s",
		 s->fab->info->domain_attr->name);
	m.key = s->rx_mr.key;
	m.rx_len = s->rx.map_len;
	if (s->fab->mr_mode & FI_MR_VIRT_ADDR)
		m.rx_base = (uint64_t) (uintptr_t) s->rx.ptr;
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
		ret = cxd_fabric_add_peer(s->fab, s->peer.addr, s->err,
					  sizeof(s->err));
	if (ret == 0 && s->ops->setup)
		ret = s->ops->setup(s);
	return ret;
}

static int client_options(struct cxd_sess *s)
{
	struct cxd_accept acc;
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_phase(s, "the option exchange");
	if (s->cfg->local.provider[0])
		cxd_fabric_core_name(s->cfg->local.provider,
				     s->cfg->run.provider, CXD_NAME_LEN);
	else if ((ret = cxd_fabric_pick(s->ops->caps,
					cxd_ctrl_same_host(&s->ctrl),
					s->cfg->run.provider, CXD_NAME_LEN,
					s->err, sizeof(s->err))) != 0)
		return ret;
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

/* The client's run options, checked as if typed on our command line. */
static int judge_options(struct cxd_sess *s, const uint8_t *buf, uint32_t len)
{
	struct cxd_run_opts run;
	char mine[CXD_NAME_LEN];
	int ret;

	if (cxd_dec_run(buf, len, &run) != 0)
		return cxd_sess_fail(s, -EPROTO, "the client %s sent malformed "
				     "run options", s->ctrl.peer);
	ret = cxd_run_validate(s->tool, &run, s->err, sizeof(s->err));
	if (ret)
		return ret;
	cxd_fabric_core_name(s->cfg->local.provider, mine, sizeof(mine));
	if (mine[0] && strcmp(mine, run.provider) != 0)
		return cxd_sess_fail(s, -EINVAL, "the client chose provider "
				     "'%s' but this server was started with "
				     "--provider %s", run.provider, mine);
	if (run.provider[0] == '\0')
		return cxd_sess_fail(s, -EINVAL, "the client named no provider");
	s->cfg->run = run;
	return check_memory(s, s->cfg->local.max_mem);
}

static int server_options(struct cxd_sess *s)
{
	struct cxd_accept acc;
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint32_t len;
	int ret;

	cxd_phase(s, "the option exchange");
	ret = cxd_ctrl_expect(&s->ctrl, CXD_MSG_RUN, buf, sizeof(buf), &len,
			      -1);
	if (ret)
		return ctrl_fail(s, ret);
	ret = judge_options(s, buf, len);
	memset(&acc, 0, sizeof(acc));
	acc.status = ret;
	if (ret)
		snprintf(acc.reason, sizeof(acc.reason), "%s", s->err);
	len = 0;
	if (send_msg(s, CXD_MSG_ACCEPT, buf,
		     cxd_enc_accept(&acc, buf, sizeof(buf))) != 0 && ret == 0)
		return -ECONNRESET;
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
	if (ret == 0)
		ret = handshake(s);
	if (ret == 0)
		ret = client_options(s);
	if (ret == 0)
		ret = exchange_addrs(s);
	return ret;
}

int cxd_sess_server(struct cxd_sess *s, int lfd)
{
	int ret;

	s->is_client = false;
	ret = cxd_ctrl_accept(lfd, -1, &s->ctrl, s->err, sizeof(s->err));
	if (ret)
		return ret;
	ret = handshake(s);
	if (ret == 0)
		ret = server_options(s);
	s->active = side_active(s, false);
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
	cxd_buf_free(&s->rx);
	cxd_buf_free(&s->tx);
	if (!s->loopback)
		cxd_ctrl_close(&s->ctrl);
}

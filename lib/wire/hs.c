/* SPDX-License-Identifier: BSD-3-Clause */
/* hs: the server's handshake, the pre-fabric protocol as a pure state
 * machine (see hs.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hs.h"
#include "base/sizes.h"
#include "base/op_facts.h"

static int hs_fail(struct cxd_hs *hs, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int hs_fail(struct cxd_hs *hs, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(hs->err, sizeof(hs->err), fmt, ap);
	va_end(ap);
	hs->state = CXD_HS_FAILED;
	return ret;
}

/* A check that wrote its own sentence into hs->err. */
static int keep_fail(struct cxd_hs *hs, int ret)
{
	if (hs->err[0] == '\0')
		snprintf(hs->err, sizeof(hs->err), "the run options were "
			 "refused");
	hs->state = CXD_HS_FAILED;
	return ret;
}

/* ---- Shared pieces */

bool cxd_version_mismatch(const char *a, const char *b)
{
	const char *da = strchr(a, '.'), *db = strchr(b, '.');

	/* MAJ.MIN must match; the revision may differ. */
	da = da ? strchr(da + 1, '.') : NULL;
	db = db ? strchr(db + 1, '.') : NULL;
	if (!da || !db || da - a != db - b)
		return strcmp(a, b) != 0;
	return strncmp(a, b, (size_t) (da - a)) != 0;
}

ssize_t cxd_hs_enc_hello(const char *program, uint8_t *buf, size_t cap)
{
	struct cxd_hello h;

	memset(&h, 0, sizeof(h));
	snprintf(h.program, sizeof(h.program), "%s", program);
	snprintf(h.version, sizeof(h.version), "%s", CXD_SUITE_VERSION);
	return cxd_enc_hello(&h, buf, cap);
}

int cxd_hs_check_hello(const char *program, const char *peer_role,
		       const char *peer, const uint8_t *payload, uint32_t len,
		       char *err, size_t errlen)
{
	struct cxd_hello h;

	if (cxd_dec_hello(payload, len, &h) != 0) {
		snprintf(err, errlen, "the %s %s sent a malformed hello during "
			 "the handshake", peer_role, peer);
		return -EPROTO;
	}
	if (strcmp(h.program, program) != 0) {
		snprintf(err, errlen, "Client and server program names do not "
			 "match! The %s %s runs '%s', this side runs '%s'",
			 peer_role, peer, h.program, program);
		return -EPROTO;
	}
	if (cxd_version_mismatch(h.version, CXD_SUITE_VERSION)) {
		snprintf(err, errlen, "Client and server program versions do "
			 "not match! The %s %s has %s %s, this side %s",
			 peer_role, peer, h.program, h.version,
			 CXD_SUITE_VERSION);
		return -EPROTO;
	}
	return 0;
}

/* ---- The buffer plan */

bool cxd_side_active(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, bool client_side)
{
	if (client_side)
		return true;
	if (cxd_tool_is(tool, CXD_TRAIT_SAMPLES))
		return cxd_tool_is(tool, CXD_TRAIT_PING_PONG);
	return cxd_run_has(run, CXD_RUN_BIDIR);
}

/* Bytes of the data region, sized as the originals size it. */
uint64_t cxd_data_len(const struct cxd_tool *tool,
		      const struct cxd_run_opts *r)
{
	uint64_t step, len;

	if (cxd_tool_facts(tool)->slot)
		return cxd_tool_facts(tool)->slot * r->list_size;
	if (!cxd_tool_is(tool, CXD_TRAIT_LISTS))
		return r->max_size;
	step = cxd_roundup(r->max_size, r->buf_align);
	if (step == 0 || step > UINT64_MAX / r->list_size)
		return r->buf_sz;
	len = step * r->list_size;
	return len < r->buf_sz ? len : r->buf_sz;
}

void cxd_plan_memory(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, bool is_client,
		     bool both_roles, uint64_t *tx_p, uint64_t *rx_p)
{
	bool me = cxd_side_active(tool, run, is_client);
	bool peer = both_roles || cxd_side_active(tool, run, !is_client);
	bool two_sided = cxd_tool_facts(tool)->two_sided;
	uint64_t len = cxd_data_len(tool, run);

	*tx_p = (me || two_sided) ? len : 0;
	/* Fetching atomics land their results behind the operands. */
	if (*tx_p && cxd_run_has(run, CXD_RUN_FETCHING))
		*tx_p = *tx_p > UINT64_MAX / 2 ? UINT64_MAX : *tx_p * 2;
	*rx_p = (peer || two_sided) ? len : 0;
}

/* ---- The server's state machine */

void cxd_hs_init(struct cxd_hs *hs, const struct cxd_hs_cfg *cfg)
{
	memset(hs, 0, sizeof(*hs));
	hs->cfg = cfg;
	hs->state = CXD_HS_HELLO;
	snprintf(hs->who, sizeof(hs->who), "the %s %s",
		 cfg->peer_role ? cfg->peer_role : "peer",
		 cfg->peer ? cfg->peer : "");
}

const char *cxd_hs_phase(const struct cxd_hs *hs)
{
	return hs->state == CXD_HS_HELLO ? "the handshake"
					 : "the option exchange";
}

uint16_t cxd_hs_wants(const struct cxd_hs *hs)
{
	if (hs->state == CXD_HS_HELLO)
		return CXD_MSG_HELLO;
	return hs->state == CXD_HS_RUN ? CXD_MSG_RUN : 0;
}

static int take_hello(struct cxd_hs *hs, const uint8_t *p, uint32_t len,
		      struct cxd_hs_reply *reply)
{
	const struct cxd_hs_cfg *c = hs->cfg;
	int ret;

	ret = cxd_hs_check_hello(c->tool->name, c->peer_role, c->peer, p, len,
				 hs->err, sizeof(hs->err));
	if (ret)
		return keep_fail(hs, ret);
	reply->type = CXD_MSG_HELLO;
	reply->len = cxd_hs_enc_hello(c->tool->name, reply->buf,
				      sizeof(reply->buf));
	hs->state = CXD_HS_RUN;
	return 0;
}

/* Bytes mapped for a len-byte buffer: whole pages of the kind in use. */
static uint64_t mapped(uint64_t len, uint32_t hugepages)
{
	uint64_t pages = cxd_pages_needed(len, (int) hugepages);
	uint64_t psz = cxd_hp_size((int) hugepages);

	return pages > UINT64_MAX / psz ? UINT64_MAX : pages * psz;
}

/* The memory this server would map (what --max-mem limits): huge pages
 * count whole, so a 2M-page run cannot pass as a few bytes. Saturates. */
static uint64_t server_need(const struct cxd_hs *hs)
{
	uint64_t tx, rx;

	cxd_plan_memory(hs->cfg->tool, &hs->run, false, false, &tx, &rx);
	tx = tx ? mapped(tx, hs->run.hugepages) : 0;
	rx = rx ? mapped(rx, hs->run.hugepages) : 0;
	return tx > UINT64_MAX - rx ? UINT64_MAX : tx + rx;
}

/* The client's run options, checked as if typed on our command line. */
static int judge_run(struct cxd_hs *hs, const uint8_t *p, uint32_t len)
{
	const struct cxd_hs_cfg *c = hs->cfg;
	const char *mine = c->provider ? c->provider : "";
	struct cxd_run_opts run;
	uint64_t need;
	int ret;

	if (cxd_dec_run(p, len, &run) != 0)
		return hs_fail(hs, -EPROTO, "%s sent malformed run options",
			       hs->who);
	ret = cxd_run_validate(c->tool, &run, hs->err, sizeof(hs->err));
	if (ret)
		return keep_fail(hs, ret);
	if (mine[0] && strcmp(mine, run.provider) != 0)
		return hs_fail(hs, -EINVAL, "the client chose provider '%s' "
			       "but this server was started with --provider "
			       "%s", run.provider, mine);
	if (run.provider[0] == '\0')
		return hs_fail(hs, -EINVAL, "the client named no provider");
	hs->run = run;
	hs->have_run = true;
	need = server_need(hs);
	if (c->max_mem && need > c->max_mem)
		return hs_fail(hs, -E2BIG, "this run needs %llu bytes of buffer "
			       "memory on the server, over its limit of %llu "
			       "(--max-mem)", (unsigned long long) need,
			       (unsigned long long) c->max_mem);
	if (c->local_check &&
	    (ret = c->local_check(c->arg, &hs->run, hs->err,
				  sizeof(hs->err))) != 0)
		return keep_fail(hs, ret < 0 ? ret : -EINVAL);
	return 0;
}

/* A verdict always goes back, so the client can say why it was refused. */
static int take_run(struct cxd_hs *hs, const uint8_t *p, uint32_t len,
		    struct cxd_hs_reply *reply)
{
	struct cxd_accept acc;
	int ret = judge_run(hs, p, len);

	memset(&acc, 0, sizeof(acc));
	acc.status = ret;
	if (ret)
		snprintf(acc.reason, sizeof(acc.reason), "%s", hs->err);
	else
		hs->state = CXD_HS_DONE;
	reply->type = CXD_MSG_ACCEPT;
	reply->len = cxd_enc_accept(&acc, reply->buf, sizeof(reply->buf));
	return ret;
}

/* What the control channel does with these before a caller sees them. */
static int take_other(struct cxd_hs *hs, uint16_t type, const uint8_t *p,
		      uint32_t len)
{
	char text[CXD_TEXT_LEN];

	if (type == CXD_MSG_HEARTBEAT)
		return 0; /* proof of life only */
	if (type == CXD_MSG_ERROR) {
		if (cxd_dec_text(p, len, text, sizeof(text)) != 0)
			snprintf(text, sizeof(text), "(unreadable error text)");
		return hs_fail(hs, -EREMOTEIO, "%s reported: %s", hs->who,
			       text);
	}
	return hs_fail(hs, -EPROTO, "%s sent %s during %s, expected %s",
		       hs->who, cxd_msg_name(type),
		       cxd_hs_phase(hs), cxd_msg_name(cxd_hs_wants(hs)));
}

int cxd_hs_step(struct cxd_hs *hs, uint16_t type, const uint8_t *payload,
		uint32_t len, struct cxd_hs_reply *reply)
{
	reply->type = 0;
	reply->len = 0;
	if (hs->state == CXD_HS_DONE || hs->state == CXD_HS_FAILED) {
		/* A caller bug, not the peer's: no state change, and the
		 * sentence of a failure stays the one that ended it. */
		if (hs->state == CXD_HS_DONE)
			snprintf(hs->err, sizeof(hs->err), "the handshake is "
				 "already over");
		return -EINVAL;
	}
	if (len > CXD_MAX_PAYLOAD)
		return hs_fail(hs, -EPROTO, "%s sent a %u-byte %s message "
			       "during %s, more than the %u expected", hs->who,
			       len,
			       cxd_msg_name(type), cxd_hs_phase(hs),
			       (unsigned) CXD_MAX_PAYLOAD);
	if (type == cxd_hs_wants(hs) && type == CXD_MSG_HELLO)
		return take_hello(hs, payload, len, reply);
	if (type == cxd_hs_wants(hs))
		return take_run(hs, payload, len, reply);
	return take_other(hs, type, payload, len);
}

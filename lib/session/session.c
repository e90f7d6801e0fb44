/* The session's errors, phases and control messages: barriers, waits. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "base/signals.h"
#include "base/testaid.h"
#include "sess_priv.h"

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
	cxd_ctrl_set_phase(&s->ctrl, phase);
	if (cxd_testaid_phase)
		cxd_testaid_phase(s->tool->name, phase);
}

int cxd_sess_ctrl_fail(struct cxd_sess *s, int ret)
{
	snprintf(s->err, sizeof(s->err), "%s", s->ctrl.err);
	return ret;
}

int cxd_sess_send(struct cxd_sess *s, uint16_t type, const uint8_t *buf,
		  ssize_t len)
{
	int ret;

	if (len < 0)
		return cxd_sess_fail(s, (int) len, "cannot encode a %s message",
				     cxd_msg_name(type));
	ret = cxd_ctrl_send(&s->ctrl, type, buf, (uint32_t) len);
	return ret ? cxd_sess_ctrl_fail(s, ret) : 0;
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
			return cxd_sess_ctrl_fail(s, ret);
		if (ret == 1)
			break;
	}
	ret = cxd_ctrl_expect(&s->ctrl, type, buf, cap, len_p, -1);
	return ret ? cxd_sess_ctrl_fail(s, ret) : 0;
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
		ret = cxd_sess_send(s, CXD_MSG_BARRIER, buf,
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
		return cxd_sess_send(s, CXD_MSG_BARRIER, buf,
				cxd_enc_barrier(s->barrier_seq, buf,
						sizeof(buf)));
	return 0;
}

int cxd_share_result(struct cxd_sess *s, const struct cxd_result_msg *mine,
		     struct cxd_result_msg *peer)
{
	uint8_t buf[64];
	uint32_t len;
	int ret;

	memset(peer, 0, sizeof(*peer));
	if (s->sync)
		return s->sync->share(s, mine, peer);
	if (s->loopback)
		return 0;
	ret = cxd_ctrl_send(&s->ctrl, CXD_MSG_RESULT, buf,
			    (uint32_t) cxd_enc_result(mine, buf, sizeof(buf)));
	if (ret)
		return cxd_sess_fail(s, ret, "%s", s->ctrl.err);
	ret = cxd_wait_msg(s, CXD_MSG_RESULT, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	if (cxd_dec_result(buf, len, peer) != 0 || peer->size != mine->size)
		return cxd_sess_fail(s, -EPROTO, "the %s %s sent results for "
				     "another size during %s",
				     s->ctrl.peer_role, s->ctrl.peer,
				     s->ctrl.phase);
	return 0;
}

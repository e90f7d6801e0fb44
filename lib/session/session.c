/* SPDX-License-Identifier: BSD-3-Clause */
/* The session's errors, phases, and the peer calls every runner makes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

void cxd_sess_enter(struct cxd_sess *s, const char *phase)
{
	s->phase = phase;
	s->via->enter(s, phase); /* the channel's heartbeat thread names it */
	if (cxd_testaid_phase)
		cxd_testaid_phase(s->tool->name, phase);
}

int cxd_sess_barrier(struct cxd_sess *s, const char *phase)
{
	cxd_sess_enter(s, phase);
	return s->via->barrier(s, phase);
}

int cxd_sess_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		   struct cxd_result_msg *peer)
{
	memset(peer, 0, sizeof(*peer));
	return s->via->share(s, mine, peer);
}

int cxd_sess_report(struct cxd_sess *s, struct cxd_report *rep,
		    const struct cxd_result *res)
{
	(void) s;
	return cxd_report_result(rep, res);
}

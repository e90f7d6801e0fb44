/* SPDX-License-Identifier: BSD-3-Clause */
/* The peer is the process itself: the loopback tool writes to its own
 * NIC, so there is nobody to wait for, tell or hear from. */
#include <stdio.h>

#include "sess_priv.h"

/* No one to wait for or to hear from. */
static int self_barrier(struct cxd_sess *s, const char *phase)
{
	(void) phase;
	return cxd_peer_nothing(s);
}

/* The other side timed nothing: the caller's zeroed figures stand. */
static int self_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		      struct cxd_result_msg *theirs)
{
	(void) mine;
	(void) theirs;
	return cxd_peer_nothing(s);
}

static int self_swap_addr(struct cxd_sess *s, const struct cxd_addr_msg *mine,
			  struct cxd_addr_msg *theirs)
{
	(void) s;
	*theirs = *mine;
	return 0;
}

/* The hooks a way without a separate peer process has nothing to do in;
 * cxi_sweep's MPI peer uses them too. */
int cxd_peer_nothing(struct cxd_sess *s)
{
	(void) s;
	return 0;
}

void cxd_peer_no_tell(struct cxd_sess *s, const char *text)
{
	(void) s;
	(void) text;
}

void cxd_peer_no_watch(struct cxd_sess *s, void (*on_fatal)(void *arg),
		       void *arg)
{
	(void) s;
	(void) on_fatal;
	(void) arg;
}

void cxd_peer_no_enter(struct cxd_sess *s, const char *phase)
{
	(void) s;
	(void) phase;
}

void cxd_peer_no_beat(struct cxd_sess *s)
{
	(void) s;
}

void cxd_peer_no_allow(struct cxd_sess *s, uint64_t ms)
{
	(void) s;
	(void) ms;
}

const char *cxd_peer_no_name(const struct cxd_sess *s)
{
	(void) s;
	return "";
}

/* JSON "peer" (summary.c): the loopback tool's peer is itself. */
static const char *self_name(const struct cxd_sess *s)
{
	(void) s;
	return "(itself)";
}

void cxd_peer_any_host(const struct cxd_sess *s, char *buf, size_t len)
{
	(void) s;
	if (len)
		buf[0] = '\0';
}

void cxd_peer_no_close(struct cxd_sess *s)
{
	(void) s;
}

const struct cxd_peer_ops cxd_peer_self = {
	.both_roles = true, .separate = false,
	.barrier = self_barrier, .share = self_share,
	.swap_addr = self_swap_addr, .result = cxd_sess_report,
	.name = self_name, CXD_PEER_QUIET_HOOKS,
};

int cxd_sess_loopback(struct cxd_sess *s)
{
	int ret;

	s->via = &cxd_peer_self;
	s->is_client = true;
	s->active = true;
	s->who = "the endpoint (itself)";
	ret = cxd_sess_pick_provider(s, true);
	return ret ? ret : cxd_sess_exchange_addrs(s);
}

/* The peer is the process itself: the loopback tool writes to its own
 * NIC, so there is nobody to wait for, tell or hear from. */
#include <stdio.h>

#include "sess_priv.h"

static int self_barrier(struct cxd_sess *s, const char *phase)
{
	(void) s;
	(void) phase;
	return 0;
}

/* The other side timed nothing: the caller's zeroed figures stand. */
static int self_share(struct cxd_sess *s, const struct cxd_result_msg *mine,
		      struct cxd_result_msg *theirs)
{
	(void) s;
	(void) mine;
	(void) theirs;
	return 0;
}

static int self_swap_addr(struct cxd_sess *s, const struct cxd_addr_msg *mine,
			  struct cxd_addr_msg *theirs)
{
	(void) s;
	*theirs = *mine;
	return 0;
}

static int self_none(struct cxd_sess *s)
{
	(void) s;
	return 0;
}

static void self_tell(struct cxd_sess *s, const char *text)
{
	(void) s;
	(void) text;
}

static void self_watch(struct cxd_sess *s, void (*on_fatal)(void *arg),
		       void *arg)
{
	(void) s;
	(void) on_fatal;
	(void) arg;
}

static void self_src_host(const struct cxd_sess *s, char *buf, size_t len)
{
	(void) s;
	if (len)
		buf[0] = '\0';
}

static void self_close(struct cxd_sess *s)
{
	(void) s;
}

const struct cxd_peer_ops cxd_peer_self = {
	.both_roles = true,
	.separate = false,
	.barrier = self_barrier,
	.share = self_share,
	.swap_addr = self_swap_addr,
	.result = cxd_sess_report,
	.check = self_none,
	.why = self_none,
	.tell = self_tell,
	.watch = self_watch,
	.src_host = self_src_host,
	.close = self_close,
};

int cxd_sess_loopback(struct cxd_sess *s)
{
	int ret;

	s->via = &cxd_peer_self;
	s->is_client = true;
	s->active = true;
	/* JSON "peer" (summary.c) */
	snprintf(s->ctrl.peer, sizeof(s->ctrl.peer), "(itself)");
	s->who = "the endpoint (itself)";
	ret = cxd_sess_pick_provider(s, true);
	return ret ? ret : cxd_sess_exchange_addrs(s);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Name resolution within the connect deadline. getaddrinfo() has no
 * timeout of its own (a resolver that never answers holds it for the
 * resolver's retries), so names go through getaddrinfo_a and we wait only
 * as long as the deadline allows. Numeric addresses need no resolver.
 */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "ctrl_priv.h"
#include "base/signals.h"

struct lookup {
	struct gaicb cb;
	struct addrinfo hints;
	char *host, *svc;
};

static void lookup_free(struct lookup *l)
{
	free(l->host);
	free(l->svc);
	free(l);
}

/* Wait for the lookup until deadline: 0 when it has finished. */
static int lookup_wait(struct lookup *l, uint64_t deadline)
{
	const struct gaicb *list[1] = { &l->cb };
	struct timespec ts;
	int ms, ret;

	while ((ret = gai_error(&l->cb)) == EAI_INPROGRESS) {
		if (cxd_sig_pending())
			return -EINTR;
		ms = cxd_ms_left(deadline, cxd_now_ns());
		if (ms == 0)
			return -ETIMEDOUT;
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long) (ms % 1000) * 1000000L;
		(void) gai_suspend(list, 1, &ts);
	}
	return 0;
}

int cxd_resolve(const char *host, const char *svc,
		const struct addrinfo *hints, uint64_t deadline,
		struct addrinfo **res_p, int *gai_p)
{
	struct addrinfo numeric = *hints;
	struct gaicb *list[1];
	struct lookup *l;
	int ret;

	*res_p = NULL;
	*gai_p = 0;
	numeric.ai_flags |= AI_NUMERICHOST;
	if (getaddrinfo(host, svc, &numeric, res_p) == 0)
		return 0;
	l = calloc(1, sizeof(*l));
	if (l == NULL || (l->host = strdup(host)) == NULL ||
	    (l->svc = strdup(svc)) == NULL) {
		if (l)
			lookup_free(l);
		return -ENOMEM;
	}
	l->hints = *hints;
	l->cb.ar_name = l->host;
	l->cb.ar_service = l->svc;
	l->cb.ar_request = &l->hints;
	list[0] = &l->cb;
	ret = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
	if (ret) {
		*gai_p = ret;
		lookup_free(l);
		return -EHOSTUNREACH;
	}
	ret = lookup_wait(l, deadline);
	/* A lookup the library cannot cancel still owns l: leave it (the
	 * process is about to report the failure and exit). */
	if (ret && gai_cancel(&l->cb) == EAI_NOTCANCELED)
		return ret;
	if (ret == 0 && (*gai_p = gai_error(&l->cb)) == 0)
		*res_p = l->cb.ar_result;
	else if (ret == 0)
		ret = -EHOSTUNREACH;
	lookup_free(l);
	return ret;
}

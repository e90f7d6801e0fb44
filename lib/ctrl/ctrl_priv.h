/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internal to the control channel, its lowest layer: the peer's name,
 * messages and the bounded fd wait (ctrl_base.c, resolve.c); deadlines
 * come from base/clock.h. The layers
 * above, each using only those below it:
 *   ctrl_io.c    framing, sending, receiving      (ctrl_io.h)
 *   ctrl_watch.c the heartbeat thread, watchdog   (uses ctrl_io.h)
 *   ctrl.c       connections: listen, accept, connect, close
 * Not part of the library's interface.
 */
#ifndef CXD_CTRL_PRIV_H
#define CXD_CTRL_PRIV_H

#include <stdint.h>

#include "base/clock.h"
#include "ctrl.h"

static inline const char *role_of(const struct cxd_ctrl *c)
{
	return c->peer_role ? c->peer_role : "peer";
}

/* "the server 127.0.0.1:49194", composed when the connection is set up. */
static inline const char *who_of(const struct cxd_ctrl *c)
{
	return c->who[0] ? c->who : "the peer";
}

static inline const char *phase_of(const struct cxd_ctrl *c)
{
	const char *phase = cxd_ctrl_phase(c);

	return phase ? phase : "the handshake";
}

__attribute__((format(printf, 3, 4))) void
cxd_ctrl_seterr(char *err, size_t errlen, const char *fmt, ...);
struct addrinfo;
/* Resolve host within deadline: 0 (free *res_p with freeaddrinfo),
 * -ETIMEDOUT, -EINTR, or -EHOSTUNREACH with *gai_p the resolver's code. */
int cxd_resolve(const char *host, const char *svc,
		const struct addrinfo *hints, uint64_t deadline,
		struct addrinfo **res_p, int *gai_p);
/* poll() one fd for events until deadline: 0, -ETIMEDOUT or -errno. */
int cxd_ctrl_wait_fd(int fd, short events, uint64_t deadline);

#endif

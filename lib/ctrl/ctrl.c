/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel over TCP: listening, connecting, closing, who the ends
 * are. The top layer (see ctrl_priv.h): framing is in ctrl_io.c, the
 * heartbeat thread and watchdog in ctrl_watch.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctrl_io.h"
#include "base/signals.h"

#define LISTEN_BACKLOG 10

/* ---- Addresses */

/* Show an IPv4-mapped IPv6 address (dual-stack server) as plain IPv4. */
static socklen_t unmap(const struct sockaddr_storage *in,
		       struct sockaddr_storage *out)
{
	const struct sockaddr_in6 *s6 = (const void *) in;
	struct sockaddr_in *s4 = (void *) out;

	memset(out, 0, sizeof(*out));
	if (in->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		s4->sin_family = AF_INET;
		s4->sin_port = s6->sin6_port;
		memcpy(&s4->sin_addr, &s6->sin6_addr.s6_addr[12], 4);
		return sizeof(*s4);
	}
	if (in->ss_family == AF_INET6) {
		memcpy(out, in, sizeof(struct sockaddr_in6));
		return sizeof(struct sockaddr_in6);
	}
	memcpy(out, in, sizeof(struct sockaddr_in));
	return sizeof(struct sockaddr_in);
}

static int numeric_host(const struct sockaddr_storage *ss, char *buf,
			size_t len, unsigned *port, bool *v6)
{
	struct sockaddr_storage u;
	socklen_t ulen = unmap(ss, &u);
	const struct sockaddr_in *s4 = (const void *) &u;
	const struct sockaddr_in6 *s6 = (const void *) &u;

	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (port)
		*port = ntohs(u.ss_family == AF_INET ? s4->sin_port
						     : s6->sin6_port);
	if (v6)
		*v6 = u.ss_family == AF_INET6;
	return getnameinfo((const struct sockaddr *) &u, ulen, buf,
			   (socklen_t) len, NULL, 0, NI_NUMERICHOST)
		       ? -EINVAL
		       : 0;
}

/* "127.0.0.1:49194" or "[::1]:49194". */
static void addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[NI_MAXHOST];
	unsigned port = 0;
	bool v6 = false;

	if (numeric_host(ss, host, sizeof(host), &port, &v6) != 0)
		snprintf(host, sizeof(host), "?");
	snprintf(buf, len, v6 ? "[%s]:%u" : "%s:%u", host, port);
}

static void ai_str(const struct addrinfo *ai, char *buf, size_t len)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, ai->ai_addr,
	       ai->ai_addrlen < sizeof(ss) ? ai->ai_addrlen : sizeof(ss));
	addr_str(&ss, buf, len);
}

/* ---- Listen */

static int listen_on(const struct addrinfo *ai, bool dual, int *lfd_p)
{
	int fd, one = 1, zero = 0, e;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	/* Non-blocking: a client that vanishes after poll() must not hang
	 * accept(). */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (dual &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) ||
	    listen(fd, LISTEN_BACKLOG)) {
		e = errno;
		close(fd);
		return -e;
	}
	*lfd_p = fd;
	return 0;
}

/* Resolve node (NULL = any) for family and listen on the first that works. */
static int try_listen(const char *node, const char *svc, int family, int *lfd_p,
		      char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	char where[160];
	int ret, gai;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	gai = getaddrinfo(node, svc, &hints, &res);
	if (gai) {
		cxd_ctrl_seterr(err, errlen,
				"cannot resolve listen address '%s': %s",
				node ? node : "", gai_strerror(gai));
		return -EADDRNOTAVAIL;
	}
	ret = -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		ret = listen_on(ai, node == NULL && ai->ai_family == AF_INET6,
				lfd_p);
		if (ret == 0)
			break;
		ai_str(ai, where, sizeof(where));
		cxd_ctrl_seterr(err, errlen, "cannot listen on %s: %s", where,
				strerror(-ret));
	}
	freeaddrinfo(res);
	return ret;
}

static uint32_t sock_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	const struct sockaddr_in *s4 = (const void *) &ss;
	const struct sockaddr_in6 *s6 = (const void *) &ss;

	if (getsockname(fd, (struct sockaddr *) &ss, &len) != 0)
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? s6->sin6_port : s4->sin_port);
}

int cxd_ctrl_listen(const char *bind, uint32_t port, int *lfd_p,
		    uint32_t *port_p, char *err, size_t errlen)
{
	char svc[16];
	int ret;

	*lfd_p = -1;
	if (port > 65535) {
		cxd_ctrl_seterr(err, errlen,
				"port %u is out of range (0-65535)", port);
		return -EINVAL;
	}
	snprintf(svc, sizeof(svc), "%u", port);
	if (bind && bind[0]) {
		ret = try_listen(bind, svc, AF_UNSPEC, lfd_p, err, errlen);
	} else {
		/* Any: one dual-stack IPv6 socket serves both families. A
		 * busy port stays an error: IPv4 alone would half work. */
		ret = try_listen(NULL, svc, AF_INET6, lfd_p, err, errlen);
		if (ret && ret != -EADDRINUSE)
			ret = try_listen(NULL, svc, AF_INET, lfd_p, err,
					 errlen);
	}
	if (ret == 0 && port_p)
		*port_p = sock_port(*lfd_p); /* the real one when port is 0 */
	return ret;
}

/* ---- Connection set-up */

/*
 * Make c safe to close whatever happens next. c may be uninitialised
 * memory, so nothing in it is kept (the caller sets phase afterwards).
 */
static void ctrl_reset(struct cxd_ctrl *c, const char *role)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->hb_pipe[0] = c->hb_pipe[1] = -1;
	c->hb_running = false;
	c->idle_ms = CXD_IDLE_TIMEOUT_MS;
	c->allow_ms = CXD_WATCHDOG_MS;
	c->busy_lfd = -1;
	for (unsigned i = 0; i < sizeof(c->busy) / sizeof(c->busy[0]); i++)
		c->busy[i] = -1;
	c->peer_role = role;
	cxd_ctrl_set_phase(c, NULL);
}

/* Takes fd over: on failure it is closed. */
static int ctrl_setup(struct cxd_ctrl *c, int fd, char *err, size_t errlen)
{
	int one = 1, fl, e;

	c->local_len = sizeof(c->local_addr);
	c->peer_len = sizeof(c->peer_addr);
	fl = fcntl(fd, F_GETFL);
	if (getsockname(fd, (struct sockaddr *) &c->local_addr,
			&c->local_len) ||
	    getpeername(fd, (struct sockaddr *) &c->peer_addr, &c->peer_len) ||
	    fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK)) {
		e = errno;
		close(fd);
		cxd_ctrl_seterr(err, errlen,
				"cannot set up the connection to the %s: "
				"%s",
				c->peer_role, strerror(e));
		return e == ENOTCONN ? -ECONNRESET : -e;
	}
	/* Control frames are small and latency matters: no Nagle. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	addr_str(&c->peer_addr, c->peer, sizeof(c->peer));
	snprintf(c->who, sizeof(c->who), "the %s %s",
		 c->peer_role ? c->peer_role : "peer", c->peer);
	pthread_mutex_init(&c->send_lock, NULL);
	c->fd = fd;
	c->rx_have = 0;
	/* The connection itself is a sign of life. */
	c->last_rx_ns = cxd_now_ns();
	return 0;
}

int cxd_ctrl_accept(int lfd, int timeout_ms, struct cxd_ctrl *c, char *err,
		    size_t errlen)
{
	uint64_t deadline = cxd_deadline_in(timeout_ms);
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	int n, fd, e;

	ctrl_reset(c, "client");
	for (;;) {
		n = poll(&p, 1, timeout_ms < 0 ? -1 :
			 cxd_ms_left(deadline, cxd_now_ns()));
		if (n < 0 && errno == EINTR && cxd_sig_pending()) {
			cxd_ctrl_seterr(err, errlen, "interrupted by %s while "
					"waiting for a client",
					cxd_sig_name(cxd_sig_pending()));
			return -EINTR;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			cxd_ctrl_seterr(err, errlen,
					"cannot wait for a client: %s",
					strerror(e));
			return -e;
		}
		if (n == 0) {
			cxd_ctrl_seterr(err, errlen,
					"no client connected to port %u "
					"within %d ms",
					sock_port(lfd), timeout_ms);
			return -ETIMEDOUT;
		}
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			return ctrl_setup(c, fd, err, errlen);
		/* The client may have given up between poll and accept. */
		e = errno;
		if (e != EAGAIN && e != EWOULDBLOCK && e != EINTR &&
		    e != ECONNABORTED && e != EPROTO) {
			cxd_ctrl_seterr(err, errlen,
					"cannot accept a client: %s",
					strerror(e));
			return -e;
		}
	}
}

static int connect_one(const struct addrinfo *ai, uint64_t deadline, int *fd_p)
{
	int fd, e = 0, ret;
	socklen_t elen = sizeof(e);

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
		*fd_p = fd;
		return 0;
	}
	ret = errno == EINPROGRESS ? cxd_ctrl_wait_fd(fd, POLLOUT, deadline)
				   : -errno;
	if (ret == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen))
		ret = -errno;
	else if (ret == 0)
		ret = -e;
	if (ret) {
		close(fd);
		return ret;
	}
	*fd_p = fd;
	return 0;
}

static void connect_err(int ret, const char *where, int timeout_ms, char *err,
			size_t errlen)
{
	if (ret == -EINTR)
		cxd_ctrl_seterr(err, errlen, "interrupted by %s while "
				"connecting to server %s",
				cxd_sig_name(cxd_sig_pending()), where);
	else if (ret == -ETIMEDOUT)
		cxd_ctrl_seterr(err, errlen,
				"cannot connect to server %s: no answer "
				"within %d ms (wrong address, or a firewall?)",
				where, timeout_ms);
	else
		cxd_ctrl_seterr(
			err, errlen, "cannot connect to server %s: %s%s", where,
			strerror(-ret),
			ret == -ECONNREFUSED ? " (is the server running?)"
					     : "");
}

int cxd_ctrl_connect(const char *host, uint32_t port, int timeout_ms,
		     struct cxd_ctrl *c, char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	char svc[16], where[160];
	int ret = -EHOSTUNREACH, gai, fd = -1;
	uint64_t deadline;

	ctrl_reset(c, "server");
	if (timeout_ms < 0)
		timeout_ms = CXD_CONNECT_TIMEOUT_MS; /* never wait forever */
	deadline = cxd_deadline_in(timeout_ms);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(svc, sizeof(svc), "%u", port);
	ret = cxd_resolve(host, svc, &hints, deadline, &res, &gai);
	if (ret == -ETIMEDOUT)
		cxd_ctrl_seterr(err, errlen, "cannot resolve '%s': no answer "
				"from the resolver within %d ms", host,
				timeout_ms);
	else if (ret == -EINTR)
		cxd_ctrl_seterr(err, errlen, "interrupted by %s while "
				"resolving '%s'",
				cxd_sig_name(cxd_sig_pending()), host);
	else if (ret)
		cxd_ctrl_seterr(err, errlen, "cannot resolve '%s': %s", host,
				gai ? gai_strerror(gai) : strerror(-ret));
	if (ret)
		return ret == -ETIMEDOUT ? -EHOSTUNREACH : ret;
	cxd_ctrl_seterr(err, errlen, "cannot connect to server %s:%u", host,
			port);
	/* Each address gets what is left of the one overall timeout. */
	for (ai = res; ai; ai = ai->ai_next) {
		ret = connect_one(ai, deadline, &fd);
		if (ret == 0)
			break;
		ai_str(ai, where, sizeof(where));
		connect_err(ret, where, timeout_ms, err, errlen);
	}
	freeaddrinfo(res);
	if (ret)
		return ret;
	if (err && errlen)
		err[0] = '\0'; /* connected: no stale text for later failures */
	return ctrl_setup(c, fd, err, errlen);
}

/* ---- Where the ends are */

int cxd_ctrl_local_host(const struct cxd_ctrl *c, char *buf, size_t len)
{
	if (c->local_len == 0)
		return -ENOTCONN;
	return numeric_host(&c->local_addr, buf, len, NULL, NULL);
}

/* a and b already unmapped. */
static bool same_ip(const struct sockaddr_storage *a,
		    const struct sockaddr_storage *b)
{
	const struct sockaddr_in *a4 = (const void *) a, *b4 = (const void *) b;
	const struct sockaddr_in6 *a6 = (const void *) a;
	const struct sockaddr_in6 *b6 = (const void *) b;

	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	return a->ss_family == AF_INET6 &&
	       memcmp(&a6->sin6_addr, &b6->sin6_addr, 16) == 0;
}

static bool is_loopback(const struct sockaddr_storage *u)
{
	const struct sockaddr_in *s4 = (const void *) u;
	const struct sockaddr_in6 *s6 = (const void *) u;

	if (u->ss_family == AF_INET)
		return (ntohl(s4->sin_addr.s_addr) >> 24) == 127;
	return u->ss_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr);
}

static bool is_local_ifaddr(const struct sockaddr_storage *peer)
{
	struct ifaddrs *ifs, *i;
	struct sockaddr_storage ss, u;
	bool found = false;

	if (getifaddrs(&ifs) != 0)
		return false;
	for (i = ifs; i && !found; i = i->ifa_next) {
		if (i->ifa_addr == NULL || (i->ifa_addr->sa_family != AF_INET &&
					    i->ifa_addr->sa_family != AF_INET6))
			continue;
		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, i->ifa_addr,
		       i->ifa_addr->sa_family == AF_INET
			       ? sizeof(struct sockaddr_in)
			       : sizeof(struct sockaddr_in6));
		unmap(&ss, &u);
		found = same_ip(&u, peer);
	}
	freeifaddrs(ifs);
	return found;
}

bool cxd_ctrl_same_host(const struct cxd_ctrl *c)
{
	struct sockaddr_storage l, p;

	if (c->local_len == 0 || c->peer_len == 0)
		return false;
	unmap(&c->local_addr, &l);
	unmap(&c->peer_addr, &p);
	return same_ip(&l, &p) || (is_loopback(&l) && is_loopback(&p)) ||
	       is_local_ifaddr(&p);
}

/* ---- Closing */

void cxd_ctrl_close(struct cxd_ctrl *c)
{
	cxd_ctrl_hb_stop(c);
	/* send_lock exists exactly while fd does (see ctrl_setup). */
	if (c->fd >= 0) {
		if (c->sent_error)
			cxd_ctrl_close_gently(c->fd);
		else
			close(c->fd);
		c->fd = -1;
		pthread_mutex_destroy(&c->send_lock);
	}
	c->rx_have = 0;
}

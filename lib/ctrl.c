/* Control channel over TCP: framed, non-blocking, every wait bounded. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cxd/ctrl.h"

#define NS_PER_MS 1000000ULL
#define SEND_ERROR_MS 500 /* a goodbye must not delay the exit */
#define LISTEN_BACKLOG 10

/* ---- Small helpers */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

/* Milliseconds to deadline, rounded up so poll() never wakes too early. */
static int ms_left(uint64_t deadline, uint64_t now)
{
	uint64_t ms;

	if (deadline <= now)
		return 0;
	ms = (deadline - now + NS_PER_MS - 1) / NS_PER_MS;
	return ms > INT_MAX ? INT_MAX : (int) ms;
}

static uint64_t deadline_in(int ms)
{
	return now_ns() + (uint64_t) (ms < 0 ? 0 : ms) * NS_PER_MS;
}

__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *role_of(const struct cxd_ctrl *c)
{
	return c->peer_role ? c->peer_role : "peer";
}

static const char *phase_of(const struct cxd_ctrl *c)
{
	return c->phase ? c->phase : "the handshake";
}

/* ---- Addresses */

/* Show an IPv4-mapped IPv6 address (dual-stack server) as plain IPv4. */
static socklen_t unmap(const struct sockaddr_storage *in,
		       struct sockaddr_storage *out)
{
	const struct sockaddr_in6 *s6 = (const void *) in;
	struct sockaddr_in *s4 = (void *) out;

	memset(out, 0, sizeof(*out));
	if (in->ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
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
		*port = ntohs(u.ss_family == AF_INET ? s4->sin_port :
						       s6->sin6_port);
	if (v6)
		*v6 = u.ss_family == AF_INET6;
	return getnameinfo((const struct sockaddr *) &u, ulen, buf,
			   (socklen_t) len, NULL, 0, NI_NUMERICHOST) ? -EINVAL
								     : 0;
}

/* "127.0.0.1:49194" or "[::1]:49194". */
static void addr_str(const struct sockaddr_storage *ss, char *buf,
		     size_t len)
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
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen < sizeof(ss) ?
				 ai->ai_addrlen : sizeof(ss));
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
	    (dual && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
				sizeof(zero))) ||
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
static int try_listen(const char *node, const char *svc, int family,
		      int *lfd_p, char *err, size_t errlen)
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
		seterr(err, errlen, "cannot resolve listen address '%s': %s",
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
		seterr(err, errlen, "cannot listen on %s: %s", where,
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
		seterr(err, errlen, "port %u is out of range (0-65535)", port);
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
	c->peer_role = role;
	c->phase = NULL;
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
	    getpeername(fd, (struct sockaddr *) &c->peer_addr,
			&c->peer_len) ||
	    fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK)) {
		e = errno;
		close(fd);
		seterr(err, errlen, "cannot set up the connection to the %s: "
		       "%s", c->peer_role, strerror(e));
		return e == ENOTCONN ? -ECONNRESET : -e;
	}
	/* Control frames are small and latency matters: no Nagle. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	addr_str(&c->peer_addr, c->peer, sizeof(c->peer));
	pthread_mutex_init(&c->send_lock, NULL);
	c->fd = fd;
	c->rx_have = 0;
	c->last_rx_ns = now_ns(); /* the connection itself is a sign of life */
	return 0;
}

int cxd_ctrl_accept(int lfd, int timeout_ms, struct cxd_ctrl *c, char *err,
		    size_t errlen)
{
	uint64_t deadline = deadline_in(timeout_ms);
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	int n, fd, e;

	ctrl_reset(c, "client");
	for (;;) {
		n = poll(&p, 1, timeout_ms < 0 ? -1 : ms_left(deadline,
							       now_ns()));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			seterr(err, errlen, "cannot wait for a client: %s",
			       strerror(e));
			return -e;
		}
		if (n == 0) {
			seterr(err, errlen, "no client connected to port %u "
			       "within %d ms", sock_port(lfd), timeout_ms);
			return -ETIMEDOUT;
		}
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			return ctrl_setup(c, fd, err, errlen);
		/* The client may have given up between poll and accept. */
		e = errno;
		if (e != EAGAIN && e != EWOULDBLOCK && e != EINTR &&
		    e != ECONNABORTED && e != EPROTO) {
			seterr(err, errlen, "cannot accept a client: %s",
			       strerror(e));
			return -e;
		}
	}
}

static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	for (;;) {
		n = poll(&p, 1, ms_left(deadline, now_ns()));
		if (n > 0)
			return 0; /* errors and hang-ups surface in the next call */
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

static int connect_one(const struct addrinfo *ai, uint64_t deadline,
		       int *fd_p)
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
	ret = errno == EINPROGRESS ? wait_fd(fd, POLLOUT, deadline) : -errno;
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

static void connect_err(int ret, const char *where, int timeout_ms,
			char *err, size_t errlen)
{
	if (ret == -ETIMEDOUT)
		seterr(err, errlen, "cannot connect to server %s: no answer "
		       "within %d ms (wrong address, or a firewall?)", where,
		       timeout_ms);
	else
		seterr(err, errlen, "cannot connect to server %s: %s%s", where,
		       strerror(-ret), ret == -ECONNREFUSED ?
		       " (is the server running?)" : "");
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
	deadline = deadline_in(timeout_ms);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(svc, sizeof(svc), "%u", port);
	gai = getaddrinfo(host, svc, &hints, &res);
	if (gai) {
		seterr(err, errlen, "cannot resolve '%s': %s", host,
		       gai_strerror(gai));
		return -EHOSTUNREACH;
	}
	seterr(err, errlen, "cannot connect to server %s:%u", host, port);
	/* Each address gets what is left of the one overall timeout. */
	for (ai = res; ai; ai = ai->ai_next) {
		ret = connect_one(ai, deadline, &fd);
		if (ret == 0)
			break;
		ai_str(ai, where, sizeof(where));
		connect_err(ret, where, timeout_ms, err, errlen);
	}
	freeaddrinfo(res);
	return ret ? ret : ctrl_setup(c, fd, err, errlen);
}

/* ---- Sending: the heartbeat thread shares the socket, hence the lock. */

static int send_all(int fd, const uint8_t *p, size_t n, uint64_t deadline)
{
	ssize_t k;
	int ret;

	while (n > 0) {
		k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k > 0) {
			p += k;
			n -= (size_t) k;
			continue;
		}
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return errno == EPIPE || errno == ECONNRESET ?
			       -ECONNRESET : -errno;
		ret = wait_fd(fd, POLLOUT, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/* No messages here: the heartbeat thread must not touch c->err. */
static int send_frame(struct cxd_ctrl *c, uint16_t type, const void *payload,
		      uint32_t len, int timeout_ms)
{
	uint8_t frame[CXD_HDR_LEN + CXD_MAX_PAYLOAD];
	struct cxd_hdr h = { .magic = CXD_PROTO_MAGIC,
			     .version = CXD_PROTO_VERSION,
			     .type = type, .len = len };
	uint64_t deadline = deadline_in(timeout_ms);
	struct timespec abs;
	int ret;

	if (c->fd < 0)
		return -ENOTCONN;
	if (len > CXD_MAX_PAYLOAD || (len && payload == NULL))
		return -EMSGSIZE;
	cxd_hdr_encode(&h, frame);
	if (len)
		memcpy(frame + CXD_HDR_LEN, payload, len);
	/* The lock wait is bounded too: the other sender may be stuck. */
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_sec += timeout_ms / 1000;
	abs.tv_nsec += (long) (timeout_ms % 1000) * 1000000L;
	if (abs.tv_nsec >= 1000000000L) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000L;
	}
	ret = pthread_mutex_timedlock(&c->send_lock, &abs);
	if (ret)
		return -ret;
	ret = send_all(c->fd, frame, CXD_HDR_LEN + len, deadline);
	pthread_mutex_unlock(&c->send_lock);
	return ret;
}

int cxd_ctrl_send(struct cxd_ctrl *c, uint16_t type, const void *payload,
		  uint32_t len)
{
	int ret;

	cxd_ctrl_beat(c);
	ret = send_frame(c, type, payload, len, CXD_IDLE_TIMEOUT_MS);
	if (ret == -ETIMEDOUT)
		seterr(c->err, sizeof(c->err), "the %s %s stopped reading "
		       "during %s (could not send for %d s)", role_of(c),
		       c->peer, phase_of(c), CXD_IDLE_TIMEOUT_MS / 1000);
	else if (ret == -ECONNRESET)
		seterr(c->err, sizeof(c->err), "the %s %s closed the "
		       "connection during %s", role_of(c), c->peer,
		       phase_of(c));
	else if (ret == -EMSGSIZE)
		seterr(c->err, sizeof(c->err), "cannot send a %u-byte %s "
		       "message (the limit is %d)", len, cxd_msg_name(type),
		       CXD_MAX_PAYLOAD);
	else if (ret)
		seterr(c->err, sizeof(c->err), "cannot send to the %s %s "
		       "during %s: %s", role_of(c), c->peer, phase_of(c),
		       strerror(-ret));
	return ret;
}

void cxd_ctrl_send_error(struct cxd_ctrl *c, const char *text)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	ssize_t len = cxd_enc_text(text, buf, sizeof(buf));

	if (c->fd >= 0 && len >= 0)
		(void) send_frame(c, CXD_MSG_ERROR, buf, (uint32_t) len,
				  SEND_ERROR_MS);
}

/* ---- Receiving: c->rx always starts at a frame boundary. */

static void rx_drop(struct cxd_ctrl *c, uint32_t n)
{
	memmove(c->rx, c->rx + n, c->rx_have - n);
	c->rx_have -= n;
}

static int rx_garbage(struct cxd_ctrl *c, const char *why)
{
	seterr(c->err, sizeof(c->err), "the %s %s sent garbage during %s: %s",
	       role_of(c), c->peer, phase_of(c), why);
	return -EPROTO;
}

/* 1: a whole frame is at the front; 0: not yet; -EPROTO: garbage. */
static int rx_check(struct cxd_ctrl *c, struct cxd_hdr *h)
{
	static const uint8_t magic[4] = { 0x43, 0x58, 0x44, 0x47 };
	uint8_t head[CXD_HDR_LEN] = { 0 };
	char why[128];

	/* Check the magic byte by byte so a foreign peer is caught at once
	 * rather than after the idle timeout. */
	memcpy(head, c->rx, c->rx_have < CXD_HDR_LEN ? c->rx_have
						     : CXD_HDR_LEN);
	if (memcmp(c->rx, magic, c->rx_have < 4 ? c->rx_have : 4) != 0) {
		if (c->rx_have < 4)
			return rx_garbage(c, "bad magic (not a cxi diagnostics "
					  "peer?)");
		cxd_hdr_decode(head, h, why, sizeof(why));
		return rx_garbage(c, why);
	}
	if (c->rx_have < CXD_HDR_LEN)
		return 0;
	if (cxd_hdr_decode(head, h, why, sizeof(why)) != 0)
		return rx_garbage(c, why);
	return c->rx_have >= CXD_HDR_LEN + h->len ? 1 : 0;
}

/* Like rx_check, but heartbeats are consumed: they only prove life. */
static int rx_next(struct cxd_ctrl *c, struct cxd_hdr *h)
{
	int ret;

	while ((ret = rx_check(c, h)) == 1 && h->type == CXD_MSG_HEARTBEAT)
		rx_drop(c, CXD_HDR_LEN + h->len);
	return ret;
}

/* One non-blocking read: >0 bytes, 0 nothing there, <0 error or EOF. */
static int rx_read(struct cxd_ctrl *c)
{
	size_t room = sizeof(c->rx) - c->rx_have;
	ssize_t n;
	int e;

	if (room == 0) /* cannot happen: a full buffer holds a whole frame */
		return rx_garbage(c, "receive buffer overrun");
	do
		n = recv(c->fd, c->rx + c->rx_have, room, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		c->rx_have += (uint32_t) n;
		c->last_rx_ns = now_ns();
		return (int) n;
	}
	e = n == 0 ? 0 : errno;
	if (e == EAGAIN || e == EWOULDBLOCK)
		return 0;
	if (e == 0 || e == ECONNRESET || e == EPIPE) {
		seterr(c->err, sizeof(c->err), "the %s %s closed the "
		       "connection during %s", role_of(c), c->peer,
		       phase_of(c));
		return -ECONNRESET;
	}
	seterr(c->err, sizeof(c->err), "the connection to the %s %s failed "
	       "during %s: %s", role_of(c), c->peer, phase_of(c), strerror(e));
	return -e;
}

static int rx_idle(struct cxd_ctrl *c, uint64_t now)
{
	if (now - c->last_rx_ns < CXD_IDLE_TIMEOUT_MS * NS_PER_MS)
		return 0;
	seterr(c->err, sizeof(c->err), "the %s %s stopped responding during "
	       "%s (nothing received for %d s)", role_of(c), c->peer,
	       phase_of(c), CXD_IDLE_TIMEOUT_MS / 1000);
	return -ETIMEDOUT;
}

/* Wait for bytes until the idle limit or total (0 = none); 0 = go on. */
static int rx_wait(struct cxd_ctrl *c, uint64_t total, int timeout_ms)
{
	uint64_t now = now_ns();
	uint64_t limit = c->last_rx_ns + CXD_IDLE_TIMEOUT_MS * NS_PER_MS;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n, e;

	if (total && total < limit)
		limit = total;
	cxd_ctrl_beat(c);
	n = poll(&p, 1, ms_left(limit, now));
	if (n > 0) {
		n = rx_read(c);
		return n < 0 ? n : 0;
	}
	if (n < 0 && errno != EINTR) {
		e = errno;
		seterr(c->err, sizeof(c->err), "cannot wait for the %s %s: %s",
		       role_of(c), c->peer, strerror(e));
		return -e;
	}
	now = now_ns();
	if ((n = rx_idle(c, now)) != 0)
		return n;
	if (total && now >= total) {
		seterr(c->err, sizeof(c->err), "the %s %s sent nothing usable "
		       "during %s within %d ms", role_of(c), c->peer,
		       phase_of(c), timeout_ms);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Hand the front frame over (or turn it into the error it carries). */
static int rx_take(struct cxd_ctrl *c, const struct cxd_hdr *h,
		   uint16_t want, uint16_t *type_p, uint8_t *payload,
		   uint32_t cap, uint32_t *len_p)
{
	const uint8_t *pl = c->rx + CXD_HDR_LEN;
	char text[CXD_TEXT_LEN];
	int ret = 0;

	if (h->type == CXD_MSG_ERROR) {
		if (cxd_dec_text(pl, h->len, text, sizeof(text)) != 0)
			snprintf(text, sizeof(text), "(unreadable error text)");
		seterr(c->err, sizeof(c->err), "the %s %s reported: %s",
		       role_of(c), c->peer, text);
		ret = -EREMOTEIO;
	} else if (want && h->type != want) {
		ret = -EPROTO;
		seterr(c->err, sizeof(c->err), "the %s %s sent %s during %s, "
		       "expected %s", role_of(c), c->peer,
		       cxd_msg_name(h->type), phase_of(c), cxd_msg_name(want));
	} else if (h->len > cap) {
		ret = -EPROTO;
		seterr(c->err, sizeof(c->err), "the %s %s sent a %u-byte %s "
		       "message during %s, more than the %u expected",
		       role_of(c), c->peer, h->len, cxd_msg_name(h->type),
		       phase_of(c), cap);
	} else {
		if (h->len)
			memcpy(payload, pl, h->len);
		if (type_p)
			*type_p = h->type;
		if (len_p)
			*len_p = h->len;
	}
	rx_drop(c, CXD_HDR_LEN + h->len);
	return ret;
}

static int rx_frame(struct cxd_ctrl *c, uint16_t want, uint16_t *type_p,
		    uint8_t *payload, uint32_t cap, uint32_t *len_p,
		    int timeout_ms)
{
	uint64_t total = timeout_ms >= 0 ? deadline_in(timeout_ms) : 0;
	struct cxd_hdr h;
	int ret;

	if (c->fd < 0) {
		seterr(c->err, sizeof(c->err), "no connection to the %s",
		       role_of(c));
		return -ENOTCONN;
	}
	while ((ret = rx_next(c, &h)) == 0) {
		ret = rx_wait(c, total, timeout_ms);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	return rx_take(c, &h, want, type_p, payload, cap, len_p);
}

int cxd_ctrl_recv(struct cxd_ctrl *c, uint16_t *type_p, uint8_t *payload,
		  uint32_t cap, uint32_t *len_p, int timeout_ms)
{
	return rx_frame(c, 0, type_p, payload, cap, len_p, timeout_ms);
}

int cxd_ctrl_expect(struct cxd_ctrl *c, uint16_t want, uint8_t *payload,
		    uint32_t cap, uint32_t *len_p, int timeout_ms)
{
	return rx_frame(c, want, NULL, payload, cap, len_p, timeout_ms);
}

int cxd_ctrl_poll(struct cxd_ctrl *c)
{
	struct cxd_hdr h;
	int ret;

	if (c->fd < 0)
		return -ENOTCONN;
	/* Usually one recv() that finds nothing: cheap enough for hot loops. */
	for (;;) {
		ret = rx_next(c, &h);
		if (ret)
			return ret;
		ret = rx_read(c);
		if (ret < 0)
			return ret;
		if (ret == 0)
			return rx_idle(c, now_ns());
	}
}

/* ---- Heartbeat */

/* The main thread is stuck in a call that will never return: say so and
 * end the process, the one exit below main (see cxd_ctrl_watch). */
static void watchdog_fire(struct cxd_ctrl *c)
{
	const char *phase = __atomic_load_n(&c->phase, __ATOMIC_RELAXED);

	fprintf(stderr, "%s: no progress for %d s inside the fabric provider "
		"during %s: the %s %s probably died or froze while the two "
		"sides shared state; giving up\n", c->prog ? c->prog : "cxd",
		CXD_WATCHDOG_MS / 1000, phase ? phase : "the run", role_of(c),
		c->peer);
	_exit(1);
}

static void *hb_main(void *arg)
{
	struct cxd_ctrl *c = arg;
	struct pollfd p = { .fd = c->hb_pipe[0], .events = POLLIN };
	uint_fast64_t seen = atomic_load(&c->beat);
	int n, stale_ms = 0;
	bool sending = true;

	for (;;) {
		n = poll(&p, 1, CXD_HEARTBEAT_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 0)
			break; /* told to stop */
		/* A failed send means the peer is gone: the reader will say
		 * so with a better message than this thread could. Keep
		 * watching, though: the reader may never get to read. */
		if (sending && send_frame(c, CXD_MSG_HEARTBEAT, NULL, 0,
					  CXD_IDLE_TIMEOUT_MS) != 0)
			sending = false;
		if (!atomic_load(&c->watch) || atomic_load(&c->beat) != seen) {
			seen = atomic_load(&c->beat);
			stale_ms = 0;
		} else if ((stale_ms += CXD_HEARTBEAT_MS) >= CXD_WATCHDOG_MS) {
			watchdog_fire(c);
		}
	}
	return NULL;
}

void cxd_ctrl_watch(struct cxd_ctrl *c, const char *prog)
{
	c->prog = prog;
	cxd_ctrl_beat(c);
	atomic_store(&c->watch, true);
}

static void hb_close_pipe(struct cxd_ctrl *c)
{
	for (int i = 0; i < 2; i++) {
		if (c->hb_pipe[i] >= 0)
			close(c->hb_pipe[i]);
		c->hb_pipe[i] = -1;
	}
}

int cxd_ctrl_hb_start(struct cxd_ctrl *c)
{
	int ret;

	if (c->hb_running)
		return 0;
	if (c->fd < 0)
		return -ENOTCONN;
	if (pipe2(c->hb_pipe, O_CLOEXEC) != 0) {
		ret = errno;
		c->hb_pipe[0] = c->hb_pipe[1] = -1;
		seterr(c->err, sizeof(c->err), "cannot start the heartbeat: "
		       "%s", strerror(ret));
		return -ret;
	}
	ret = pthread_create(&c->hb_thread, NULL, hb_main, c);
	if (ret) {
		hb_close_pipe(c);
		seterr(c->err, sizeof(c->err), "cannot start the heartbeat: "
		       "%s", strerror(ret));
		return -ret;
	}
	c->hb_running = true;
	return 0;
}

void cxd_ctrl_hb_stop(struct cxd_ctrl *c)
{
	ssize_t n;

	if (!c->hb_running)
		return;
	do
		n = write(c->hb_pipe[1], "x", 1);
	while (n < 0 && errno == EINTR);
	pthread_join(c->hb_thread, NULL);
	hb_close_pipe(c);
	c->hb_running = false;
}

void cxd_ctrl_close(struct cxd_ctrl *c)
{
	cxd_ctrl_hb_stop(c);
	/* send_lock exists exactly while fd does (see ctrl_setup). */
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
		pthread_mutex_destroy(&c->send_lock);
	}
	c->rx_have = 0;
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
		memcpy(&ss, i->ifa_addr, i->ifa_addr->sa_family == AF_INET ?
		       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
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

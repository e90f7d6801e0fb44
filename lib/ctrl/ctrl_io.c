/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel I/O: framed sends and receives, every wait bounded.
 * The layer above the base (see ctrl_priv.h); it calls nothing in
 * ctrl.c or ctrl_watch.c. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctrl_io.h"
#include "base/signals.h"

#define SEND_ERROR_MS 500 /* a goodbye must not delay the exit */
#define CLOSE_LINGER_MS 200 /* at most, waiting for the peer to close too */

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
			return errno == EPIPE || errno == ECONNRESET
				       ? -ECONNRESET
				       : -errno;
		ret = cxd_ctrl_wait_fd(fd, POLLOUT, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/* No messages here: the heartbeat thread must not touch c->err. */
int cxd_ctrl_send_frame(struct cxd_ctrl *c, uint16_t type, const void *payload,
		      uint32_t len, int timeout_ms)
{
	uint8_t frame[CXD_HDR_LEN + CXD_MAX_PAYLOAD];
	struct cxd_hdr h = { .magic = CXD_PROTO_MAGIC,
			     .version = CXD_PROTO_VERSION,
			     .type = type,
			     .len = len };
	uint64_t deadline = cxd_deadline_in(timeout_ms);
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

static bool peer_error_waiting(struct cxd_ctrl *c);

int cxd_ctrl_send(struct cxd_ctrl *c, uint16_t type, const void *payload,
		  uint32_t len)
{
	int ret;

	cxd_ctrl_beat(c);
	/* The peer may have given up already: its reason is the message,
	 * and sending to a closed socket would have it discarded (reset). */
	if (peer_error_waiting(c))
		return -EREMOTEIO;
	ret = cxd_ctrl_send_frame(c, type, payload, len, c->idle_ms);
	if (ret == -ETIMEDOUT)
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s stopped reading "
				"during %s (could not send for %d s)",
				who_of(c), phase_of(c),
				c->idle_ms / 1000);
	else if (ret == -ECONNRESET)
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s closed the "
				"connection during %s",
				who_of(c), phase_of(c));
	else if (ret == -EMSGSIZE)
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"cannot send a %u-byte %s "
				"message (the limit is %d)",
				len, cxd_msg_name(type), CXD_MAX_PAYLOAD);
	else if (ret)
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"cannot send to %s "
				"during %s: %s",
				who_of(c), phase_of(c),
				strerror(-ret));
	return ret;
}

int cxd_ctrl_send_error_frame(struct cxd_ctrl *c, const char *text)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	ssize_t len = cxd_enc_text(text, buf, sizeof(buf));

	if (c->fd < 0)
		return -ENOTCONN;
	if (len < 0)
		return -EINVAL;
	/* Best effort: a peer that reads no more cannot be told anyway. */
	(void) cxd_ctrl_send_frame(c, CXD_MSG_ERROR, buf, (uint32_t) len,
				   SEND_ERROR_MS);
	return 0;
}

void cxd_ctrl_send_error(struct cxd_ctrl *c, const char *text)
{
	if (cxd_ctrl_send_error_frame(c, text) == 0)
		c->sent_error = true; /* close gently: let it be read */
}

/* ---- Receiving: c->rx always starts at a frame boundary. */

static void rx_drop(struct cxd_ctrl *c, uint32_t n)
{
	memmove(c->rx, c->rx + n, c->rx_have - n);
	c->rx_have -= n;
}

static int rx_garbage(struct cxd_ctrl *c, const char *why)
{
	cxd_ctrl_seterr(c->err, sizeof(c->err),
			"%s sent garbage during %s: %s", who_of(c),
			phase_of(c), why);
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
	memcpy(head, c->rx,
	       c->rx_have < CXD_HDR_LEN ? c->rx_have : CXD_HDR_LEN);
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
		c->last_rx_ns = cxd_now_ns();
		return (int) n;
	}
	e = n == 0 ? 0 : errno;
	if (e == EAGAIN || e == EWOULDBLOCK)
		return 0;
	if (e == 0 || e == ECONNRESET || e == EPIPE) {
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s closed the "
				"connection during %s",
				who_of(c), phase_of(c));
		return -ECONNRESET;
	}
	cxd_ctrl_seterr(c->err, sizeof(c->err),
			"the connection to %s failed "
			"during %s: %s",
			who_of(c), phase_of(c), strerror(e));
	return -e;
}

static int ctrl_interrupted(struct cxd_ctrl *c)
{
	cxd_ctrl_seterr(c->err, sizeof(c->err), "interrupted by %s during %s",
			cxd_sig_name(cxd_sig_pending()), phase_of(c));
	return -EINTR;
}

static int rx_idle(struct cxd_ctrl *c, uint64_t now)
{
	if (now - c->last_rx_ns < (uint64_t) c->idle_ms * CXD_NS_PER_MS)
		return 0;
	cxd_ctrl_seterr(c->err, sizeof(c->err),
			"%s stopped responding during "
			"%s (nothing received for %d s)",
			who_of(c), phase_of(c), c->idle_ms / 1000);
	return -ETIMEDOUT;
}

/* Wait for bytes until the idle limit or total (0 = none); 0 = go on. */
static int rx_wait(struct cxd_ctrl *c, uint64_t total, int timeout_ms)
{
	uint64_t now = cxd_now_ns();
	uint64_t limit = c->last_rx_ns + (uint64_t) c->idle_ms * CXD_NS_PER_MS;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n, e;

	if (total && total < limit)
		limit = total;
	cxd_ctrl_beat(c);
	if (cxd_sig_pending())
		return ctrl_interrupted(c);
	n = poll(&p, 1, cxd_ms_left(limit, now));
	if (n > 0) {
		n = rx_read(c);
		return n < 0 ? n : 0;
	}
	if (n < 0 && errno != EINTR) {
		e = errno;
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"cannot wait for %s: %s", who_of(c),
				strerror(e));
		return -e;
	}
	if (n < 0 && cxd_sig_pending())
		return ctrl_interrupted(c);
	now = cxd_now_ns();
	if ((n = rx_idle(c, now)) != 0)
		return n;
	if (total && now >= total) {
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s sent nothing usable "
				"during %s within %d ms",
				who_of(c), phase_of(c), timeout_ms);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Hand the front frame over (or turn it into the error it carries). */
static int rx_take(struct cxd_ctrl *c, const struct cxd_hdr *h, uint16_t want,
		   uint16_t *type_p, uint8_t *payload, uint32_t cap,
		   uint32_t *len_p)
{
	const uint8_t *pl = c->rx + CXD_HDR_LEN;
	char text[CXD_TEXT_LEN];
	int ret = 0;

	if (h->type == CXD_MSG_ERROR) {
		if (cxd_dec_text(pl, h->len, text, sizeof(text)) != 0)
			snprintf(text, sizeof(text), "(unreadable error text)");
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s reported: %s", who_of(c),
				text);
		ret = -EREMOTEIO;
	} else if (want && h->type != want) {
		ret = -EPROTO;
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s sent %s during %s, "
				"expected %s",
				who_of(c), cxd_msg_name(h->type),
				phase_of(c), cxd_msg_name(want));
	} else if (h->len > cap) {
		ret = -EPROTO;
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"%s sent a %u-byte %s "
				"message during %s, more than the %u expected",
				who_of(c), h->len,
				cxd_msg_name(h->type), phase_of(c), cap);
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

/* Read what is there; true (c->err set) when an ERROR frame is next. */
static bool peer_error_waiting(struct cxd_ctrl *c)
{
	struct cxd_hdr h;
	char keep[CXD_CTRL_ERR_LEN];

	if (c->fd < 0)
		return false;
	memcpy(keep, c->err, sizeof(keep));
	while (rx_read(c) > 0)
		;
	if (rx_next(c, &h) != 1 || h.type != CXD_MSG_ERROR) {
		memcpy(c->err, keep, sizeof(keep)); /* not our business here */
		return false;
	}
	return rx_take(c, &h, 0, NULL, NULL, 0, NULL) == -EREMOTEIO;
}

static int rx_frame(struct cxd_ctrl *c, uint16_t want, uint16_t *type_p,
		    uint8_t *payload, uint32_t cap, uint32_t *len_p,
		    int timeout_ms)
{
	uint64_t total = timeout_ms >= 0 ? cxd_deadline_in(timeout_ms) : 0;
	struct cxd_hdr h;
	int ret;

	if (c->fd < 0) {
		cxd_ctrl_seterr(c->err, sizeof(c->err),
				"no connection to the %s", role_of(c));
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
	if (cxd_sig_pending())
		return ctrl_interrupted(c);
	/* Usually one recv() that finds nothing: cheap enough for hot loops. */
	for (;;) {
		ret = rx_next(c, &h);
		if (ret)
			return ret;
		ret = rx_read(c);
		if (ret < 0)
			return ret;
		if (ret == 0)
			return rx_idle(c, cxd_now_ns());
	}
}

/* ---- Closing */

/*
 * Closing with unread bytes queued makes the kernel send a reset, and a
 * reset can discard what the peer has not read yet: our last words (an
 * ERROR frame). So: no more sending, read what is there until the peer
 * closes too (briefly), then close.
 */
void cxd_ctrl_close_gently(int fd)
{
	uint64_t deadline = cxd_deadline_in(CLOSE_LINGER_MS);
	char buf[512];
	ssize_t n;

	shutdown(fd, SHUT_WR);
	for (;;) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			break;
		if (cxd_ctrl_wait_fd(fd, POLLIN, deadline) != 0)
			break;
	}
	close(fd);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The heartbeat thread: a heartbeat every second, the watchdog, and on a
 * server the "server busy" answer to clients that arrive during a run.
 * It runs beside a main thread that may be stuck inside a provider call,
 * so it never reads the control socket (the main thread owns c->rx): the
 * peer's liveness is seen as heartbeats queuing up unread (FIONREAD).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctrl_io.h"
#include "base/signals.h"

#define SIG_GRACE_TICKS 2 /* the main thread normally acts at once */

struct watch {
	uint_fast64_t seen;   /* the main thread's beat at the last tick */
	uint64_t stale_ms;    /* how long it has not moved */
	uint64_t peer_at_ns;  /* the peer's last sign of life we saw */
	int queued;           /* unread bytes on the socket at the last tick */
	int sig_ticks;        /* ticks since a signal was noticed */
	bool sending;
};

/* Say why, tell the peer, clean up, end the process: the one exit below
 * main (see cxd_ctrl_watch). */
static void fatal(struct cxd_ctrl *c, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fatal(struct cxd_ctrl *c, int status, const char *fmt, ...)
{
	/* Before the watchdog is armed the main thread may still be setting
	 * prog and on_fatal: read them only once it is (see ctrl.h). */
	bool armed = atomic_load_explicit(&c->watch, memory_order_acquire);
	const char *prog = armed && c->prog ? c->prog : "cxd";
	char msg[CXD_CTRL_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
	/* Not cxd_ctrl_send_error: that marks c, which the main thread owns. */
	(void) cxd_ctrl_send_error_frame(c, msg);
	/* Heartbeats have piled up unread: exiting now would reset the
	 * connection and could discard the message just sent. */
	cxd_ctrl_close_gently(c->fd);
	if (armed && c->on_fatal)
		c->on_fatal(c->fatal_arg);
	_exit(status);
}

/* Has the peer shown life since the last tick? Heartbeats we cannot read
 * pile up in the socket's queue; a hang-up or reset ends all hope. */
static bool peer_alive(struct cxd_ctrl *c, struct watch *w, uint64_t now)
{
	struct pollfd p = { .fd = c->fd, .events = POLLRDHUP };
	int q = 0;

	if (poll(&p, 1, 0) == 1 &&
	    (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
		return false;
	if (ioctl(c->fd, FIONREAD, &q) == 0 && q != w->queued) {
		w->queued = q;
		w->peer_at_ns = now;
	}
	return now - w->peer_at_ns < (uint64_t) c->idle_ms * CXD_NS_PER_MS;
}

static void watchdog(struct cxd_ctrl *c, struct watch *w)
{
	const char *phase = cxd_ctrl_phase(c);
	uint_fast64_t beat = atomic_load(&c->beat);
	uint64_t now = cxd_now_ns(), allow;

	if (!atomic_load(&c->watch) || beat != w->seen) {
		w->seen = beat;
		w->stale_ms = 0;
		w->peer_at_ns = now; /* the main thread was reading until now */
		ioctl(c->fd, FIONREAD, &w->queued);
		return;
	}
	w->stale_ms += CXD_HEARTBEAT_MS;
	allow = atomic_load_explicit(&c->allow_ms, memory_order_relaxed);
	if (!peer_alive(c, w, now) && w->stale_ms > (uint64_t) c->idle_ms)
		fatal(c, 1, "no progress for %llu s inside the fabric provider "
		      "during %s, and %s went silent: it probably died "
		      "or froze while the two sides shared state; giving up",
		      (unsigned long long) w->stale_ms / 1000,
		      phase ? phase : "the run", who_of(c));
	if (w->stale_ms > allow && w->stale_ms > (uint64_t) c->idle_ms)
		fatal(c, 1, "a call into the fabric provider has not returned "
		      "for %llu s during %s although %s is alive (its "
		      "heartbeats arrive): the provider or the fabric path is "
		      "stuck; giving up (the limit was %llu s for the bytes in "
		      "flight, see --timeout)",
		      (unsigned long long) w->stale_ms / 1000,
		      phase ? phase : "the run", who_of(c),
		      (unsigned long long) allow / 1000);
}

/* A signal the main thread has not acted on: it is stuck in a call. */
static void signal_backstop(struct cxd_ctrl *c, struct watch *w)
{
	int sig = cxd_sig_pending();
	const char *phase = cxd_ctrl_phase(c);

	if (sig == 0 || ++w->sig_ticks < SIG_GRACE_TICKS)
		return;
	fatal(c, 128 + sig, "interrupted by %s during %s (the %s was told)",
	      cxd_sig_name(sig), phase ? phase : "the run", role_of(c));
}

/* Clients that come while a run is under way: tell them, close later. */
static void answer_busy(struct cxd_ctrl *c)
{
	static const char text[] = "server busy: a run with another client "
				   "is under way; try again when it ends";
	uint8_t buf[CXD_HDR_LEN + sizeof(text) + 8];
	struct cxd_hdr h = { .magic = CXD_PROTO_MAGIC,
			     .version = CXD_PROTO_VERSION,
			     .type = CXD_MSG_ERROR };
	ssize_t len;
	int fd;

	for (unsigned i = 0; i < sizeof(c->busy) / sizeof(c->busy[0]); i++)
		if (c->busy[i] >= 0) {
			close(c->busy[i]); /* told a tick ago */
			c->busy[i] = -1;
		}
	len = cxd_enc_text(text, buf + CXD_HDR_LEN, sizeof(buf) - CXD_HDR_LEN);
	if (c->busy_lfd < 0 || len < 0)
		return;
	h.len = (uint32_t) len;
	cxd_hdr_encode(&h, buf);
	for (unsigned i = 0; i < sizeof(c->busy) / sizeof(c->busy[0]); i++) {
		fd = accept4(c->busy_lfd, NULL, NULL,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			break;
		(void) !send(fd, buf, CXD_HDR_LEN + (size_t) len,
			     MSG_NOSIGNAL | MSG_DONTWAIT);
		shutdown(fd, SHUT_WR);
		c->busy[i] = fd;
	}
}

static void *hb_main(void *arg)
{
	struct cxd_ctrl *c = arg;
	struct pollfd p = { .fd = c->hb_pipe[0], .events = POLLIN };
	struct watch w = { .seen = atomic_load(&c->beat),
			   .peer_at_ns = cxd_now_ns(),
			   .sending = true };
	int n;

	for (;;) {
		n = poll(&p, 1, CXD_HEARTBEAT_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 0)
			break; /* told to stop */
		/* A failed send means the peer is gone: the reader will say
		 * so with a better message than this thread could. Keep
		 * watching, though: the reader may never get to read. */
		if (w.sending &&
		    cxd_ctrl_send_frame(c, CXD_MSG_HEARTBEAT, NULL, 0,
					c->idle_ms) != 0)
			w.sending = false;
		answer_busy(c);
		signal_backstop(c, &w);
		watchdog(c, &w);
	}
	return NULL;
}

void cxd_ctrl_watch(struct cxd_ctrl *c, const char *prog)
{
	c->prog = prog;
	cxd_ctrl_beat(c);
	/* Publishes prog, on_fatal and fatal_arg to the heartbeat thread. */
	atomic_store_explicit(&c->watch, true, memory_order_release);
}

static void hb_close_pipe(struct cxd_ctrl *c)
{
	for (int i = 0; i < 2; i++) {
		if (c->hb_pipe[i] >= 0)
			close(c->hb_pipe[i]);
		c->hb_pipe[i] = -1;
	}
}

static int hb_fail(struct cxd_ctrl *c, int e)
{
	cxd_ctrl_seterr(c->err, sizeof(c->err),
			"cannot start the heartbeat: %s", strerror(e));
	return -e;
}

int cxd_ctrl_hb_start(struct cxd_ctrl *c)
{
	sigset_t all, old;
	int ret;

	if (c->hb_running)
		return 0;
	if (c->fd < 0)
		return -ENOTCONN;
	if (pipe2(c->hb_pipe, O_CLOEXEC) != 0) {
		ret = errno;
		c->hb_pipe[0] = c->hb_pipe[1] = -1;
		return hb_fail(c, ret);
	}
	/* Signals must interrupt the main thread's waits, not this one. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&c->hb_thread, NULL, hb_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		hb_close_pipe(c);
		return hb_fail(c, ret);
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
	for (unsigned i = 0; i < sizeof(c->busy) / sizeof(c->busy[0]); i++)
		if (c->busy[i] >= 0) {
			close(c->busy[i]);
			c->busy[i] = -1;
		}
}

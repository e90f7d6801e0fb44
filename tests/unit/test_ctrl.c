/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel over real loopback sockets, with hostile raw peers. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "ctrl/ctrl.h"

/* A connected pair: srv is the server's view (its peer is the client). */
struct pair {
	struct cxd_ctrl srv, cli;
	int lfd;
	uint32_t port;
};

/* Every wait below is on an event, bounded by this. */
#define EVENT_WAIT_MS 2000

/* Milliseconds left before end (base/clock.h's clock). */
static int ms_until(uint64_t end)
{
	return cxd_ms_left(end, cxd_now_ns());
}

/*
 * cxd_ctrl_poll as bytes arrive (loopback bytes come soon, not at once),
 * until it returns non-zero or, with have >= 0, until it has read
 * something and holds exactly have bytes. Returns the last poll result;
 * 0 after EVENT_WAIT_MS with nothing: the caller's assertions decide.
 */
static int poll_until(struct cxd_ctrl *c, long have)
{
	uint64_t end = cxd_deadline_in(EVENT_WAIT_MS), before = c->last_rx_ns;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int ret;

	for (;;) {
		ret = cxd_ctrl_poll(c);
		if (ret != 0 || (have >= 0 && c->last_rx_ns != before &&
				 c->rx_have == (uint32_t) have))
			return ret;
		if (ms_until(end) == 0)
			return 0;
		(void) poll(&p, 1, ms_until(end));
	}
}

/* Wait until thread tid sleeps in a call (state S), at most the bound:
 * then a write from another thread lands while it waits. */
static void wait_blocked(pid_t tid)
{
	uint64_t end = cxd_deadline_in(EVENT_WAIT_MS);
	char path[64], stat[256];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int) tid);
	do {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(stat, 1, sizeof(stat) - 1, f) : 0;
		const char *paren;

		if (f)
			fclose(f);
		stat[n] = '\0';
		paren = strrchr(stat, ')');
		if (paren && paren[1] == ' ' && paren[2] == 'S')
			return;
		(void) poll(NULL, 0, 1);
	} while (ms_until(end) > 0);
}

static void assert_contains(const char *s, const char *part)
{
	if (strstr(s, part) == NULL)
		fail_msg("'%s' does not contain '%s'", s, part);
}

/* 0 on success, or the listen error (so IPv6 tests can skip). */
static int pair_open(struct pair *p, const char *bind, const char *host)
{
	char err[CXD_CTRL_ERR_LEN] = "";
	int ret;

	ret = cxd_ctrl_listen(bind, 0, &p->lfd, &p->port, err, sizeof(err));
	if (ret)
		return ret;
	assert_true(p->port > 0);
	/* Loopback connect completes in the kernel backlog: no thread needed. */
	ret = cxd_ctrl_connect(host, p->port, 2000, &p->cli, err, sizeof(err));
	if (ret)
		fail_msg("connect: %s", err);
	ret = cxd_ctrl_accept(p->lfd, 2000, &p->srv, err, sizeof(err));
	if (ret)
		fail_msg("accept: %s", err);
	return 0;
}

static void pair_close(struct pair *p)
{
	cxd_ctrl_close(&p->cli);
	cxd_ctrl_close(&p->srv);
	close(p->lfd);
}

/* ---- Raw (hostile) peers */

static int raw_connect(uint32_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t) port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *) &a, sizeof(a)), 0);
	return fd;
}

static int raw_listen(uint32_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *) &a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 4), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *) &a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static void raw_write(int fd, const void *buf, size_t len)
{
	assert_int_equal(write(fd, buf, len), (ssize_t) len);
}

static void raw_frame(int fd, uint16_t type, const void *payload,
		      uint32_t len)
{
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION, type, len };
	uint8_t b[CXD_HDR_LEN];

	cxd_hdr_encode(&h, b);
	raw_write(fd, b, sizeof(b));
	if (len)
		raw_write(fd, payload, len);
}

/*
 * Client side talking to a raw server: returns the raw server's fd, and
 * c is connected to it.
 */
static int client_to_raw(struct cxd_ctrl *c, uint32_t *port)
{
	char err[CXD_CTRL_ERR_LEN];
	int lfd = raw_listen(port), fd;

	assert_int_equal(cxd_ctrl_connect("127.0.0.1", *port, 2000, c, err,
					  sizeof(err)), 0);
	fd = accept(lfd, NULL, NULL);
	assert_true(fd >= 0);
	close(lfd);
	return fd;
}

/* Server side talking to a raw client: returns the raw client's fd. */
static int server_to_raw(struct cxd_ctrl *c, int *lfd)
{
	char err[CXD_CTRL_ERR_LEN];
	uint32_t port;
	int fd;

	assert_int_equal(cxd_ctrl_listen("127.0.0.1", 0, lfd, &port, err,
					 sizeof(err)), 0);
	fd = raw_connect(port);
	assert_int_equal(cxd_ctrl_accept(*lfd, 2000, c, err, sizeof(err)), 0);
	return fd;
}

/* Our side of a connection with a raw peer. */
struct raw {
	struct cxd_ctrl c; /* ours */
	int fd;            /* the raw peer's socket (-1: closed) */
	int lfd;           /* our listening socket, if we serve; else -1 */
	uint32_t port;     /* the raw server's port, if we are its client */
};

/* Our client, connected to a raw server. */
static void raw_server(struct raw *r)
{
	r->lfd = -1;
	r->fd = client_to_raw(&r->c, &r->port);
}

/* Our server, a raw client connected to it. */
static void raw_client(struct raw *r)
{
	r->port = 0;
	r->fd = server_to_raw(&r->c, &r->lfd);
}

static void raw_close(struct raw *r)
{
	if (r->fd >= 0)
		close(r->fd);
	cxd_ctrl_close(&r->c);
	if (r->lfd >= 0)
		close(r->lfd);
}

/* cxd_ctrl_recv (type 0) or cxd_ctrl_expect (type) with room for cap
 * payload bytes; the status only. */
static int recv_cap(struct cxd_ctrl *c, uint16_t type, uint32_t cap, int ms)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint16_t got;
	uint32_t len;

	assert_true(cap <= sizeof(buf));
	if (type == 0)
		return cxd_ctrl_recv(c, &got, buf, cap, &len, ms);
	return cxd_ctrl_expect(c, type, buf, cap, &len, ms);
}

/* ---- Exchanges */

static void exchange(struct pair *p)
{
	uint8_t buf[CXD_MAX_PAYLOAD], big[CXD_MAX_PAYLOAD];
	uint16_t type = 0;
	uint32_t len = 0, seq = 0;

	assert_int_equal(cxd_ctrl_send(&p->cli, CXD_MSG_BARRIER, "\0\0\0\7",
				       4), 0);
	assert_int_equal(cxd_ctrl_recv(&p->srv, &type, buf, sizeof(buf), &len,
				       2000), 0);
	assert_int_equal(type, CXD_MSG_BARRIER);
	assert_int_equal(cxd_dec_barrier(buf, len, &seq), 0);
	assert_int_equal(seq, 7);

	/* The other way, a full-size payload, then an empty one. */
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t) (i * 7);
	assert_int_equal(cxd_ctrl_send(&p->srv, CXD_MSG_RESULT, big,
				       sizeof(big)), 0);
	assert_int_equal(cxd_ctrl_send(&p->srv, CXD_MSG_ACCEPT, NULL, 0), 0);
	assert_int_equal(cxd_ctrl_expect(&p->cli, CXD_MSG_RESULT, buf,
					 sizeof(buf), &len, 2000), 0);
	assert_int_equal(len, sizeof(big));
	assert_memory_equal(buf, big, sizeof(big));
	assert_int_equal(cxd_ctrl_expect(&p->cli, CXD_MSG_ACCEPT, buf,
					 sizeof(buf), &len, 2000), 0);
	assert_int_equal(len, 0);
}

static void test_exchange_ipv4(void **state)
{
	struct pair p;
	char host[64];

	(void) state;
	assert_int_equal(pair_open(&p, "127.0.0.1", "127.0.0.1"), 0);
	assert_string_equal(p.cli.peer_role, "server");
	assert_string_equal(p.srv.peer_role, "client");
	snprintf(host, sizeof(host), "127.0.0.1:%u", p.port);
	assert_string_equal(p.cli.peer, host);
	assert_int_equal(strncmp(p.srv.peer, "127.0.0.1:", 10), 0);
	exchange(&p);
	assert_int_equal(cxd_ctrl_local_host(&p.srv, host, sizeof(host)), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_true(cxd_ctrl_same_host(&p.srv));
	assert_true(cxd_ctrl_same_host(&p.cli));
	pair_close(&p);
	/* Closing twice is harmless. */
	cxd_ctrl_close(&p.cli);
	cxd_ctrl_close(&p.srv);
	assert_int_equal(p.cli.fd, -1);
}

static void test_exchange_ipv6(void **state)
{
	struct pair p;
	char want[64];

	(void) state;
	if (pair_open(&p, "::1", "::1") != 0)
		skip(); /* no IPv6 on this host */
	snprintf(want, sizeof(want), "[::1]:%u", p.port);
	assert_string_equal(p.cli.peer, want);
	assert_int_equal(strncmp(p.srv.peer, "[::1]:", 6), 0);
	exchange(&p);
	assert_true(cxd_ctrl_same_host(&p.srv));
	pair_close(&p);
}

/* Bind "any" is dual-stack: an IPv4 client shows up as plain IPv4. */
static void test_any_bind_dual_stack(void **state)
{
	struct pair p;
	char host[64];

	(void) state;
	assert_int_equal(pair_open(&p, "", "127.0.0.1"), 0);
	assert_int_equal(strncmp(p.srv.peer, "127.0.0.1:", 10), 0);
	assert_int_equal(cxd_ctrl_local_host(&p.srv, host, sizeof(host)), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_true(cxd_ctrl_same_host(&p.srv));
	exchange(&p);
	pair_close(&p);
}

static void test_listen_busy_port(void **state)
{
	char err[CXD_CTRL_ERR_LEN], want[64];
	uint32_t port, port2;
	int lfd, lfd2;

	(void) state;
	assert_int_equal(cxd_ctrl_listen("127.0.0.1", 0, &lfd, &port, err,
					 sizeof(err)), 0);
	assert_int_equal(cxd_ctrl_listen("127.0.0.1", port, &lfd2, &port2,
					 err, sizeof(err)), -EADDRINUSE);
	snprintf(want, sizeof(want), "cannot listen on 127.0.0.1:%u: ", port);
	assert_contains(err, want);
	assert_int_equal(lfd2, -1);
	assert_int_equal(cxd_ctrl_listen("127.0.0.1", 70000, &lfd2, &port2,
					 err, sizeof(err)), -EINVAL);
	close(lfd);
}

static void test_accept_timeout(void **state)
{
	char err[CXD_CTRL_ERR_LEN];
	struct cxd_ctrl c;
	uint32_t port;
	int lfd;

	(void) state;
	assert_int_equal(cxd_ctrl_listen("127.0.0.1", 0, &lfd, &port, err,
					 sizeof(err)), 0);
	assert_int_equal(cxd_ctrl_accept(lfd, 50, &c, err, sizeof(err)),
			 -ETIMEDOUT);
	assert_contains(err, "no client connected");
	cxd_ctrl_close(&c); /* safe after a failed accept */
	close(lfd);
}

/* ---- Heartbeats */

static void test_heartbeats_skipped(void **state)
{
	uint8_t buf[16];
	uint16_t type;
	uint32_t len;
	struct pair p;

	(void) state;
	assert_int_equal(pair_open(&p, "127.0.0.1", "127.0.0.1"), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(cxd_ctrl_send(&p.cli, CXD_MSG_HEARTBEAT,
					       NULL, 0), 0);
	assert_int_equal(cxd_ctrl_send(&p.cli, CXD_MSG_BARRIER, "\0\0\0\1",
				       4), 0);
	assert_int_equal(cxd_ctrl_send(&p.cli, CXD_MSG_HEARTBEAT, NULL, 0), 0);
	assert_int_equal(cxd_ctrl_recv(&p.srv, &type, buf, sizeof(buf), &len,
				       2000), 0);
	assert_int_equal(type, CXD_MSG_BARRIER);
	/* Only a heartbeat is left: nothing to receive within the bound. */
	assert_int_equal(recv_cap(&p.srv, 0, sizeof(buf), 100), -ETIMEDOUT);
	pair_close(&p);
}

/* The thread keeps a silent side alive past the idle limit. */
static void test_heartbeat_thread(void **state)
{
	struct pair p;
	uint64_t before;

	(void) state;
	assert_int_equal(pair_open(&p, "127.0.0.1", "127.0.0.1"), 0);
	assert_int_equal(cxd_ctrl_hb_start(&p.cli), 0);
	assert_int_equal(cxd_ctrl_hb_start(&p.cli), 0); /* already running */
	/* The thread reads the phase each tick: a race for TSan to see if
	 * this were a plain store. */
	cxd_ctrl_set_phase(&p.cli, "the heartbeat test");
	before = p.srv.last_rx_ns;
	assert_int_equal(recv_cap(&p.srv, 0, 16, CXD_IDLE_TIMEOUT_MS + 1500),
			 -ETIMEDOUT);
	/* The total bound expired, not the idle one: heartbeats came in. */
	assert_contains(p.srv.err, "sent nothing usable");
	assert_true(p.srv.last_rx_ns > before);
	/* The main thread can still send while the heartbeat runs. */
	assert_int_equal(cxd_ctrl_send(&p.cli, CXD_MSG_BARRIER, "\0\0\0\2",
				       4), 0);
	assert_int_equal(recv_cap(&p.srv, CXD_MSG_BARRIER, 16, 2000), 0);
	cxd_ctrl_hb_stop(&p.cli);
	assert_false(p.cli.hb_running);
	cxd_ctrl_hb_stop(&p.cli);
	pair_close(&p);
}

/* ---- The watchdog: a main thread stuck with the peer alive, or dead */

/* In a child: cli's main thread "blocks in a provider call" (sleeps, no
 * beats) while srv heartbeats (peer_beats) or stays silent. The child's
 * exit status and stderr come back. */
static int stuck_child(bool peer_beats, char *out, size_t cap)
{
	int fds[2], status = 0;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct pair p;

		dup2(fds[1], STDERR_FILENO);
		if (pair_open(&p, "127.0.0.1", "127.0.0.1") != 0)
			_exit(99);
		/* Set before the thread that reads it starts, as a session
		 * does. */
		p.cli.idle_ms = 2000;
		if (cxd_ctrl_hb_start(&p.cli) != 0 ||
		    (peer_beats && cxd_ctrl_hb_start(&p.srv) != 0))
			_exit(99);
		cxd_ctrl_allow(&p.cli, peer_beats ? 1000 : 60000);
		cxd_ctrl_watch(&p.cli, "test_ctrl");
		/* The stuck provider call itself, not a wait: the watchdog
		 * must end it within about 3 s; 98 says it did not. */
		sleep(20);
		_exit(98);
	}
	close(fds[1]);
	while (got < (ssize_t) cap - 1 &&
	       (n = read(fds[0], out + got, cap - 1 - (size_t) got)) > 0)
		got += n;
	out[got] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_watchdog_peer_alive(void **state)
{
	char out[1024];

	(void) state;
	assert_int_equal(stuck_child(true, out, sizeof(out)), 1);
	assert_contains(out, "has not returned for");
	assert_contains(out, "is alive (its heartbeats arrive)");
}

static void test_watchdog_peer_silent(void **state)
{
	char out[1024];

	(void) state;
	assert_int_equal(stuck_child(false, out, sizeof(out)), 1);
	assert_contains(out, "went silent: it probably died or froze");
}

/* ---- Failures, each with its code and message */

struct writer {
	int fd;
	pid_t reader; /* the thread that must be waiting first */
	const char *bytes;
};

static void *writer_main(void *arg)
{
	const struct writer *w = arg;

	wait_blocked(w->reader);
	if (write(w->fd, w->bytes, strlen(w->bytes)) < 0)
		perror("writer");
	return NULL;
}

static void test_ctrl_garbage_named_with_the_phase(void **state)
{
	struct writer w = { .reader = gettid(),
			    .bytes = "GET / HTTP/1.0\r\n\r\n" };
	struct raw r;
	pthread_t t;

	(void) state;
	raw_client(&r);
	w.fd = r.fd;
	cxd_ctrl_set_phase(&r.c, "the option exchange");
	/* The garbage arrives while recv is already waiting. */
	assert_int_equal(pthread_create(&t, NULL, writer_main, &w), 0);
	assert_int_equal(recv_cap(&r.c, 0, 64, 2000), -EPROTO);
	pthread_join(t, NULL);
	assert_contains(r.c.err, "the client 127.0.0.1:");
	assert_contains(r.c.err, "sent garbage during the option exchange");
	assert_contains(r.c.err, "bad magic 0x47455420");
	raw_close(&r);
}

/* Even one wrong byte is caught without waiting for a whole header. */
static void test_garbage_short(void **state)
{
	struct raw r;

	(void) state;
	raw_server(&r);
	raw_write(r.fd, "X", 1);
	assert_int_equal(poll_until(&r.c, -1), -EPROTO);
	assert_contains(r.c.err, "the server 127.0.0.1:");
	assert_contains(r.c.err, "during the handshake");
	raw_close(&r);
}

/* A raw server sends n bytes; our client's next expect (type) or recv
 * (type 0) fails with rc, the message holding want. */
static void server_sends(const void *bytes, size_t n, uint16_t type, int rc,
			 const char *want)
{
	struct raw r;

	raw_server(&r);
	raw_write(r.fd, bytes, n);
	assert_int_equal(recv_cap(&r.c, type, 64, 2000), rc);
	assert_contains(r.c.err, want);
	raw_close(&r);
}

static void test_oversized_frame(void **state)
{
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION,
			     CXD_MSG_RESULT, 5000 };
	uint8_t hb[CXD_HDR_LEN];

	(void) state;
	cxd_hdr_encode(&h, hb);
	server_sends(hb, sizeof(hb), 0, -EPROTO,
		     "frame length 5000 exceeds 4096");
}

static void test_bad_version_and_type(void **state)
{
	uint8_t frame[CXD_HDR_LEN] = { 'C', 'X', 'D', 'G', 0, 7, 0, 1,
				       0, 0, 0, 0 };

	(void) state;
	server_sends(frame, sizeof(frame), CXD_MSG_HELLO, -EPROTO,
		     "protocol version 7, expected 3");
	frame[5] = CXD_PROTO_VERSION;
	frame[7] = 99;
	server_sends(frame, sizeof(frame), CXD_MSG_HELLO, -EPROTO,
		     "unknown message type 99");
}

static void test_payload_over_cap_and_wrong_type(void **state)
{
	uint8_t payload[100] = { 0 };
	struct raw r;

	(void) state;
	raw_server(&r);
	cxd_ctrl_set_phase(&r.c, "the run");
	raw_frame(r.fd, CXD_MSG_RESULT, payload, sizeof(payload));
	raw_frame(r.fd, CXD_MSG_HELLO, NULL, 0);
	assert_int_equal(recv_cap(&r.c, 0, 16, 2000), -EPROTO);
	assert_contains(r.c.err, "100-byte RESULT message during the run");
	assert_int_equal(recv_cap(&r.c, CXD_MSG_BARRIER, 16, 2000), -EPROTO);
	assert_contains(r.c.err, "sent HELLO during the run, expected BARRIER");
	raw_close(&r);
}

static void test_peer_closes(void **state)
{
	struct raw r;
	int ret = 0;

	(void) state;
	raw_client(&r);
	raw_write(r.fd, "CXDG", 4); /* half a header, then gone */
	close(r.fd);
	r.fd = -1;
	assert_int_equal(recv_cap(&r.c, 0, 16, 2000), -ECONNRESET);
	assert_contains(r.c.err, "the client 127.0.0.1:");
	assert_contains(r.c.err, "closed the connection during the handshake");
	/* Sending to a closed peer fails too (possibly not the first time). */
	for (int i = 0; i < 100 && ret == 0; i++)
		ret = cxd_ctrl_send(&r.c, CXD_MSG_BARRIER, "\0\0\0\1", 4);
	assert_int_equal(ret, -ECONNRESET);
	raw_close(&r);
}

static void test_peer_silent(void **state)
{
	struct raw r;

	(void) state;
	raw_server(&r);
	cxd_ctrl_set_phase(&r.c, "the option exchange");
	/* No total bound: only the idle limit can end this (~5 s). */
	assert_int_equal(recv_cap(&r.c, 0, 16, -1), -ETIMEDOUT);
	assert_contains(r.c.err, "the server 127.0.0.1:");
	assert_contains(r.c.err, "stopped responding during the option "
			"exchange (nothing received for 5 s)");
	/* poll reports the same silence. */
	assert_int_equal(cxd_ctrl_poll(&r.c), -ETIMEDOUT);
	raw_close(&r);
}

static void test_ctrl_server_error_text_reported(void **state)
{
	uint8_t payload[64];
	char want[128];
	struct raw r;
	ssize_t n;

	(void) state;
	raw_server(&r);
	n = cxd_enc_text("max size 1G exceeds the server's limit", payload,
			 sizeof(payload));
	assert_true(n > 0);
	raw_frame(r.fd, CXD_MSG_ERROR, payload, (uint32_t) n);
	assert_int_equal(recv_cap(&r.c, CXD_MSG_ACCEPT, 16, 2000), -EREMOTEIO);
	snprintf(want, sizeof(want), "the server 127.0.0.1:%u reported: max "
		 "size 1G exceeds the server's limit", r.port);
	assert_string_equal(r.c.err, want);
	raw_close(&r);
}

/* send_error from our side arrives as -EREMOTEIO on the other. */
static void test_send_error(void **state)
{
	struct pair p;

	(void) state;
	assert_int_equal(pair_open(&p, "127.0.0.1", "127.0.0.1"), 0);
	cxd_ctrl_send_error(&p.srv, "cannot open device cxi0");
	assert_int_equal(recv_cap(&p.cli, 0, 16, 2000), -EREMOTEIO);
	assert_contains(p.cli.err, "reported: cannot open device cxi0");
	pair_close(&p);
	cxd_ctrl_send_error(&p.srv, "after close: ignored");
}

static void test_connect_refused(void **state)
{
	char err[CXD_CTRL_ERR_LEN], want[96];
	struct cxd_ctrl c;
	uint32_t port;
	int lfd;

	(void) state;
	/* A port that was free a moment ago and has no listener now. */
	lfd = raw_listen(&port);
	close(lfd);
	assert_int_equal(cxd_ctrl_connect("127.0.0.1", port, 2000, &c, err,
					  sizeof(err)), -ECONNREFUSED);
	snprintf(want, sizeof(want), "cannot connect to server 127.0.0.1:%u: "
		 "Connection refused (is the server running?)", port);
	assert_string_equal(err, want);
	assert_int_equal(c.fd, -1);
	cxd_ctrl_close(&c);
	cxd_ctrl_close(&c);
}

static void test_connect_unresolvable(void **state)
{
	char err[CXD_CTRL_ERR_LEN];
	struct cxd_ctrl c;

	(void) state;
	assert_true(cxd_ctrl_connect("nosuchhost.invalid", 1, 2000, &c, err,
				     sizeof(err)) < 0);
	assert_contains(err, "cannot resolve 'nosuchhost.invalid': ");
	cxd_ctrl_close(&c);
}

/* ---- Non-blocking poll */

static void test_ctrl_poll_whole_frames_only_and_eof(void **state)
{
	uint8_t frame[CXD_HDR_LEN + 4], buf[16];
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION,
			     CXD_MSG_BARRIER, 4 };
	uint16_t type;
	uint32_t len, port, seq;
	struct cxd_ctrl c;
	uint64_t before;
	int fd;

	(void) state;
	fd = client_to_raw(&c, &port);
	assert_int_equal(cxd_ctrl_poll(&c), 0);
	/* A heartbeat alone is not a frame to take. */
	before = c.last_rx_ns;
	raw_frame(fd, CXD_MSG_HEARTBEAT, NULL, 0);
	assert_int_equal(poll_until(&c, 0), 0);
	assert_true(c.last_rx_ns != before); /* read, and consumed */
	assert_int_equal(c.rx_have, 0);
	/* Half a frame: still 0. */
	cxd_hdr_encode(&h, frame);
	memcpy(frame + CXD_HDR_LEN, "\0\0\0\11", 4);
	raw_write(fd, frame, 7);
	assert_int_equal(poll_until(&c, 7), 0);
	assert_int_equal(c.rx_have, 7);
	raw_write(fd, frame + 7, sizeof(frame) - 7);
	assert_int_equal(poll_until(&c, -1), 1);
	assert_int_equal(cxd_ctrl_poll(&c), 1); /* still there */
	/* The buffered frame sits at the front of c.rx. */
	assert_memory_equal(c.rx, frame, sizeof(frame));
	assert_int_equal(cxd_ctrl_recv(&c, &type, buf, sizeof(buf), &len, 0),
			 0);
	assert_int_equal(type, CXD_MSG_BARRIER);
	assert_int_equal(cxd_dec_barrier(buf, len, &seq), 0);
	assert_int_equal(seq, 9);
	assert_int_equal(cxd_ctrl_poll(&c), 0);
	/* EOF shows up in poll as well. */
	close(fd);
	assert_int_equal(poll_until(&c, -1), -ECONNRESET);
	cxd_ctrl_close(&c);
}

/* A non-loopback IPv4 address of this host, if any. */
static bool first_ifaddr(char *buf, size_t len)
{
	struct ifaddrs *ifs, *i;
	bool found = false;

	if (getifaddrs(&ifs) != 0)
		return false;
	for (i = ifs; i && !found; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *) i->ifa_addr;

		if (a == NULL || a->sin_family != AF_INET ||
		    (ntohl(a->sin_addr.s_addr) >> 24) == 127)
			continue;
		found = inet_ntop(AF_INET, &a->sin_addr, buf,
				  (socklen_t) len) != NULL;
	}
	freeifaddrs(ifs);
	return found;
}

static void test_same_host_interface(void **state)
{
	char err[CXD_CTRL_ERR_LEN], host[64];
	struct cxd_ctrl srv, cli;
	uint32_t port;
	int lfd;

	(void) state;
	assert_int_equal(cxd_ctrl_listen("", 0, &lfd, &port, err, sizeof(err)),
			 0);
	assert_int_equal(cxd_ctrl_connect("localhost", port, 2000, &cli, err,
					  sizeof(err)), 0);
	assert_int_equal(cxd_ctrl_accept(lfd, 2000, &srv, err, sizeof(err)),
			 0);
	assert_int_equal(cxd_ctrl_local_host(&cli, host, sizeof(host)), 0);
	assert_true(strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0);
	assert_true(cxd_ctrl_same_host(&srv));
	assert_true(cxd_ctrl_same_host(&cli));
	cxd_ctrl_close(&cli);
	cxd_ctrl_close(&srv);

	/* Through a real interface address, when this host has one. */
	if (first_ifaddr(host, sizeof(host))) {
		assert_int_equal(cxd_ctrl_connect(host, port, 2000, &cli, err,
						  sizeof(err)), 0);
		assert_int_equal(cxd_ctrl_accept(lfd, 2000, &srv, err,
						  sizeof(err)), 0);
		assert_true(cxd_ctrl_same_host(&srv));
		assert_true(cxd_ctrl_same_host(&cli));
		cxd_ctrl_close(&cli);
		cxd_ctrl_close(&srv);
	}
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exchange_ipv4),
		cmocka_unit_test(test_exchange_ipv6),
		cmocka_unit_test(test_any_bind_dual_stack),
		cmocka_unit_test(test_listen_busy_port),
		cmocka_unit_test(test_accept_timeout),
		cmocka_unit_test(test_heartbeats_skipped),
		cmocka_unit_test(test_heartbeat_thread),
		cmocka_unit_test(test_watchdog_peer_alive),
		cmocka_unit_test(test_watchdog_peer_silent),
		cmocka_unit_test(test_ctrl_garbage_named_with_the_phase),
		cmocka_unit_test(test_garbage_short),
		cmocka_unit_test(test_oversized_frame),
		cmocka_unit_test(test_bad_version_and_type),
		cmocka_unit_test(test_payload_over_cap_and_wrong_type),
		cmocka_unit_test(test_peer_closes),
		cmocka_unit_test(test_peer_silent),
		cmocka_unit_test(test_ctrl_server_error_text_reported),
		cmocka_unit_test(test_send_error),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_connect_unresolvable),
		cmocka_unit_test(test_ctrl_poll_whole_frames_only_and_eof),
		cmocka_unit_test(test_same_host_interface),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

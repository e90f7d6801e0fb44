/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel over real loopback sockets, with hostile raw peers:
 * each failure with its code and message (exchanges: test_ctrl.c). */
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
#include "support/ctrl_pair.h"
#include "support/unit_main.h"

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

CXD_UNIT_MAIN(
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
	cmocka_unit_test(test_same_host_interface))

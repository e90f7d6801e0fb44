/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit-test aid: control-channel pairs and raw peers (ctrl_pair.h). */
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
#include "ctrl_pair.h"

/* Milliseconds left before end (base/clock.h's clock). */
int ms_until(uint64_t end)
{
	return cxd_ms_left(end, cxd_now_ns());
}

/*
 * cxd_ctrl_poll as bytes arrive (loopback bytes come soon, not at once),
 * until it returns non-zero or, with have >= 0, until it has read
 * something and holds exactly have bytes. Returns the last poll result;
 * 0 after EVENT_WAIT_MS with nothing: the caller's assertions decide.
 */
int poll_until(struct cxd_ctrl *c, long have)
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
void wait_blocked(pid_t tid)
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

void assert_contains(const char *s, const char *part)
{
	if (strstr(s, part) == NULL)
		fail_msg("'%s' does not contain '%s'", s, part);
}

/* 0 on success, or the listen error (so IPv6 tests can skip). */
int pair_open(struct pair *p, const char *bind, const char *host)
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

void pair_close(struct pair *p)
{
	cxd_ctrl_close(&p->cli);
	cxd_ctrl_close(&p->srv);
	close(p->lfd);
}

/* ---- Raw (hostile) peers */

int raw_connect(uint32_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t) port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *) &a, sizeof(a)), 0);
	return fd;
}

int raw_listen(uint32_t *port)
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

void raw_write(int fd, const void *buf, size_t len)
{
	assert_int_equal(write(fd, buf, len), (ssize_t) len);
}

void raw_frame(int fd, uint16_t type, const void *payload,
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
int client_to_raw(struct cxd_ctrl *c, uint32_t *port)
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
int server_to_raw(struct cxd_ctrl *c, int *lfd)
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

/* Our client, connected to a raw server. */
void raw_server(struct raw *r)
{
	r->lfd = -1;
	r->fd = client_to_raw(&r->c, &r->port);
}

/* Our server, a raw client connected to it. */
void raw_client(struct raw *r)
{
	r->port = 0;
	r->fd = server_to_raw(&r->c, &r->lfd);
}

void raw_close(struct raw *r)
{
	if (r->fd >= 0)
		close(r->fd);
	cxd_ctrl_close(&r->c);
	if (r->lfd >= 0)
		close(r->lfd);
}

/* cxd_ctrl_recv (type 0) or cxd_ctrl_expect (type) with room for cap
 * payload bytes; the status only. */
int recv_cap(struct cxd_ctrl *c, uint16_t type, uint32_t cap, int ms)
{
	uint8_t buf[CXD_MAX_PAYLOAD];
	uint16_t got;
	uint32_t len;

	assert_true(cap <= sizeof(buf));
	if (type == 0)
		return cxd_ctrl_recv(c, &got, buf, cap, &len, ms);
	return cxd_ctrl_expect(c, type, buf, cap, &len, ms);
}

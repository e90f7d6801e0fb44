/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the control channel's tests (test_ctrl.c,
 * test_ctrl_errors.c): connected pairs over real loopback sockets, raw
 * (hostile) peers, bounded waits. Linked into every unit test
 * (tests/tests.cmake).
 */
#ifndef CXD_TEST_CTRL_PAIR_H
#define CXD_TEST_CTRL_PAIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctrl/ctrl.h"

/* A connected pair: srv is the server's view (its peer is the client). */
struct pair {
	struct cxd_ctrl srv, cli;
	int lfd;
	uint32_t port;
};

/* Every wait below is on an event, bounded by this. */
#define EVENT_WAIT_MS 2000

/* Our side of a connection with a raw peer. */
struct raw {
	struct cxd_ctrl c; /* ours */
	int fd;            /* the raw peer's socket (-1: closed) */
	int lfd;           /* our listening socket, if we serve; else -1 */
	uint32_t port;     /* the raw server's port, if we are its client */
};

/* Milliseconds left before end (base/clock.h's clock). */
int ms_until(uint64_t end);
/* cxd_ctrl_poll until it returns non-zero or holds have bytes (bounded). */
int poll_until(struct cxd_ctrl *c, long have);
/* Until thread tid sleeps in a call (state S), at most the bound. */
void wait_blocked(pid_t tid);
void assert_contains(const char *s, const char *part);
/* 0 on success, or the listen error (so IPv6 tests can skip). */
int pair_open(struct pair *p, const char *bind, const char *host);
void pair_close(struct pair *p);

/* Raw (hostile) peers. */
int raw_connect(uint32_t port);
int raw_listen(uint32_t *port);
void raw_write(int fd, const void *buf, size_t len);
void raw_frame(int fd, uint16_t type, const void *payload, uint32_t len);
int client_to_raw(struct cxd_ctrl *c, uint32_t *port);
/* Server side talking to a raw client: returns the raw client's fd. */
int server_to_raw(struct cxd_ctrl *c, int *lfd);
/* Our client, connected to a raw server. */
void raw_server(struct raw *r);
/* Our server, a raw client connected to it. */
void raw_client(struct raw *r);
void raw_close(struct raw *r);
/* cxd_ctrl_recv (type 0) or cxd_ctrl_expect (type) with room for cap
 * payload bytes; the status only. */
int recv_cap(struct cxd_ctrl *c, uint16_t type, uint32_t cap, int ms);

#endif

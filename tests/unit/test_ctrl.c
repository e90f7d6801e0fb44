/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel over real loopback sockets: exchanges, heartbeats and the
 * watchdog (failures with hostile raw peers: test_ctrl_errors.c). */
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

CXD_UNIT_MAIN(
	cmocka_unit_test(test_exchange_ipv4),
	cmocka_unit_test(test_exchange_ipv6),
	cmocka_unit_test(test_any_bind_dual_stack),
	cmocka_unit_test(test_listen_busy_port),
	cmocka_unit_test(test_accept_timeout),
	cmocka_unit_test(test_heartbeats_skipped),
	cmocka_unit_test(test_heartbeat_thread),
	cmocka_unit_test(test_watchdog_peer_alive),
	cmocka_unit_test(test_watchdog_peer_silent))

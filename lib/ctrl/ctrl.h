/* SPDX-License-Identifier: BSD-3-Clause */
/* Control channel: one TCP connection per run, framed, every wait bounded. */
#ifndef CXD_CTRL_H
#define CXD_CTRL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "wire/proto.h"

#define CXD_CONNECT_TIMEOUT_MS 5000
#define CXD_IDLE_TIMEOUT_MS 5000   /* silence that means the peer is gone */
#define CXD_HEARTBEAT_MS 1000
#define CXD_CTRL_ERR_LEN 512
/* Main thread making no progress for this long while armed: it is stuck
 * inside the provider (e.g. a shm lock held by a dead peer). Every
 * legitimate wait of ours wakes at least once per CXD_IDLE_TIMEOUT_MS. */
#define CXD_WATCHDOG_MS 6000

struct cxd_ctrl {
	int fd;
	char peer[128];      /* "127.0.0.1:49194" or "[::1]:49194" */
	const char *peer_role; /* "server" or "client", for messages */
	char who[160];         /* "the server 127.0.0.1:49194": the same */
	/* e.g. "the option exchange": set by the main thread, read by the
	 * heartbeat thread for its messages, hence atomic (string literals
	 * or other text that outlives the connection). Use the accessors. */
	_Atomic(const char *) phase;
	struct sockaddr_storage local_addr, peer_addr;
	socklen_t local_len, peer_len;
	uint64_t last_rx_ns; /* cxd_now_ns() of the last byte received */
	/* Partial frame kept between non-blocking reads. */
	uint8_t rx[CXD_HDR_LEN + CXD_MAX_PAYLOAD];
	uint32_t rx_have;
	/* Heartbeat thread: sends CXD_MSG_HEARTBEAT every CXD_HEARTBEAT_MS. */
	pthread_mutex_t send_lock;
	pthread_t hb_thread;
	int hb_pipe[2]; /* writing to [1] stops the thread */
	bool hb_running;
	/* Watchdog, run by the heartbeat thread: beat is bumped by the main
	 * thread in every wait loop; prog names us in the last message.
	 * prog, on_fatal and fatal_arg are written by the main thread before
	 * it arms the watchdog, and read by the heartbeat thread only once it
	 * sees watch set (release/acquire): they never change after that. */
	atomic_uint_fast64_t beat;
	atomic_bool watch;
	const char *prog;
	/* Longest a provider call may now block while the peer still sends
	 * heartbeats (the iteration's deadline, see cxd_ctrl_allow). */
	atomic_uint_fast64_t allow_ms;
	/* Run by the heartbeat thread before it ends the process: removes
	 * what the process would leave behind (shm regions, a child). */
	void (*on_fatal)(void *arg);
	void *fatal_arg;
	int idle_ms; /* silence that means the peer is gone (--timeout) */
	/* Server: the listening socket, so that clients arriving during the
	 * run are told "server busy"; -1 when none. busy[] holds those told,
	 * closed a tick later so that the reply is not lost to a reset. */
	int busy_lfd;
	int busy[4];
	bool sent_error; /* our last words went out: close gently */
	char err[CXD_CTRL_ERR_LEN]; /* last error, complete sentence */
};

/*
 * All functions return 0 or a negative errno and, on error, leave a full
 * message in err (or c->err) naming the peer, its role and c->phase:
 *   -ETIMEDOUT   peer silent for CXD_IDLE_TIMEOUT_MS (or connect timeout)
 *   -ECONNRESET  peer closed or reset the connection
 *   -EPROTO      garbage: bad magic, version, type, length or payload
 *   -EREMOTEIO   peer sent CXD_MSG_ERROR; its text is in c->err
 *   -ECONNREFUSED / -EHOSTUNREACH / other socket errors
 */

/* Server: listen on bind ("" = any, IPv6 dual-stack when possible). */
int cxd_ctrl_listen(const char *bind, uint32_t port, int *lfd_p,
		    uint32_t *port_p, char *err, size_t errlen);
/* Wait for one client (timeout_ms < 0 = forever); fills c. */
int cxd_ctrl_accept(int lfd, int timeout_ms, struct cxd_ctrl *c, char *err,
		    size_t errlen);
/* Client: resolve host (IPv4, IPv6 or name) and connect within timeout. */
int cxd_ctrl_connect(const char *host, uint32_t port, int timeout_ms,
		     struct cxd_ctrl *c, char *err, size_t errlen);
/* Stops the heartbeat thread, closes the socket; safe to call twice. */
void cxd_ctrl_close(struct cxd_ctrl *c);

/* Send one frame; waits at most CXD_IDLE_TIMEOUT_MS for buffer space. */
int cxd_ctrl_send(struct cxd_ctrl *c, uint16_t type, const void *payload,
		  uint32_t len);
/*
 * Receive the next frame other than a heartbeat. Times out when the peer
 * has been silent for CXD_IDLE_TIMEOUT_MS (heartbeats count as life) or
 * when timeout_ms (if >= 0) has passed in total. A CXD_MSG_ERROR frame
 * becomes -EREMOTEIO with the peer's text in c->err.
 */
int cxd_ctrl_recv(struct cxd_ctrl *c, uint16_t *type_p, uint8_t *payload,
		  uint32_t cap, uint32_t *len_p, int timeout_ms);
/* Like cxd_ctrl_recv, but any type other than want is -EPROTO. */
int cxd_ctrl_expect(struct cxd_ctrl *c, uint16_t want, uint8_t *payload,
		    uint32_t cap, uint32_t *len_p, int timeout_ms);
/*
 * Non-blocking: read what the socket has. Returns 1 when a whole
 * non-heartbeat frame is buffered (take it with cxd_ctrl_recv), 0 when
 * not yet, or a negative errno (including -ETIMEDOUT for a silent peer).
 */
int cxd_ctrl_poll(struct cxd_ctrl *c);

/* Tell the peer why we stop (best effort, never blocks long). */
void cxd_ctrl_send_error(struct cxd_ctrl *c, const char *text);

int cxd_ctrl_hb_start(struct cxd_ctrl *c);
/*
 * Arm the watchdog: from now on, if the main thread stops calling
 * cxd_ctrl_beat, the heartbeat thread ends the process with status 1 once
 * either the peer has been silent for idle_ms (no heartbeats queued on the
 * socket: it died or froze) or, with the peer alive, the call has blocked
 * for longer than allow_ms (the provider or the path is stuck). It says
 * which, tells the peer, and runs on_fatal first. A provider call can
 * block forever on state shared with a dead peer, and no error can be
 * returned from there.
 */
void cxd_ctrl_watch(struct cxd_ctrl *c, const char *prog);
/* How long a provider call may block from now on while the peer is alive
 * (heartbeats arriving): at least the idle limit. */
static inline void cxd_ctrl_allow(struct cxd_ctrl *c, uint64_t ms)
{
	atomic_store_explicit(&c->allow_ms, ms, memory_order_relaxed);
}

/* Cheap proof of life for the watchdog: only the main thread writes. */
static inline void cxd_ctrl_beat(struct cxd_ctrl *c)
{
	uint_fast64_t b = atomic_load_explicit(&c->beat, memory_order_relaxed);

	atomic_store_explicit(&c->beat, b + 1, memory_order_relaxed);
}
void cxd_ctrl_hb_stop(struct cxd_ctrl *c);

/* What the connection is doing, for messages of both threads. */
static inline void cxd_ctrl_set_phase(struct cxd_ctrl *c, const char *phase)
{
	atomic_store_explicit(&c->phase, phase, memory_order_release);
}

/* NULL when the caller has set none. */
static inline const char *cxd_ctrl_phase(const struct cxd_ctrl *c)
{
	return atomic_load_explicit(&c->phase, memory_order_acquire);
}

/* Numeric host of the local end of the connection ("127.0.0.1", "::1"). */
int cxd_ctrl_local_host(const struct cxd_ctrl *c, char *buf, size_t len);
/* True when both ends of the connection are addresses of this host. */
bool cxd_ctrl_same_host(const struct cxd_ctrl *c);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SIGINT and SIGTERM end a run in order: the handler only records the
 * signal; every bounded wait checks it (cxd_sig_pending) and returns
 * -EINTR, so the peer is told and the fabric closed (shm regions removed).
 * The heartbeat thread ends the process itself if the main thread is stuck
 * in a provider call and never looks (the watchdog, ctrl/ctrl_watch.c).
 *
 * The one mutable global of the library: a signal handler has no other
 * place to write, and signal dispositions are process-wide anyway.
 */
#include <signal.h>
#include <string.h>

#include "signals.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (caught == 0)
		caught = sig;
}

void cxd_sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: poll() must return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cxd_sig_pending(void)
{
	return caught;
}

const char *cxd_sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

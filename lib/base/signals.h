/* SPDX-License-Identifier: BSD-3-Clause */
/* SIGINT/SIGTERM: noted by a handler, acted on by the waits that see them. */
#ifndef CXD_SIGNALS_H
#define CXD_SIGNALS_H

/*
 * Install (again) our SIGINT and SIGTERM handlers. Call it at start and
 * after opening a fabric: libfabric's shm provider installs its own,
 * which end the process without a word to the peer.
 */
void cxd_sig_install(void);
/* The signal received (SIGINT, SIGTERM) or 0. Async-signal-safe. */
int cxd_sig_pending(void);
/* "SIGINT" / "SIGTERM". */
const char *cxd_sig_name(int sig);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared between the session's files (session.c, sess_open.c,
 * sess_connect.c, sess_post.c); not part of the library's interface. */
#ifndef CXD_SESS_PRIV_H
#define CXD_SESS_PRIV_H

#include "session/session.h"

/* The cxi knobs for this side from a provider name (cxd_cxi_prepare). */
int cxd_sess_knobs(struct cxd_sess *s, const char *provider,
		   const struct cxd_cxi_reported *rep);
/* The cxi knobs from the user's --provider, then the provider this run
 * uses: the one named, or the first that has the tool's capabilities
 * (same_host: shm may serve). */
int cxd_sess_pick_provider(struct cxd_sess *s, bool same_host);
/* Huge pages this side's buffers need are free (s->err says if not). */
int cxd_sess_check_hugepages(struct cxd_sess *s);
/* Open the fabric and buffers, swap addresses (client first), add the
 * peer (the way s->via says: a loopback is its own peer). */
int cxd_sess_exchange_addrs(struct cxd_sess *s);
/* sess_mem.c: this side's buffers (host or GPU memory). Before the
 * fabric opens: load the GPU runtime, check indices and FI_HMEM (caps
 * gains it for device memory); after: allocate, fill and register. */
int cxd_sess_mem_open(struct cxd_sess *s, uint64_t *caps_p);
int cxd_sess_mem_register(struct cxd_sess *s);
void cxd_sess_mem_close(struct cxd_sess *s);

#endif

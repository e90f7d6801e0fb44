/* SPDX-License-Identifier: BSD-3-Clause */
/* The control channel's way to the peer, shared by peer_ctrl.c (the
 * hooks) and sess_connect.c (connecting): nobody else sees the channel. */
#ifndef CXD_PEER_CTRL_H
#define CXD_PEER_CTRL_H

#include <stdint.h>
#include <sys/types.h>

#include "ctrl/ctrl.h"
#include "session/session.h"

/* The channel behind s->via_arg, before connecting: freed by the way's
 * close hook (cxd_sess_close). Returns 0 or -ENOMEM with s->err set. */
int cxd_sess_ctrl_new(struct cxd_sess *s);

static inline struct cxd_ctrl *cxd_sess_ctrl(const struct cxd_sess *s)
{
	return s->via_arg;
}

/* The control channel's error as the session's: s->err, returns ret. */
int cxd_sess_ctrl_fail(struct cxd_sess *s, int ret);
/* Send an encoded frame; len < 0 is the encoder's failure. */
int cxd_sess_send(struct cxd_sess *s, uint16_t type, const uint8_t *buf,
		  ssize_t len);

#endif

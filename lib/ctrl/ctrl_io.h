/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the control channel: the framing layer (ctrl_io.c) as the
 * heartbeat thread (ctrl_watch.c) and connection code (ctrl.c) use it.
 * The heartbeat thread calls these too: none of them touches c->err or
 * any other field the main thread writes. */
#ifndef CXD_CTRL_IO_H
#define CXD_CTRL_IO_H

#include "ctrl_priv.h"

/* One frame, bounded by timeout_ms; no message. */
int cxd_ctrl_send_frame(struct cxd_ctrl *c, uint16_t type, const void *payload,
			uint32_t len, int timeout_ms);
/* An ERROR frame with text, bounded and best effort: 0 when one was
 * sent or tried, -ENOTCONN or -EINVAL when none could be. Unlike
 * cxd_ctrl_send_error it does not mark c for a gentle close. */
int cxd_ctrl_send_error_frame(struct cxd_ctrl *c, const char *text);
/* Stop sending, drain until the peer closes too (bounded), close: so that
 * a reset does not discard the ERROR frame we just sent. */
void cxd_ctrl_close_gently(int fd);

#endif

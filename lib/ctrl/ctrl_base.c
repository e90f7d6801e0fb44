/* SPDX-License-Identifier: BSD-3-Clause */
/* The control channel's lowest layer (see ctrl_priv.h): messages and the
 * bounded wait on one fd, used by every layer above. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>

#include "ctrl_priv.h"
#include "base/signals.h"

void cxd_ctrl_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int cxd_ctrl_wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	for (;;) {
		n = poll(&p, 1, cxd_ms_left(deadline, cxd_now_ns()));
		if (n > 0)
			return 0; /* errors and hang-ups surface later */
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
		if (cxd_sig_pending())
			return -EINTR;
	}
}

/* Two-sided sends: placeholder until the send tools land. */
#include <errno.h>

#include "cxd/session.h"

static int send_unsupported(struct cxd_sess *s)
{
	return cxd_sess_fail(s, -ENOSYS, "%s is not implemented yet",
			     s->tool->name);
}

static int send_progress(struct cxd_sess *s)
{
	(void) s;
	return 0;
}

const struct cxd_ops cxd_send_ops = {
	.caps = FI_MSG | FI_TAGGED | FI_SEND | FI_RECV,
	.setup = send_unsupported,
	.progress = send_progress,
};

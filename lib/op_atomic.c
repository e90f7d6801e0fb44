/* Atomics: placeholder until the atomic tools land. */
#include <errno.h>

#include "cxd/session.h"

static int atomic_unsupported(struct cxd_sess *s)
{
	return cxd_sess_fail(s, -ENOSYS, "%s is not implemented yet",
			     s->tool->name);
}

static int atomic_progress(struct cxd_sess *s)
{
	(void) s;
	return 0;
}

const struct cxd_ops cxd_atomic_ops = {
	.caps = FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
	.setup = atomic_unsupported,
	.progress = atomic_progress,
};

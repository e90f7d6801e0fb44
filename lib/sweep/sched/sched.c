/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's plans, whatever their kind: each question goes to the
 * plan's own row (sched_types.h), so no kind is told apart here.
 */
#include <errno.h>

#include "sched.h"

bool cxd_sched_chain(int n, int pairs_at_once)
{
	return pairs_at_once < n / 2;
}

int cxd_sched_build(const struct cxd_sched_ops *kind,
		    const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	int ret;

	*pl = (struct cxd_plan){ .ops = kind };
	ret = kind->build(sp, pl);
	if (ret != 0)
		*pl = (struct cxd_plan){ .ops = NULL };
	return ret;
}

void cxd_sched_free(struct cxd_plan *pl)
{
	if (pl->ops)
		pl->ops->release(pl);
	*pl = (struct cxd_plan){ .ops = NULL };
}

const char *cxd_sched_name(const struct cxd_plan *pl)
{
	return pl->ops ? pl->ops->name : "none";
}

bool cxd_sched_sweep(const struct cxd_plan *pl)
{
	return pl->ops && pl->ops->sweep;
}

int cxd_sched_parts(const struct cxd_plan *pl)
{
	return pl->ops && pl->ops->parts ? pl->ops->parts(pl) : 1;
}

bool cxd_sched_keyable(const struct cxd_plan *pl)
{
	return pl->ops && pl->ops->each;
}

int cxd_sched_each(int n, const struct cxd_plan *pl, cxd_sched_pair_fn *fn,
		   void *arg)
{
	return cxd_sched_keyable(pl) ? pl->ops->each(n, pl, fn, arg) : -EINVAL;
}

int cxd_sched_room(int n, const struct cxd_plan *pl)
{
	return pl->ops ? pl->ops->room(n, pl) : 1;
}

int cxd_sched_part_steps(const struct cxd_sched_at *at,
			 const struct cxd_plan *pl, struct cxd_step *step)
{
	return pl->ops ? pl->ops->steps(at, pl, step) : 0;
}

int cxd_sched_steps(int n, int rank, int pairs_at_once,
		    const struct cxd_plan *pl, struct cxd_step *step)
{
	struct cxd_sched_at at = { n, rank, pairs_at_once, 0 };

	return cxd_sched_part_steps(&at, pl, step);
}

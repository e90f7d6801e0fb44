/* SPDX-License-Identifier: BSD-3-Clause */
/* Link error counters around the sizes of a run (lib/counters). */
#include <stdlib.h>

#include "base/testaid.h"
#include "counters/counters.h"
#include "session/session.h"
#include "run.h"

struct cxd_ctrs *cxd_run_counters_begin(struct cxd_sess *s)
{
	struct cxd_ctrs *c = malloc(sizeof(*c));
	const struct fi_info *fi = s->fab->info;
	const char *root = cxd_testaid_sysroot ? cxd_testaid_sysroot() : NULL;
	/* tcp: the interface holding the endpoint's source address. */
	bool ip = fi->addr_format == FI_SOCKADDR_IN ||
		  fi->addr_format == FI_SOCKADDR_IN6;

	if (c == NULL)
		return NULL;
	cxd_ctrs_plan(c, fi->fabric_attr->prov_name, fi->domain_attr->name,
		      ip ? fi->src_addr : NULL, root ? root : "");
	cxd_ctrs_read(c, false);
	return c;
}

int cxd_run_counters_end(struct cxd_ctrs *c, struct cxd_report *rep)
{
	int ret = 0;

	if (c) {
		cxd_ctrs_read(c, true);
		ret = cxd_report_counters(rep, c);
	}
	free(c);
	return ret;
}

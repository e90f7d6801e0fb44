/* SPDX-License-Identifier: BSD-3-Clause */
/* A --topology file's names checked as they come in (topo_names.h). */
#include <errno.h>
#include <stdio.h>

#include "base/names.h"
#include "topo_names.h"

int cxd_topo_name_ok(const struct cxd_topo *t, const char *what,
		     const char *name, int line, char *err, size_t len)
{
	char why[96], show[CXD_NAME_SHOW_LEN];

	if (cxd_name_check(name, CXD_TOPO_NAME - 1, why, sizeof(why)) == 0)
		return 0;
	cxd_name_show(name, show, sizeof(show));
	snprintf(err, len, "%s:%d: the %s name '%s' cannot be carried into "
		 "the outputs: %s", t->path, line, what, show, why);
	return -EINVAL;
}

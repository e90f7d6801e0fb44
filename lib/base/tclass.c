/* SPDX-License-Identifier: BSD-3-Clause */
/* Traffic class names: the words --tclass takes and the reports print. */
#include <strings.h>

#include "tclass.h"

static const char *const names[CXD_TC_COUNT] = {
	"default", "low_latency", "bulk_data", "dedicated_access",
	"best_effort", "scavenger",
};

const char *cxd_tclass_name(unsigned tc)
{
	return tc < CXD_TC_COUNT ? names[tc] : "?";
}

int cxd_tclass_parse(const char *s)
{
	/* "default" is what the reports print, not a class one can ask for */
	for (int i = CXD_TC_UNSPEC + 1; i < CXD_TC_COUNT; i++)
		if (strcasecmp(s, names[i]) == 0)
			return i;
	return -1;
}

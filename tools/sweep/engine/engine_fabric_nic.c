/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's libfabric engine: one rank per NIC. With -d auto each rank
 * takes the device at its place among its host's ranks (local rank 0 the
 * provider's first device, 1 the second, ...); with a list -d cxi0,cxi1
 * it takes the list's entry at that place. Ranks of one host are told
 * apart by the host names every rank already swapped, as the rest of the
 * sweep does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_fabric_state.h"

#define MAX_NICS 64

/* "a, b, c" from the first names (what the provider offers). */
static void name_list(char (*names)[CXD_NAME_LEN], int n, char *out,
		      size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n && i < 4 && used < len; i++)
		used += (size_t) snprintf(out + used, len - used, "%s%s",
					  i ? ", " : "", names[i]);
	if (n > 4 && used < len)
		snprintf(out + used, len - used, ", ...");
}

static int pick_auto(const struct sw_fab *f, struct sw_ctx *c, char *err,
		     size_t len)
{
	char (*names)[CXD_NAME_LEN] = sw_alloc(&c->m, MAX_NICS, CXD_NAME_LEN);
	int n = cxd_fabric_devices(c->bw_run.provider,
				   f->bw_tool->ops->facts.caps, names,
				   MAX_NICS, err, len);
	char *dev = c->cfg.local.device, list[160];

	name_list(names, n < MAX_NICS ? n : MAX_NICS, list, sizeof(list));
	if (n >= 0 && c->hosts.local >= n)
		snprintf(err, len, "-d auto: this is local rank %d of %d on "
			 "its host, but provider %s lists %d device%s here "
			 "(%s): run at most %d rank%s per host, or name the "
			 "devices (-d)", c->hosts.local, c->hosts.nlocal,
			 c->bw_run.provider, n, n == 1 ? "" : "s",
			 n ? list : "none", n, n == 1 ? "" : "s");
	else if (n >= 0)
		snprintf(dev, CXD_NAME_LEN, "%s", names[c->hosts.local]);
	free(names);
	return *err ? -1 : 0;
}

/* The local rank's entry of a comma-separated list. */
static int pick_listed(struct sw_ctx *c, char *err, size_t len)
{
	char list[CXD_NAME_LEN], *save = NULL, *tok;
	int n = 0;

	snprintf(list, sizeof(list), "%s", c->cfg.local.device);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), n++)
		if (n == c->hosts.local)
			snprintf(c->cfg.local.device, CXD_NAME_LEN, "%s", tok);
	if (n != c->hosts.nlocal) {
		snprintf(err, len, "-d lists %d device%s but this host runs %d "
			 "rank%s: give one device per rank of a host, in "
			 "local rank order", n, n == 1 ? "" : "s",
			 c->hosts.nlocal, c->hosts.nlocal == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

int sw_fab_pick_device(struct sw_fab *f, struct sw_ctx *c)
{
	char err[CXD_ERR_LEN] = "";
	const char *d = c->cfg.local.device;
	int ret = 0;

	if (strcmp(d, "auto") == 0)
		ret = pick_auto(f, c, err, sizeof(err));
	else if (strchr(d, ',') != NULL)
		ret = pick_listed(c, err, sizeof(err));
	(void) ret;
	return sw_agree_err(&c->m, err);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the --topology reader (lib/sweep/model/topo*.c),
 * both formats: the input is the file (a memfd, read by its
 * /proc/self/fd path, as cxi_sweep reads a path). It aborts when:
 *   - a refusal says nothing, or its message holds a control byte (a
 *     name must be shown escaped, base/names.h);
 *   - what loads holds a name the outputs cannot carry, or an index out
 *     of its list;
 *   - ranks named after its lines are not placed where their lines say.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "fuzz_file.h"
#include "sweep/model/topo.h"
#include "sweep/model/topo_add.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RANKS 8

static void name_ok(const char *s)
{
	char why[96];

	if (cxd_name_check(s, CXD_NAME_MAX, why, sizeof(why)) != 0)
		abort();
}

/* Every name carried, every index in its list. */
static void loaded_ok(const struct cxd_topo *t)
{
	for (int i = 0; i < t->nswitch; i++)
		name_ok(t->switch_name[i]);
	for (int i = 0; i < t->ngroup; i++)
		name_ok(t->group_name[i]);
	for (int i = 0; i < t->nl; i++) {
		const struct cxd_topo_line *l = &t->l[i];

		name_ok(l->name);
		if (l->switch_ix < 0 || l->switch_ix >= t->nswitch ||
		    l->group_ix < -1 || l->group_ix >= t->ngroup)
			abort();
	}
}

/* The first lines' names as ranks' hosts: each placed by its line. */
static void place_ok(struct cxd_topo *t)
{
	struct cxd_sweep_rank r[RANKS];
	int n = t->nl < RANKS ? t->nl : RANKS, sw[RANKS], gr[RANKS];
	char err[512] = "";

	memset(r, 0, sizeof(r));
	for (int i = 0; i < n; i++) {
		snprintf(r[i].host, sizeof(r[i].host), "%s", t->l[i].name);
		snprintf(r[i].nic, sizeof(r[i].nic), "cxi0");
		snprintf(r[i].addr, sizeof(r[i].addr), "fi://10.0.0.%d:1", i);
	}
	if (cxd_topo_place(t, r, n, sw, gr, NULL, err, sizeof(err)) != 0)
		abort();
	for (int i = 0; i < n; i++)
		if (sw[i] < 0 || sw[i] >= t->nswitch || gr[i] < -1 ||
		    gr[i] >= t->ngroup)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024] = "";
	struct cxd_topo t;

	fuzz_file(data, size, path, sizeof(path));
	if (cxd_topo_load(path, &t, err, sizeof(err)) != 0) {
		fuzz_refusal_ok(err);
		return 0;
	}
	loaded_ok(&t);
	place_ok(&t);
	cxd_topo_free(&t);
	return 0;
}

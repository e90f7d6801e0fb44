/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration before any option is applied. Each default is stated
 * once: in its option's row (opts_table.c) or, for the few that differ
 * by tool, in the tool row's .def (lib/tools.c). */
#include <string.h>
#include <unistd.h>

#include "opt_value.h"

/* A quarter of physical memory: --max-mem's default, found at run time. */
static uint64_t quarter_of_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return (pages > 0 && psz > 0) ?
	       (uint64_t) pages * (uint64_t) psz / 4 : (1ULL << 32);
}

void cxd_cfg_defaults(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg)); /* "" names, flags off */
	cfg->role = CXD_SERVER;
	cfg->out.format = CXD_FMT_TEXT;
	for (unsigned i = 0; i < cxd_opt_count; i++)
		if (cxd_opt_table[i].has_init)
			cxd_opt_store(&cxd_opt_table[i], cfg,
				      cxd_opt_table[i].init);
	cfg->run.iters = tool->def.iters;
	cfg->run.list_size = tool->def.list_size;
	cfg->run.min_size = tool->def.size;
	cfg->run.max_size = tool->def.size;
	cfg->local.max_mem = quarter_of_memory();
}

/* The configuration before any option is applied. */
#include <string.h>
#include <unistd.h>

#include "opts_priv.h"

#define DEFAULT_WARMUP 10
#define DEFAULT_LATENCY_GAP_US 1000

/* Every default the tools have, once: -h and the man pages print these. */
void cxd_cfg_defaults(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	memset(cfg, 0, sizeof(*cfg));
	cfg->role = CXD_SERVER;
	cfg->local.port = CXD_DEFAULT_PORT;
	cfg->local.svc_id = 1;
	cfg->local.tx_gpu = -1;
	cfg->local.rx_gpu = -1;
	cfg->local.gpu_type = CXD_GPU_NONE;
	cfg->local.max_mem = (pages > 0 && psz > 0) ?
		(uint64_t) pages * (uint64_t) psz / 4 : (1ULL << 32);
	cfg->local.timeout_s = CXD_DEFAULT_TIMEOUT_S;
	cfg->run.iters = tool->def.iters;
	cfg->run.list_size = tool->def.list_size;
	cfg->run.min_size = tool->def.size;
	cfg->run.max_size = tool->def.size;
	cfg->run.warmup = DEFAULT_WARMUP;
	cfg->run.latency_gap_us = DEFAULT_LATENCY_GAP_US;
	cfg->run.buf_sz = CXD_DEFAULT_BUF_SZ;
	cfg->run.buf_align = CXD_DEFAULT_BUF_ALIGN;
	cfg->run.amo_op = CXD_AMO_SUM;
	cfg->run.cswap_op = CXD_CSWAP_EQ;
	cfg->run.amo_type = CXD_T_UINT64;
	cfg->out.format = CXD_FMT_TEXT;
	cfg->sweep.bw_pct = CXD_SWEEP_BW_PCT;
	cfg->sweep.lat_pct = CXD_SWEEP_LAT_PCT;
	cfg->sweep.lat_iters = CXD_SWEEP_LAT_ITERS;
}

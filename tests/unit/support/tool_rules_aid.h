/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the per-tool rules (test_tool_rules.c,
 * test_tool_rules_atomic.c): the tools, and a command line through the
 * parser with its verdict. Static inline: each test uses a part.
 */
#ifndef CXD_TEST_TOOL_RULES_AID_H
#define CXD_TEST_TOOL_RULES_AID_H

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cxd/opts.h"
#include "argv_cfg.h"

static const char *const all_tools[] = {
	"cxi_write_bw", "cxi_read_bw", "cxi_send_bw", "cxi_atomic_bw",
	"cxi_gpu_loopback_bw", "cxi_write_lat", "cxi_read_lat",
	"cxi_send_lat", "cxi_atomic_lat",
};
#define NTOOLS (sizeof(all_tools) / sizeof(all_tools[0]))

/* The verdict on one parse: with want NULL it must have returned 0, else
 * -EINVAL with a message starting with want. */
static inline void verdict(const char *want, const char *tool, int ret,
		    const char *err)
{
	if (want == NULL && ret != 0)
		fail_msg("%s: ret %d, want 0: '%s'", tool, ret, err);
	if (want != NULL &&
	    (ret != -EINVAL || strncmp(err, want, strlen(want)) != 0))
		fail_msg("%s: ret %d, err '%s', want -EINVAL and '%s...'", tool,
			 ret, err, want);
}

/* TOOL ARGS... (NULL-terminated) through the parser (support/argv_cfg.h)
 * and the verdict; ok() and bad() name the two wants. */
static inline void __attribute__((sentinel)) expect_parse(const char *want,
						   const char *tool, ...)
{
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;
	va_list ap;
	int ret;

	va_start(ap, tool);
	ret = argv_cfg_va(&cfg, err, tool, ap);
	va_end(ap);
	verdict(want, tool, ret, err);
}
#define ok(...) expect_parse(NULL, __VA_ARGS__)
#define bad(want, ...) expect_parse(want, __VA_ARGS__)


#endif

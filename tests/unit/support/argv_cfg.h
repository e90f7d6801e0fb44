/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid: a tool's command line, given as words, through the
 * library's option parser (cxd_opts_parse), as main() would hand it over.
 * Linked into every unit test (tests/tests.cmake).
 */
#ifndef CXD_TEST_ARGV_CFG_H
#define CXD_TEST_ARGV_CFG_H

#include <stdarg.h>

#include "cxd/opts.h"

/* The most words after the tool's name, and the longest word. */
#define ARGV_CFG_MAX_ARGS 24
#define ARGV_CFG_WORD 128

/*
 * TOOL ARGS... (a NULL-terminated list) into cfg. getopt permutes argv,
 * so the parser gets writable copies; err (CXD_ERR_LEN bytes) is cleared
 * first, so a stale message cannot pass. An unknown TOOL, too many or too
 * long words fail the test. Returns the parser's status: 0, -EINVAL (the
 * message in err), CXD_OPTS_HELP or CXD_OPTS_VERSION.
 */
int argv_cfg(struct cxd_cfg *cfg, char *err, const char *tool, ...)
	__attribute__((sentinel));
int argv_cfg_va(struct cxd_cfg *cfg, char *err, const char *tool,
		va_list ap);
/* The same where TOOL ARGS... must parse: a refusal fails the test with
 * the parser's message. */
void argv_cfg_ok(struct cxd_cfg *cfg, const char *tool, ...)
	__attribute__((sentinel));
/* The same, the words from a NULL-terminated array (NULL: none). */
int argv_cfg_list(struct cxd_cfg *cfg, char *err, const char *tool,
		  const char *const *args);

#endif

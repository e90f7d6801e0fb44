/* SPDX-License-Identifier: BSD-3-Clause */
/* Every tool is this file built with its own name; the table does the rest. */
#include <stdio.h>
#include <stdlib.h>

#include "session/session.h"

int main(int argc, char **argv)
{
	const struct cxd_tool *tool = cxd_tool_find(CXD_TOOL_NAME);

	if (tool == NULL) {
		fprintf(stderr, "%s: not in the tool table\n", CXD_TOOL_NAME);
		return EXIT_FAILURE;
	}
	return cxd_main(tool, argc, argv);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the tests of --topology files (test_sweep_inputs.c,
 * test_width.c): a topology loaded from a text. Static inline, with
 * cmocka's asserts: the test includes <cmocka.h> first.
 */
#ifndef CXD_TEST_TOPO_TEXT_H
#define CXD_TEST_TOPO_TEXT_H

#include <unistd.h>

#include "sweep/model/topo.h"
#include "tmp_text.h"

/* t loaded from a file holding text, which must load; the file is gone
 * after (the load reads it whole). cxd_topo_free(t) when done. */
static inline void topo_of_text(struct cxd_topo *t, const char *text)
{
	char err[256] = "";
	char *p = write_tmp(text);
	int ret = cxd_topo_load(p, t, err, sizeof(err));

	unlink(p);
	if (ret != 0)
		fail_msg("%s: %d '%s'", text, ret, err);
}

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid: the table of hostile names, tests/hostile_names.txt
 * (issue 51; its head says the format), as the unit tests of names and
 * of the outputs read it (test_names.c, test_out_hostile.c).
 */
#ifndef CXD_TEST_HOSTILE_H
#define CXD_TEST_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>

struct hostile {
	char id[32];
	bool carry;     /* as a host, switch or group name (255 bytes) */
	size_t len;     /* its bytes, NUL excluded (none in the table) */
	char name[8192];
};

/* The table's rows (count in *n), read once; NULL: the file is missing
 * or bad (the reason on stderr). */
const struct hostile *hostile_names(size_t *n);
/* The row of id; NULL when the table has none. */
const struct hostile *hostile_row(const char *id);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid for the tests that load input files (test_sweep_inputs.c,
 * test_width.c, test_names.c): a text written to a new file under /tmp;
 * and for those that read what a writer wrote (test_out_cap.c,
 * test_out_hostile.c): a file's text. Static inline,
 * with cmocka's asserts: the test includes <cmocka.h> first.
 */
#ifndef CXD_TEST_TMP_TEXT_H
#define CXD_TEST_TMP_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path of a new file holding text; the next call reuses the buffer,
 * the caller unlinks the file. */
static inline char *write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/cxd_text_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t) strlen(text));
	close(fd);
	return path;
}

/* The text of the file at path (at most max - 1 bytes, not empty), in
 * a buffer the caller frees. */
static inline char *read_text(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, max);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, max - 1, f) > 0);
	fclose(f);
	return buf;
}

#endif

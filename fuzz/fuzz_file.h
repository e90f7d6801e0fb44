/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the harnesses of the sweep's input readers share (fuzz_topo.c,
 * fuzz_baseline.c): the input as a file the reader opens by its path,
 * and the check that a refusal's message is safe to print. Static
 * inline: each harness is one program.
 */
#ifndef CXD_FUZZ_FILE_H
#define CXD_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The input as a memfd (made once, rewritten each run); its path into
 * path, as /proc/self/fd/N: the reader opens and reads it as a file. */
static inline void fuzz_file(const uint8_t *data, size_t size, char *path,
			     size_t len)
{
	static int fd = -1;

	if (fd < 0 && (fd = memfd_create("fuzz-input", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data, size, 0) != (ssize_t) size)
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
}

/* A refusal says why, with no control byte (names shown escaped). */
static inline void fuzz_refusal_ok(const char *err)
{
	if (err[0] == '\0')
		abort();
	for (; *err; err++)
		if ((unsigned char) *err < 0x20 || *err == 0x7f)
			abort();
}

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Files replaced whole: written under a temporary name in the target's
 * directory, flushed to disk, then renamed over the target. A reader (a
 * Prometheus scrape, a script polling for the file) sees the old file or
 * the new one, never half of one; on any error the temporary is removed
 * and the target is left as it was.
 */
#ifndef CXD_BASE_AFILE_H
#define CXD_BASE_AFILE_H

#include <stddef.h>
#include <stdio.h>

struct cxd_afile {
	FILE *f;             /* write here between open and commit */
	const char *path;    /* the target (the caller's string) */
	const char *what;    /* "metrics", "JSON"...: for messages */
	char tmp[4096 + 64]; /* the temporary's name */
};

/* Create the temporary (mode 0666 less the umask, as fopen would).
 * 0, or a negative errno with err naming the file. */
int cxd_afile_open(struct cxd_afile *a, const char *path, const char *what,
		   char *err, size_t len);
/* Flush, fsync, close and rename over the target; on any failure the
 * temporary is removed. 0, or a negative errno with err set. */
int cxd_afile_commit(struct cxd_afile *a, char *err, size_t len);
/* Give up: close and remove the temporary. */
void cxd_afile_abort(struct cxd_afile *a);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-file replacement by rename (afile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "afile.h"

/* DIR/.NAME.PID.N.tmp: hidden, and not matching a collector's "*.prom". */
static int tmp_name(struct cxd_afile *a, unsigned n)
{
	const char *slash = strrchr(a->path, '/');
	int dlen = slash ? (int) (slash - a->path + 1) : 0;
	const char *base = slash ? slash + 1 : a->path;
	int w = snprintf(a->tmp, sizeof(a->tmp), "%.*s.%s.%ld.%u.tmp", dlen,
			 a->path, base, (long) getpid(), n);

	return w < 0 || (size_t) w >= sizeof(a->tmp) ? -ENAMETOOLONG : 0;
}

int cxd_afile_open(struct cxd_afile *a, const char *path, const char *what,
		   char *err, size_t len)
{
	int fd = -1, ret = 0;

	memset(a, 0, sizeof(*a));
	a->path = path;
	a->what = what;
	if (path[0] == '\0' || path[strlen(path) - 1] == '/')
		ret = -EISDIR;
	/* O_EXCL: never write through a name someone else made. */
	for (unsigned n = 0; ret == 0 && n < 100; n++) {
		ret = tmp_name(a, n);
		if (ret == 0)
			fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				  0666);
		if (fd >= 0 || (ret == 0 && errno != EEXIST))
			break;
	}
	if (ret == 0 && fd < 0)
		ret = -errno;
	if (ret == 0 && (a->f = fdopen(fd, "w")) == NULL) {
		ret = -errno;
		close(fd);
		unlink(a->tmp);
	}
	if (ret)
		snprintf(err, len, "cannot write the %s file '%s': %s", what,
			 path, strerror(-ret));
	return ret;
}

int cxd_afile_commit(struct cxd_afile *a, char *err, size_t len)
{
	int ret = 0, bad = ferror(a->f);

	errno = 0;
	if (fflush(a->f) != 0 || bad)
		ret = errno ? -errno : -EIO;
	/* The data on disk before the name: a crash leaves the old file. */
	if (ret == 0 && fsync(fileno(a->f)) != 0 && errno != EINVAL)
		ret = -errno;
	if (fclose(a->f) != 0 && ret == 0)
		ret = -errno;
	a->f = NULL;
	if (ret == 0 && rename(a->tmp, a->path) != 0)
		ret = -errno;
	if (ret) {
		unlink(a->tmp);
		snprintf(err, len, "cannot write the %s file '%s': %s",
			 a->what, a->path, strerror(-ret));
	}
	return ret;
}

void cxd_afile_abort(struct cxd_afile *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	unlink(a->tmp);
}

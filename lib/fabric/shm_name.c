/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names for shm endpoints. By default libfabric's shm provider names an
 * endpoint's region /dev/shm/<pid>:<ep>:<domain>; a process killed with
 * SIGKILL leaves it behind, and a later process given the same pid then
 * fails in fi_enable (EBUSY). Our regions carry a prefix, the owner's pid
 * and a nonce instead, and those of dead owners are removed at start.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "fabric.h"

#define SHM_DIR "/dev/shm"
#define PREFIX "cxd_"

void cxd_shm_name(char *buf, size_t len)
{
	uint64_t t = cxd_now_ns(); /* a nonce: pids are reused */

	snprintf(buf, len, PREFIX "%ld_%lx%lx", (long) getpid(),
		 (unsigned long) (t / 1000000000ULL),
		 (unsigned long) (t % 1000000000ULL));
}

/* The owner pid in "cxd_<pid>_<nonce>:...", or 0 if not ours. */
static long owner_of(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, PREFIX, strlen(PREFIX)) != 0)
		return 0;
	pid = strtol(name + strlen(PREFIX), &end, 10);
	return *end == '_' && pid > 0 ? pid : 0;
}

/* Remove the regions of dead owners, or (own) those of this process. */
static void reap(bool own)
{
	char path[512];
	struct dirent *e;
	DIR *d = opendir(SHM_DIR);
	long pid;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		pid = owner_of(e->d_name);
		if (pid == 0)
			continue;
		if (own ? pid != (long) getpid()
			: (kill((pid_t) pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), SHM_DIR "/%s", e->d_name);
		(void) unlink(path); /* best effort: another may beat us */
	}
	closedir(d);
}

void cxd_shm_reap(void)
{
	reap(false);
}

void cxd_shm_remove_own(void)
{
	reap(true);
}

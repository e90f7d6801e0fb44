/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory this process may still take (see mem_avail.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mem_avail.h"

/* One number from a file; 0 when unreadable. "max" (v2) reads as 0. */
static uint64_t read_u64(const char *root, const char *dir, const char *name)
{
	char path[1024];
	uint64_t v = 0;
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s%s/%s", root, dir, name);

	/* a cut path would name another file: read nothing */
	if (n < 0 || (size_t) n >= sizeof(path))
		return 0;
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%" SCNu64, &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static uint64_t meminfo(const char *root)
{
	char path[1024], line[256];
	unsigned long long kb;
	uint64_t avail = UINT64_MAX;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			avail = (uint64_t) kb * 1024;
	if (f)
		fclose(f);
	return avail;
}

/* Room left in cgroup dir and every one above it (the mount, mnt, is
 * the top): the smallest limit less usage. v1 reports no limit as a
 * huge number, v2 as "max"; both read as no bound. */
static uint64_t cgroup_room(const char *root, const char *mnt,
			    const char *path, const char *lim_f,
			    const char *use_f)
{
	char dir[1024];
	uint64_t room = UINT64_MAX;

	snprintf(dir, sizeof(dir), "%s%s", mnt, path);
	for (;;) {
		uint64_t lim = read_u64(root, dir, lim_f);
		uint64_t use = read_u64(root, dir, use_f);
		char *slash;

		if (lim > 0 && lim < (UINT64_C(1) << 60))
			room = lim > use ? (lim - use < room ? lim - use :
					    room) : 0;
		slash = strrchr(dir, '/');
		if (slash == NULL || (size_t) (slash - dir) < strlen(mnt))
			break;
		*slash = '\0';
	}
	return room;
}

uint64_t cxd_mem_available(const char *root)
{
	char path[1024], line[1024];
	uint64_t avail = meminfo(root), room = UINT64_MAX;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *cg;
		uint64_t r = UINT64_MAX;

		if (ctl == NULL || (cg = strchr(ctl + 1, ':')) == NULL)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (strcmp(cg, "/") == 0)
			cg = "";
		if (strcmp(ctl + 1, "") == 0) /* v2: "0::/path" */
			r = cgroup_room(root, "/sys/fs/cgroup", cg,
					"memory.max", "memory.current");
		else if (strstr(ctl + 1, "memory")) /* v1 */
			r = cgroup_room(root, "/sys/fs/cgroup/memory", cg,
					"memory.limit_in_bytes",
					"memory.usage_in_bytes");
		room = r < room ? r : room;
	}
	if (f)
		fclose(f);
	return room < avail ? room : avail;
}

/*
 * Intel GPUs (Level Zero, libze_loader). Loaded with dlopen like the
 * others; the memory calls are not implemented yet, so a found library
 * is refused with a message rather than used half-way.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "cxd/config.h"
#include "cxd/gpu.h"

int cxd_gpu_open_ze(struct cxd_gpu *g, char *err, size_t errlen)
{
	static const char *const libs[] = { "libze_loader.so.1",
					    "libze_loader.so", NULL };
	void *lib = NULL;

	for (const char *const *l = libs; *l && lib == NULL; l++) {
		lib = dlopen(*l, RTLD_NOW | RTLD_LOCAL);
		g->lib_name = *l;
	}
	if (lib == NULL) {
		snprintf(err, errlen, "Invalid GPU type or unable to find GPU "
			 "libraries: INTEL needs the Level Zero loader (%s): %s",
			 g->lib_name, dlerror());
		return -ENOENT;
	}
	dlclose(lib);
	snprintf(err, errlen, "INTEL GPU memory (Level Zero, %s found) is not "
		 "supported by this version yet; use system memory (no -t/-r)",
		 g->lib_name);
	return -EOPNOTSUPP;
}

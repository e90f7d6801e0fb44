/* SPDX-License-Identifier: BSD-3-Clause */
/* Loading a vendor's runtime library (gpu_load.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "gpu_load.h"

#define NO_LIB "Invalid GPU type or unable to find GPU libraries: "

int cxd_gpu_load(struct cxd_gpu *g, const char *const *libs,
		 const char *what, const char *kind, char *err,
		 size_t errlen)
{
	for (; *libs && g->lib == NULL; libs++) {
		g->lib = dlopen(*libs, RTLD_NOW | RTLD_LOCAL);
		g->lib_name = *libs;
	}
	if (g->lib != NULL)
		return 0;
	snprintf(err, errlen, NO_LIB "%s needs the %s %s (%s): %s",
		 cxd_gpu_type_name(g->type), what, kind, g->lib_name,
		 dlerror());
	return -ENOENT;
}

int cxd_gpu_lacks(const struct cxd_gpu *g, const char *missing, char *err,
		  size_t errlen)
{
	snprintf(err, errlen, NO_LIB "%s lacks %s", g->lib_name, missing);
	return -ENOENT;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loading a vendor's runtime library, shared by the CUDA/HIP opener
 * (gpu_cudart.c) and Level Zero's (gpu_ze.c), so that both try the same
 * way and refuse in the same words.
 */
#ifndef CXD_GPU_LOAD_H
#define CXD_GPU_LOAD_H

#include <stddef.h>

#include "gpu.h"

/* dlopen()s the first of libs (NULL-ended) that loads into g->lib, with
 * g->lib_name the last one tried; 0, or -ENOENT and err saying that the
 * GPU type needs the vendor's "what kind" (e.g. "the CUDA runtime"). */
int cxd_gpu_load(struct cxd_gpu *g, const char *const *libs,
		 const char *what, const char *kind, char *err,
		 size_t errlen);

/* -ENOENT, err naming the symbol the loaded library lacks. */
int cxd_gpu_lacks(const struct cxd_gpu *g, const char *missing, char *err,
		  size_t errlen);

#endif

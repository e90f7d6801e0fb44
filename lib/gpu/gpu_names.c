/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU type names: apart from gpu.c so that the handshake fuzzer, which
 * links only pure sources, can print them without libfabric or dlopen. */
#include "cxd/config.h"
#include "gpu.h"

const char *cxd_gpu_type_name(int type)
{
	static const char *const names[] = { "AMD", "NVIDIA", "INTEL" };

	if (type < CXD_GPU_AMD || type > CXD_GPU_INTEL)
		return "none";
	return names[type];
}

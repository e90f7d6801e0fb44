/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffer arithmetic: page sizes, page counts, alignment (pure). */
#include <unistd.h>

#include "cxd/config.h"
#include "sizes.h"

size_t cxd_hp_size(int hugepages)
{
	if (hugepages == CXD_HP_2M)
		return 2UL << 20;
	if (hugepages == CXD_HP_1G)
		return 1UL << 30;
	return (size_t) sysconf(_SC_PAGESIZE);
}

uint64_t cxd_roundup(uint64_t v, uint64_t align)
{
	uint64_t r = v % align;

	if (r == 0)
		return v;
	return v + (align - r) < v ? 0 : v + (align - r);
}

uint64_t cxd_pages_needed(uint64_t len, int hugepages)
{
	uint64_t sz = cxd_hp_size(hugepages);

	return len / sz + (len % sz != 0);
}

/* Page-aligned buffers from mmap, with the originals' huge-page check. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cxd/config.h"
#include "cxd/mem.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

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

long cxd_hp_free(int hugepages)
{
	char path[96];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/hugepages/hugepages-%zukB/free_hugepages",
		 cxd_hp_size(hugepages) >> 10);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

int cxd_buf_alloc(size_t len, int hugepages, uint8_t fill, struct cxd_buf *b,
		  char *err, size_t errlen)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	size_t sz = cxd_hp_size(hugepages);

	memset(b, 0, sizeof(*b));
	b->len = len;
	b->map_len = (size_t) cxd_roundup(len ? len : 1, sz);
	b->hugepages = hugepages;
	b->fill = fill;
	if (b->map_len == 0) {
		snprintf(err, errlen, "buffer of %zu bytes is too large", len);
		return -ENOMEM;
	}
	if (hugepages != CXD_HP_NONE)
		flags |= MAP_HUGETLB | ((hugepages == CXD_HP_2M ? 21 : 30)
					<< MAP_HUGE_SHIFT);
	b->ptr = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (b->ptr == MAP_FAILED) {
		int e = errno;

		b->ptr = NULL;
		snprintf(err, errlen, "cannot allocate a %zu-byte buffer%s: %s",
			 b->map_len, hugepages ? " in huge pages" : "",
			 strerror(e));
		return -e;
	}
	return 0;
}

/* Separate from the mapping so the summary can print before this slow part. */
void cxd_buf_touch(struct cxd_buf *b)
{
	if (b->ptr)
		memset(b->ptr, b->fill, b->map_len);
}

void cxd_buf_free(struct cxd_buf *b)
{
	if (b->ptr)
		munmap(b->ptr, b->map_len);
	b->ptr = NULL;
}

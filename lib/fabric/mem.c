/* SPDX-License-Identifier: BSD-3-Clause */
/* Page-aligned buffers from mmap, with the originals' huge-page check. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cxd/config.h"
#include "gpu/gpu.h"
#include "base/sizes.h"
#include "mem.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

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
	b->dev = -1;
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

int cxd_buf_alloc_gpu(const struct cxd_gpu *g, int dev, size_t len,
		      uint8_t fill, struct cxd_buf *b, char *err,
		      size_t errlen)
{
	int ret;

	memset(b, 0, sizeof(*b));
	b->len = len;
	b->map_len = len ? len : 1;
	b->dev = dev;
	ret = g->ops->select(g, dev);
	if (ret == 0)
		ret = g->ops->alloc(g, &b->ptr, b->map_len);
	if (ret) {
		snprintf(err, errlen, "cannot allocate a %zu-byte buffer on %s "
			 "GPU %d (%s): %s", b->map_len,
			 cxd_gpu_type_name(g->type), dev, g->runtime,
			 strerror(-ret));
		b->ptr = NULL;
		return ret;
	}
	b->gpu = g;
	ret = g->ops->fill(g, b->ptr, fill, b->map_len);
	if (ret)
		snprintf(err, errlen, "cannot fill a %zu-byte buffer on %s GPU "
			 "%d (%s): %s", b->map_len, cxd_gpu_type_name(g->type),
			 dev, g->runtime, strerror(-ret));
	return ret;
}

/* Separate from the mapping so the summary can print before this slow part. */
void cxd_buf_touch(struct cxd_buf *b)
{
	if (b->ptr && !b->gpu) /* GPU buffers are filled at allocation */
		memset(b->ptr, b->fill, b->map_len);
}

void cxd_buf_free(struct cxd_buf *b)
{
	if (b->ptr && b->gpu) {
		b->gpu->ops->select(b->gpu, b->dev);
		b->gpu->ops->free(b->gpu, b->ptr);
	} else if (b->ptr) {
		munmap(b->ptr, b->map_len);
	}
	b->ptr = NULL;
}

int cxd_buf_set(const struct cxd_buf *b, uint8_t v)
{
	if (b->gpu == NULL) {
		memset(b->ptr, v, b->map_len);
		return 0;
	}
	if (b->gpu->ops->select(b->gpu, b->dev) != 0)
		return -ENODEV;
	return b->gpu->ops->fill(b->gpu, b->ptr, v, b->map_len);
}

int cxd_buf_write(const struct cxd_buf *b, size_t off, const void *src,
		  size_t len)
{
	if (off > b->map_len || len > b->map_len - off)
		return -ERANGE;
	if (b->gpu == NULL) {
		memcpy((char *) b->ptr + off, src, len);
		return 0;
	}
	if (b->gpu->ops->select(b->gpu, b->dev) != 0)
		return -ENODEV;
	return b->gpu->ops->from_host(b->gpu, (char *) b->ptr + off, src, len);
}

int cxd_buf_read(const struct cxd_buf *b, size_t off, void *dst, size_t len)
{
	if (off > b->map_len || len > b->map_len - off)
		return -ERANGE;
	if (b->gpu == NULL) {
		memcpy(dst, (const char *) b->ptr + off, len);
		return 0;
	}
	if (b->gpu->ops->select(b->gpu, b->dev) != 0)
		return -ENODEV;
	return b->gpu->ops->to_host(b->gpu, dst, (const char *) b->ptr + off,
				    len);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Data buffers: page-aligned system memory, optionally huge pages. */
#ifndef CXD_MEM_H
#define CXD_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "base/sizes.h"

struct cxd_gpu;

struct cxd_buf {
	void *ptr;
	size_t len;     /* what the run asked for */
	size_t map_len; /* rounded up to the page or huge-page size */
	int hugepages;  /* enum cxd_hugepage */
	const struct cxd_gpu *gpu; /* NULL: host memory from mmap */
	int dev;                   /* GPU index; -1 for host memory */
	uint8_t fill;   /* written by cxd_buf_touch */
};

/* Free huge pages of that size now (-1 when the kernel has none). */
long cxd_hp_free(int hugepages);

int cxd_buf_alloc(size_t len, int hugepages, uint8_t fill, struct cxd_buf *b,
		  char *err, size_t errlen);
/* A buffer in GPU memory: device dev of g, filled with fill. */
int cxd_buf_alloc_gpu(const struct cxd_gpu *g, int dev, size_t len,
		      uint8_t fill, struct cxd_buf *b, char *err,
		      size_t errlen);
/* Write the fill byte to every page, so the timed loop never takes a
 * first fault; cxd_buf_alloc only maps. */
void cxd_buf_touch(struct cxd_buf *b);
void cxd_buf_free(struct cxd_buf *b);
/* Whatever memory holds the buffer (GPU: through the runtime's copy). */
int cxd_buf_set(const struct cxd_buf *b, uint8_t v);
int cxd_buf_write(const struct cxd_buf *b, size_t off, const void *src,
		  size_t len);
int cxd_buf_read(const struct cxd_buf *b, size_t off, void *dst,
		 size_t len);

#endif

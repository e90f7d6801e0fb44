/* Data buffers: page-aligned system memory, optionally huge pages. */
#ifndef CXD_MEM_H
#define CXD_MEM_H

#include <stddef.h>
#include <stdint.h>

struct cxd_buf {
	void *ptr;
	size_t len;     /* what the run asked for */
	size_t map_len; /* rounded up to the page or huge-page size */
	int hugepages;  /* enum cxd_hugepage */
	uint8_t fill;   /* written by cxd_buf_touch */
};

size_t cxd_hp_size(int hugepages);
/* Pages a buffer of len bytes needs (system page or huge page). */
uint64_t cxd_pages_needed(uint64_t len, int hugepages);
/* Free huge pages of that size now (-1 when the kernel has none). */
long cxd_hp_free(int hugepages);
/* Round up without overflow; 0 on overflow. */
uint64_t cxd_roundup(uint64_t v, uint64_t align);

int cxd_buf_alloc(size_t len, int hugepages, uint8_t fill, struct cxd_buf *b,
		  char *err, size_t errlen);
/* Write the fill byte to every page, so the timed loop never takes a
 * first fault; cxd_buf_alloc only maps. */
void cxd_buf_touch(struct cxd_buf *b);
void cxd_buf_free(struct cxd_buf *b);

#endif

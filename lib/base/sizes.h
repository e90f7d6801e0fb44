/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffer arithmetic shared by the handshake's limits and the buffers. */
#ifndef CXD_SIZES_H
#define CXD_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* Bytes per page: the system page, or a huge page (enum cxd_hugepage). */
size_t cxd_hp_size(int hugepages);
/* Pages a buffer of len bytes needs (system page or huge page). */
uint64_t cxd_pages_needed(uint64_t len, int hugepages);
/* Round up without overflow; 0 on overflow. */
uint64_t cxd_roundup(uint64_t v, uint64_t align);

#endif

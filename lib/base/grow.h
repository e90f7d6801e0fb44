/* SPDX-License-Identifier: BSD-3-Clause */
/* An array that grows by doubling (grow.c). */
#ifndef CXD_BASE_GROW_H
#define CXD_BASE_GROW_H

#include <stddef.h>

/* Room for need items of size bytes in *p (*cap items now): 0, or
 * -ENOMEM with *p and *cap as they were. */
int cxd_grow(void **p, size_t *cap, size_t need, size_t size);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* An array that grows by doubling (grow.h). */
#include <errno.h>
#include <stdlib.h>

#include "grow.h"

int cxd_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (q == NULL)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Slurm's host list notation: "n[01-04,07],login1,r[1-2]n[1-3]". Each
 * bracket holds numbers and ranges; a range's lower bound gives the
 * width it is zero-padded to ("n[08-10]": n08 n09 n10). Used for
 * SLURM_STEP_NODELIST and topology.conf.
 */
#ifndef CXD_BASE_HOSTLIST_H
#define CXD_BASE_HOSTLIST_H

#include <stddef.h>

#define CXD_HOSTLIST_NAME 256
#define CXD_HOSTLIST_MAX 10000000 /* names one list may expand to */

/* Called for each name in order: 0 goes on, anything else stops the walk
 * and is returned. */
typedef int (*cxd_host_fn)(const char *name, void *arg);

/* Walk list's names. 0, the callback's stop value, or -EINVAL with err
 * naming what is wrong (an unclosed bracket, a range that runs down...). */
int cxd_hostlist_each(const char *list, cxd_host_fn fn, void *arg, char *err,
		      size_t len);

#endif

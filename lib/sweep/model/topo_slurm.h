/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology as Slurm's topology.conf (topo_slurm.c). */
#ifndef CXD_SWEEP_TOPO_SLURM_H
#define CXD_SWEEP_TOPO_SLURM_H

#include <stddef.h>
#include <stdio.h>

#include "topo_types.h"

/* Is f (at its start) Slurm's topology.conf? f is left at its start.
 * Then read it all into t (t->slurm set). */
int cxd_topo_is_slurm(FILE *f);
int cxd_topo_slurm(struct cxd_topo *t, FILE *f, char *err, size_t len);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One launcher step runs a pair (srun -N2 -n2 TOOL, mpirun -np 2 TOOL):
 * each process takes its role from the launcher's rank, rank 0 the
 * server and rank 1 the client, with no MPI library. How the client finds
 * the server (docs/site.md):
 *   --rendezvous DIR  the server writes "HOST PORT" to a file in DIR (any
 *                     launcher; DIR shared by both nodes), the client
 *                     waits for it;
 *   else Slurm        the server is on the step's first node
 *                     (SLURM_STEP_NODELIST), the port derived from the job
 *                     and step ids unless -p is given;
 *   else one node     (both ranks on this node) 127.0.0.1, the port
 *                     derived from the job id unless -p is given.
 */
#ifndef CXD_LAUNCH_H
#define CXD_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "cxd/config.h"

struct cxd_step {
	const char *who;  /* "srun", "mpirun" */
	const char *size_var; /* the variable that gave the size */
	int rank, size;
	int one_node;     /* both ranks on this node, as the launcher says */
	char key[96];     /* the job (and step) id: names the file, the port */
	char first[CXD_HOST_LEN]; /* Slurm: the step's first node */
};

/* Is this process a task of a launcher step? 1 (st filled) or 0. A
 * variable that is set but not a number: -EINVAL, err says which. */
int cxd_step_find(struct cxd_step *st, char *err, size_t len);

/* A one-task step whose task is a shell (srun --pty bash), not this
 * tool: a server started by hand there is no launcher step. */
int cxd_step_alone(const struct cxd_step *st);

/* Choose the role (cfg->role) and, for the client, the server's address
 * (waiting for the rendezvous file, bounded). -EINVAL: bad input (exit
 * 2: not 2 ranks, no way to find the server...); other negative errno:
 * the rendezvous failed. err says why. */
int cxd_step_roles(struct cxd_cfg *cfg, const struct cxd_step *st, char *err,
		   size_t len);

/* The server, listening on port: publish it (--rendezvous), and remove
 * the file at the end. 0 or a negative errno, err set. */
int cxd_step_publish(const struct cxd_cfg *cfg, const struct cxd_step *st,
		     uint32_t port, char *err, size_t len);
void cxd_step_unpublish(const struct cxd_cfg *cfg, const struct cxd_step *st);

#endif

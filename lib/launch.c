/* SPDX-License-Identifier: BSD-3-Clause */
/* A pair in one launcher step: roles and rendezvous (launch.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/clock.h"
#include "base/hostlist.h"
#include "base/signals.h"
#include "launch.h"

#define STEP_WAIT_S 30    /* the client waits for its server at least this */
#define STEP_PORT_BASE 20000
#define STEP_PORTS 10000  /* derived ports: 20000-29999, below Linux's
			   * ephemeral range */

/* A variable holding a count or rank: 1 read, 0 unset, -EINVAL not one. */
static int env_int(const char *name, int *v, char *err, size_t len)
{
	const char *s = getenv(name);
	char *end;
	long x;

	if (s == NULL)
		return 0;
	errno = 0;
	x = strtol(s, &end, 10);
	if (*s == '\0' || *end || errno || x < 0 || x > INT_MAX) {
		snprintf(err, len, "the launcher's %s is '%s', not a count",
			 name, s);
		return -EINVAL;
	}
	*v = (int) x;
	return 1;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *s = getenv(name);

	return s && s[0] ? s : dflt;
}

static int first_host(const char *name, void *arg)
{
	snprintf(arg, CXD_HOST_LEN, "%s", name);
	return 1; /* the first is enough */
}

static int slurm_step(struct cxd_step *st, char *err, size_t len)
{
	const char *nodes = getenv("SLURM_STEP_NODELIST");
	char why[200];
	int nn = 0, r;

	st->who = "srun";
	st->size_var = "SLURM_STEP_NUM_TASKS";
	r = env_int("SLURM_STEP_NUM_NODES", &nn, err, len);
	if (r < 0)
		return r;
	st->one_node = nn == 1;
	snprintf(st->key, sizeof(st->key), "slurm-%s.%s",
		 env_or("SLURM_JOB_ID", "0"), env_or("SLURM_STEP_ID", "0"));
	if (nodes && cxd_hostlist_each(nodes, first_host, st->first, why,
				       sizeof(why)) < 0) {
		snprintf(err, len, "the launcher's SLURM_STEP_NODELIST: %s", why);
		return -EINVAL;
	}
	return 1;
}

/* A step of an MPI launcher (who) that names each rank, the size and the
 * ranks on this node in the variables rank, size and local; its key is
 * kind-job. 1: it started us; 0: its variables are not set; -EINVAL. */
static int mpi_step(struct cxd_step *st, const char *who, const char *rank,
		    const char *size, const char *local, const char *kind,
		    const char *job, char *err, size_t len)
{
	int r = env_int(rank, &st->rank, err, len);
	int s = env_int(size, &st->size, err, len);
	int ls = 0, l = env_int(local, &ls, err, len);

	if (r < 0 || s < 0 || l < 0)
		return -EINVAL;
	if (!r || !s)
		return 0;
	st->who = who;
	st->size_var = size;
	st->one_node = ls == st->size;
	snprintf(st->key, sizeof(st->key), "%s-%s", kind, job);
	return 1;
}

int cxd_step_find(struct cxd_step *st, char *err, size_t len)
{
	int r, s;

	memset(st, 0, sizeof(*st));
	/* Open MPI first: its ranks inside a Slurm job also carry the
	 * variables of the step that started Open MPI's daemons. */
	r = mpi_step(st, "mpirun", "OMPI_COMM_WORLD_RANK",
		     "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
		     "ompi", env_or("OMPI_MCA_ess_base_jobid",
				    env_or("PMIX_NAMESPACE", "0")),
		     err, len);
	if (r != 0)
		return r;
	r = env_int("SLURM_PROCID", &st->rank, err, len);
	s = env_int("SLURM_STEP_NUM_TASKS", &st->size, err, len);
	if (r < 0 || s < 0)
		return -EINVAL;
	if (r && s)
		return slurm_step(st, err, len);
	/* MPICH's Hydra and other PMI launchers. */
	return mpi_step(st, "mpiexec", "PMI_RANK", "PMI_SIZE",
			"MPI_LOCALNRANKS", "pmi", env_or("PMI_JOBID", "0"), err,
			len);
}

/* The same port on both ranks, from the step's key (FNV-1a). */
static uint32_t step_port(const struct cxd_step *st)
{
	uint32_t h = 2166136261u;

	for (const char *p = st->key; *p; p++)
		h = (h ^ (unsigned char) *p) * 16777619u;
	return STEP_PORT_BASE + h % STEP_PORTS;
}

static void rdv_path(const struct cxd_cfg *cfg, const struct cxd_step *st,
		     char *path, size_t len)
{
	snprintf(path, len, "%s/cxd-%s.addr", cfg->local.rendezvous, st->key);
}

/* The client: wait (bounded) for the server's file, then read it. */
static int rdv_read(struct cxd_cfg *cfg, const struct cxd_step *st,
		    int wait_ms, char *err, size_t len)
{
	char path[CXD_HOST_LEN + 128], host[CXD_HOST_LEN];
	uint64_t deadline = cxd_deadline_in(wait_ms);
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	unsigned port = 0;
	int got = 0;
	FILE *f;

	rdv_path(cfg, st, path, sizeof(path));
	while ((f = fopen(path, "r")) == NULL) {
		int e = errno;

		if (e != ENOENT || cxd_sig_pending() ||
		    cxd_ms_left(deadline, cxd_now_ns()) <= 0) {
			snprintf(err, len, "the server's address did not "
				 "appear in '%s' within %d s: %s", path,
				 wait_ms / 1000, e == ENOENT ?
				 "did rank 0 start, and do both nodes see "
				 "that directory?" : strerror(e));
			return e == ENOENT ? -ETIMEDOUT : -e;
		}
		nanosleep(&nap, NULL);
	}
	got = fscanf(f, "%255s %u", host, &port);
	fclose(f);
	if (got != 2 || port == 0 || port > 65535) {
		snprintf(err, len, "'%s' does not hold 'HOST PORT'", path);
		return -EPROTO;
	}
	snprintf(cfg->local.host, sizeof(cfg->local.host), "%s", host);
	cfg->local.port = port;
	return 0;
}

/* How long the client waits for its server (seconds). */
static uint32_t wait_s(const struct cxd_cfg *cfg)
{
	return cfg->local.timeout_s > STEP_WAIT_S ? cfg->local.timeout_s
						  : STEP_WAIT_S;
}

static int client_role(struct cxd_cfg *cfg, const struct cxd_step *st,
		       char *err, size_t len)
{
	cfg->role = CXD_CLIENT;
	cfg->local.connect_wait_ms = wait_s(cfg) * 1000;
	if (cfg->local.rendezvous[0])
		return rdv_read(cfg, st, (int) wait_s(cfg) * 1000, err, len);
	if (!(cfg->local.given & CXD_GIVEN_PORT))
		cfg->local.port = step_port(st);
	if (st->one_node) {
		snprintf(cfg->local.host, sizeof(cfg->local.host), "127.0.0.1");
		return 0;
	}
	if (st->first[0]) {
		snprintf(cfg->local.host, sizeof(cfg->local.host), "%s",
			 st->first);
		return 0;
	}
	snprintf(err, len, "%s put the 2 ranks on 2 nodes and does not say "
		 "where rank 0 is: give --rendezvous DIR, a directory both "
		 "nodes see", st->who);
	return -EINVAL;
}

/* Was this process started by the launcher's daemon itself, or by a
 * shell that runs in a step (srun --pty bash)? */
static int launched_directly(void)
{
	static const char *const daemons[] = { "slurmstepd", "orted", "prted",
					       "hydra_pmi_proxy", NULL };
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long) getppid());
	f = fopen(path, "r");
	if (f == NULL)
		return 1; /* cannot tell: take the variables at their word */
	if (fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
	for (int i = 0; daemons[i]; i++)
		if (strncmp(comm, daemons[i], 15) == 0) /* comm: 15 chars */
			return 1;
	return 0;
}

int cxd_step_alone(const struct cxd_step *st)
{
	return st->size == 1 && !launched_directly();
}

int cxd_step_roles(struct cxd_cfg *cfg, const struct cxd_step *st, char *err,
		   size_t len)
{
	if (st->size != 2) {
		snprintf(err, len, "%s started %d ranks (%s=%d): a pair needs "
			 "exactly 2 (one server, one client); to serve one "
			 "client by hand, start the tool outside the launcher",
			 st->who, st->size, st->size_var, st->size);
		return -EINVAL;
	}
	if (st->rank > 1) {
		snprintf(err, len, "rank %d of %s's 2: the launcher's "
			 "variables disagree", st->rank, st->who);
		return -EINVAL;
	}
	if (st->rank == 1)
		return client_role(cfg, st, err, len);
	cfg->role = CXD_SERVER;
	/* Twice the client's: it may start late, then wait its own. */
	cfg->local.connect_wait_ms = 2 * wait_s(cfg) * 1000;
	if (!(cfg->local.given & CXD_GIVEN_PORT))
		cfg->local.port = cfg->local.rendezvous[0] ? 0 : step_port(st);
	/* Without a file the client cannot see the server's --metrics or
	 * output anyway; the client reports (as --local). */
	cfg->out.metrics[0] = '\0';
	return 0;
}

int cxd_step_publish(const struct cxd_cfg *cfg, const struct cxd_step *st,
		     uint32_t port, char *err, size_t len)
{
	char path[CXD_HOST_LEN + 128], host[CXD_HOST_LEN] = "";
	struct cxd_afile a;
	int ret;

	if (!cfg->local.rendezvous[0])
		return 0;
	if (cfg->local.bind[0])
		snprintf(host, sizeof(host), "%s", cfg->local.bind);
	else if (gethostname(host, sizeof(host) - 1) != 0)
		return -errno;
	rdv_path(cfg, st, path, sizeof(path));
	ret = cxd_afile_open(&a, path, "rendezvous", err, len);
	if (ret == 0) {
		fprintf(a.f, "%s %u\n", host, port);
		ret = cxd_afile_commit(&a, err, len);
	}
	return ret;
}

void cxd_step_unpublish(const struct cxd_cfg *cfg, const struct cxd_step *st)
{
	char path[CXD_HOST_LEN + 128];

	if (!cfg->local.rendezvous[0])
		return;
	rdv_path(cfg, st, path, sizeof(path));
	unlink(path);
}

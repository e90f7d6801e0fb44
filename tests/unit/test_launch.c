/* SPDX-License-Identifier: BSD-3-Clause */
/* One launcher step (lib/launch.c): the rank and size from each launcher's
 * variables, the roles, the server's address without MPI, bad counts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "launch.h"
#include "support/unit_main.h"

static const char *const vars[] = {
	"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
	"OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_MCA_ess_base_jobid",
	"PMIX_NAMESPACE", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS",
	"SLURM_STEP_NUM_NODES", "SLURM_STEP_NODELIST", "SLURM_JOB_ID",
	"SLURM_STEP_ID", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS", "PMI_JOBID",
};

static int clear(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	return 0;
}

static void slurm(const char *rank, const char *ntasks, const char *nodes,
		  const char *list)
{
	setenv("SLURM_PROCID", rank, 1);
	setenv("SLURM_STEP_NUM_TASKS", ntasks, 1);
	setenv("SLURM_STEP_NUM_NODES", nodes, 1);
	setenv("SLURM_STEP_NODELIST", list, 1);
	setenv("SLURM_JOB_ID", "4242", 1);
	setenv("SLURM_STEP_ID", "0", 1);
}

static void test_no_launcher(void **state)
{
	struct cxd_step st;
	char err[256];

	(void) state;
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 0);
}

/* Two nodes under srun: the client goes to the step's first node, at the
 * port both ranks derive from the job and step; -p wins. */
static void test_slurm_two_nodes(void **state)
{
	struct cxd_cfg srv = { 0 }, cli = { 0 };
	struct cxd_step st;
	char err[256];

	(void) state;
	slurm("0", "2", "2", "nid[007-008]");
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	assert_int_equal(cxd_step_roles(&srv, &st, err, sizeof(err)), 0);
	assert_int_equal(srv.role, CXD_SERVER);
	assert_int_equal(srv.local.connect_wait_ms, 60000); /* bounded */
	setenv("SLURM_PROCID", "1", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	assert_string_equal(st.first, "nid007");
	assert_false(st.one_node);
	assert_int_equal(cxd_step_roles(&cli, &st, err, sizeof(err)), 0);
	assert_int_equal(cli.role, CXD_CLIENT);
	assert_string_equal(cli.local.host, "nid007");
	assert_int_equal(cli.local.port, srv.local.port);
	assert_true(cli.local.port >= 20000 && cli.local.port < 30000);
	assert_true(cli.local.connect_wait_ms >= 30000);
	memset(&cli, 0, sizeof(cli));
	cli.local.port = 5555;
	cli.local.given = CXD_GIVEN_PORT;
	assert_int_equal(cxd_step_roles(&cli, &st, err, sizeof(err)), 0);
	assert_int_equal(cli.local.port, 5555);
}

static void test_counts_refused(void **state)
{
	struct cxd_cfg cfg = { 0 };
	struct cxd_step st;
	char err[256];

	(void) state;
	slurm("0", "3", "1", "n1");
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	assert_int_equal(cxd_step_roles(&cfg, &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "srun started 3 ranks "
				    "(SLURM_STEP_NUM_TASKS=3)"));
	setenv("SLURM_STEP_NUM_TASKS", "two", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'two'"));
	slurm("0", "2", "2", "n[1-");
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SLURM_STEP_NODELIST: "));
}

/* Open MPI wins over the Slurm step that started its daemons; on one
 * node the client goes to 127.0.0.1; on two it needs --rendezvous. */
static void test_ompi(void **state)
{
	struct cxd_cfg cfg = { 0 };
	struct cxd_step st;
	char err[256];

	(void) state;
	slurm("0", "1", "2", "n[1-2]");
	setenv("OMPI_COMM_WORLD_RANK", "1", 1);
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
	setenv("OMPI_MCA_ess_base_jobid", "77", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	assert_string_equal(st.who, "mpirun");
	assert_int_equal(cxd_step_roles(&cfg, &st, err, sizeof(err)), 0);
	assert_string_equal(cfg.local.host, "127.0.0.1");
	setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "1", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	assert_int_equal(cxd_step_roles(&cfg, &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--rendezvous DIR"));
}

/* The rendezvous file: published whole by the server, read by the client,
 * removed at the end; a missing one is waited for, bounded. */
static void test_rendezvous(void **state)
{
	struct cxd_cfg srv = { 0 }, cli = { 0 };
	struct cxd_step st;
	char dir[] = "/tmp/cxd-rdv.XXXXXX", err[512], path[600];

	(void) state;
	assert_non_null(mkdtemp(dir));
	setenv("PMI_RANK", "0", 1);
	setenv("PMI_SIZE", "2", 1);
	setenv("PMI_JOBID", "9", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	snprintf(srv.local.rendezvous, sizeof(srv.local.rendezvous), "%s", dir);
	snprintf(srv.local.bind, sizeof(srv.local.bind), "10.9.8.7");
	assert_int_equal(cxd_step_roles(&srv, &st, err, sizeof(err)), 0);
	assert_int_equal(srv.local.port, 0); /* any: the file says which */
	assert_int_equal(cxd_step_publish(&srv, &st, 40123, err, sizeof(err)),
			 0);
	setenv("PMI_RANK", "1", 1);
	assert_int_equal(cxd_step_find(&st, err, sizeof(err)), 1);
	cli.local = srv.local;
	cli.local.timeout_s = 1;
	assert_int_equal(cxd_step_roles(&cli, &st, err, sizeof(err)), 0);
	assert_string_equal(cli.local.host, "10.9.8.7");
	assert_int_equal(cli.local.port, 40123);
	cxd_step_unpublish(&srv, &st);
	snprintf(path, sizeof(path), "%s/cxd-pmi-9.addr", dir);
	assert_int_not_equal(access(path, F_OK), 0);
	rmdir(dir);
}

CXD_UNIT_MAIN(
	cmocka_unit_test_setup(test_no_launcher, clear),
	cmocka_unit_test_setup(test_slurm_two_nodes, clear),
	cmocka_unit_test_setup(test_counts_refused, clear),
	cmocka_unit_test_setup(test_ompi, clear),
	cmocka_unit_test_setup(test_rendezvous, clear))

/* SPDX-License-Identifier: BSD-3-Clause */
/* Resources: 200 failing runs (and some good ones) in one process must
 * leave no file descriptor, mapping or thread behind. Real server and
 * client sessions over tcp/shm on 127.0.0.1, the server in a thread. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <cmocka.h>

#include "cxd/opts.h"
#include "session/session.h"
#include "support/argv_cfg.h"

#define ROUNDS 40 /* x 5 failing scenarios = 200 failing runs */
#ifdef __SANITIZE_ADDRESS__
#define MAPS_SLACK 40
#else
#define MAPS_SLACK 8
#endif

struct scenario {
	const char *name;
	const char *tool;
	bool listen;           /* false: nobody listens */
	const char *server[6];
	const char *client[12];
	int want_server, want_client;
};

/* A client's words start with the server's address. */
static const struct scenario scenarios[] = {
	{ "nobody listening", "cxi_write_bw", false, { NULL },
	  { "127.0.0.1", "--provider", "tcp", "-n", "1", NULL }, 0, 1 },
	{ "over the server's --max-mem", "cxi_write_bw", true,
	  { "--max-mem", "4096", NULL },
	  { "127.0.0.1", "--provider", "tcp", NULL }, 1, 1 },
	{ "provider mismatch", "cxi_read_bw", true,
	  { "--provider", "shm", NULL },
	  { "127.0.0.1", "--provider", "tcp", "-n", "1", NULL }, 1, 1 },
	{ "no such domain", "cxi_send_bw", true, { NULL },
	  { "127.0.0.1", "--provider", "tcp", "-d", "nosuchdomain0", "-n", "1",
	    NULL }, 1, 1 },
	{ "atomic type the provider lacks", "cxi_atomic_bw", true, { NULL },
	  { "127.0.0.1", "--provider", "tcp", "-T", "DOUBLE_COMPLEX", "-n", "1",
	    NULL }, 1, 1 },
	{ "a good run", "cxi_write_lat", true, { NULL },
	  { "127.0.0.1", "--provider", "tcp", "-n", "2", "--warmup", "0",
	    "--latency-gap", "0", NULL }, 0, 0 },
};

struct server_arg {
	const struct cxd_tool *tool;
	struct cxd_cfg cfg;
	int ready_fd;
	int rc;
};

static void *server_main(void *p)
{
	struct server_arg *a = p;

	a->rc = cxd_main_server(a->tool, &a->cfg, a->ready_fd);
	close(a->ready_fd);
	return NULL;
}

/* One run of scenario i; on a wrong exit status, why (kept for later:
 * stdout and stderr are muted while the runs go). */
static int run_one(size_t i, char *why, size_t len)
{
	const struct scenario *sc = &scenarios[i];
	const struct cxd_tool *tool = cxd_tool_find(sc->tool);
	struct server_arg srv = { .tool = tool, .rc = 0 };
	char err[CXD_ERR_LEN];
	struct cxd_cfg ccfg;
	pthread_t th;
	uint32_t port = 1;
	int fds[2], rc;

	if (tool == NULL || argv_cfg_list(&ccfg, err, sc->tool, sc->client))
		return snprintf(why, len, "%s: bad client options", sc->name);
	if (sc->listen) {
		if (argv_cfg_list(&srv.cfg, err, sc->tool, sc->server) != 0)
			return snprintf(why, len, "%s: bad server options",
					sc->name);
		srv.cfg.local.port = 0;
		snprintf(srv.cfg.local.bind, sizeof(srv.cfg.local.bind),
			 "127.0.0.1");
		if (pipe2(fds, O_CLOEXEC) != 0)
			return snprintf(why, len, "pipe failed");
		srv.ready_fd = fds[1];
		if (pthread_create(&th, NULL, server_main, &srv) != 0)
			return snprintf(why, len, "pthread_create failed");
		if (read(fds[0], &port, sizeof(port)) != sizeof(port))
			port = 1;
		close(fds[0]);
	}
	ccfg.local.port = port; /* port 1: nobody listens there */
	rc = cxd_main_client(tool, &ccfg);
	if (sc->listen)
		pthread_join(th, NULL);
	if (rc != sc->want_client || srv.rc != sc->want_server)
		return snprintf(why, len, "%s: client exit %d (want %d), "
				"server exit %d (want %d)", sc->name, rc,
				sc->want_client, srv.rc, sc->want_server);
	return 0;
}

static long count_dir(const char *path)
{
	DIR *d = opendir(path);
	long n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static long count_lines(const char *path, const char *prefix)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (prefix == NULL || strncmp(line, prefix, strlen(prefix)) == 0)
			n++;
	fclose(f);
	return n;
}

struct usage {
	long fds, maps, threads;
};

static void measure(struct usage *u)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	u->fds = count_dir("/proc/self/fd");
	u->maps = count_lines("/proc/self/maps", NULL);
	u->threads = -1;
	while (f && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Threads: %ld", &u->threads) == 1)
			break;
	if (f)
		fclose(f);
}

/* Output of the runs goes to /dev/null; the verdict stays readable. */
static void quiet(int *saved)
{
	int null = open("/dev/null", O_WRONLY);

	fflush(NULL);
	saved[0] = dup(STDOUT_FILENO);
	saved[1] = dup(STDERR_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	close(null);
}

static void loud(const int *saved)
{
	fflush(NULL);
	dup2(saved[0], STDOUT_FILENO);
	dup2(saved[1], STDERR_FILENO);
	close(saved[0]);
	close(saved[1]);
}

static void test_failing_runs_release_everything(void **state)
{
	const size_t nsc = sizeof(scenarios) / sizeof(scenarios[0]);
	struct usage base, after;
	char why[512] = "";
	int saved[2];

	(void) state;
	quiet(saved);
	/* Round one lets libfabric load its providers for good. */
	for (size_t i = 0; i < nsc && why[0] == '\0'; i++)
		run_one(i, why, sizeof(why));
	measure(&base);
	for (int r = 0; r < ROUNDS && why[0] == '\0'; r++)
		for (size_t i = 0; i < nsc && why[0] == '\0'; i++)
			run_one(i, why, sizeof(why));
	measure(&after);
	loud(saved);
	if (why[0])
		fail_msg("%s", why);
	printf("after %d failing and %d good runs: fds %ld -> %ld, maps %ld "
	       "-> %ld, threads %ld -> %ld\n", ROUNDS * 5, ROUNDS, base.fds,
	       after.fds, base.maps, after.maps, base.threads, after.threads);
	assert_int_equal(after.fds, base.fds);
	assert_int_equal(after.threads, base.threads);
	/* Heap arenas may come and go (and ASan's quarantine holds freed
	 * blocks); a leaked fabric per run would add hundreds. */
	assert_true(after.maps <= base.maps + MAPS_SLACK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failing_runs_release_everything),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

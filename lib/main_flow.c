/* main() for every tool: parse, pick the role, run, report, exit code. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>

#include "cxd/session.h"

#define EXIT_USAGE 2
#define LOCAL_READY_MS 10000

const struct cxd_ops *cxd_ops_for(const struct cxd_tool *tool)
{
	if (tool->op == CXD_OP_SEND)
		return &cxd_send_ops;
	if (tool->op == CXD_OP_ATOMIC)
		return &cxd_atomic_ops;
	return &cxd_rma_ops;
}

static void print_version(const struct cxd_tool *tool)
{
	uint32_t v = fi_version();
	struct timespec res = { 0, 0 };

	/* The latency clock, and what the kernel says it resolves. */
	clock_getres(CLOCK_MONOTONIC_RAW, &res);
	printf("%s version %s (libfabric %u.%u, built against %u.%u; "
	       "clock CLOCK_MONOTONIC_RAW, %ld ns resolution)\n", tool->name,
	       CXD_SUITE_VERSION, FI_MAJOR(v), FI_MINOR(v), FI_MAJOR_VERSION,
	       FI_MINOR_VERSION, res.tv_sec * 1000000000L + res.tv_nsec);
}

/* After the session is up: summary, ready barrier, the sizes, the end. */
static int run_session(struct cxd_sess *s)
{
	struct cxd_report *rep = NULL;
	int ret;

	cxd_summary_build(s);
	ret = cxd_report_begin(&rep, s->tool, s->cfg, &s->info, stdout);
	if (ret)
		return cxd_sess_fail(s, ret, "cannot start the report");
	fflush(stdout); /* the summary shows while the buffers are touched */
	ret = cxd_sess_prepare(s);
	if (ret == 0 && !s->loopback) {
		/* From here a provider call may block on a dead peer's state. */
		cxd_ctrl_watch(&s->ctrl, s->tool->name);
		ret = cxd_barrier(s, "the ready barrier");
	}
	if (ret == 0 && s->tool->pattern == CXD_PAT_LAT)
		ret = cxd_run_lat(s, rep);
	else if (ret == 0 && s->tool->pattern == CXD_PAT_LOOPBACK)
		ret = cxd_run_loopback(s, rep);
	else if (ret == 0)
		ret = cxd_run_bw(s, rep);
	if (ret == 0 && !s->loopback)
		ret = cxd_barrier(s, "the final barrier");
	if (ret) {
		cxd_report_free(rep);
		return ret;
	}
	fflush(stdout);
	return cxd_report_end(rep);
}

static int finish(struct cxd_sess *s, int ret)
{
	if (ret) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", s->tool->name,
			s->err[0] ? s->err : strerror(-ret));
		if (!s->loopback && s->ctrl.fd >= 0)
			cxd_ctrl_send_error(&s->ctrl, s->err);
	}
	cxd_sess_close(s);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

static void sess_init(struct cxd_sess *s, const struct cxd_tool *tool,
		      struct cxd_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->tool = tool;
	s->cfg = cfg;
	s->run = &cfg->run;
	s->ops = cxd_ops_for(tool);
	s->ctrl.fd = -1;
	s->ctrl.hb_pipe[0] = s->ctrl.hb_pipe[1] = -1;
	s->stop_at = getenv("CXD_TEST_STOP_AT");
}

int cxd_run_client(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	struct cxd_sess s;
	int ret;

	sess_init(&s, tool, cfg);
	ret = tool->pattern == CXD_PAT_LOOPBACK ? cxd_sess_loopback(&s) :
						 cxd_sess_client(&s);
	if (ret == 0)
		ret = run_session(&s);
	return finish(&s, ret);
}

int cxd_run_server(const struct cxd_tool *tool, struct cxd_cfg *cfg,
		   int ready_fd)
{
	FILE *note = cfg->out.format == CXD_FMT_TEXT ? stdout : stderr;
	struct cxd_sess s;
	uint32_t port;
	int lfd = -1, ret;

	sess_init(&s, tool, cfg);
	ret = cxd_ctrl_listen(cfg->local.bind, cfg->local.port, &lfd, &port,
			      s.err, sizeof(s.err));
	if (ret == 0) {
		fprintf(note, "Listening on port %u for client to connect...\n",
			port);
		fflush(note);
		if (ready_fd >= 0 &&
		    write(ready_fd, &port, sizeof(port)) != sizeof(port))
			ret = -EPIPE;
		ret = ret ? ret : cxd_sess_server(&s, lfd);
		close(lfd); /* one client per server, like the originals */
	}
	if (ret == 0)
		ret = run_session(&s);
	return finish(&s, ret);
}

static int read_port(int fd, uint32_t *port_p)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, LOCAL_READY_MS) != 1)
		return -ETIMEDOUT;
	return read(fd, port_p, sizeof(*port_p)) == sizeof(*port_p) ? 0 : -EPIPE;
}

/* Reap the server child; it ends right after the client, or is killed. */
static int reap(pid_t pid)
{
	int status = 0;

	for (int i = 0; i < LOCAL_READY_MS / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 1;
}

static void serve_child(const struct cxd_tool *tool, struct cxd_cfg cfg,
			int ready_fd)
{
	int devnull = open("/dev/null", O_WRONLY);

	/* Only the client's output is shown; errors still reach stderr. */
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	cfg.role = CXD_SERVER;
	cfg.local.port = 0;
	cfg.out.format = CXD_FMT_TEXT;
	snprintf(cfg.local.bind, sizeof(cfg.local.bind), "127.0.0.1");
	_exit(cxd_run_server(tool, &cfg, ready_fd));
}

static int run_local(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	int fds[2], rc, src;
	uint32_t port = 0;
	pid_t pid;

	if (pipe(fds) != 0) {
		perror("pipe");
		return EXIT_FAILURE;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		serve_child(tool, *cfg, fds[1]);
	}
	close(fds[1]);
	if (pid < 0 || read_port(fds[0], &port) != 0) {
		close(fds[0]);
		fprintf(stderr, "%s: the local server did not start\n",
			tool->name);
		if (pid > 0)
			reap(pid);
		return EXIT_FAILURE;
	}
	close(fds[0]);
	cfg->role = CXD_CLIENT;
	cfg->local.port = port;
	snprintf(cfg->local.host, sizeof(cfg->local.host), "127.0.0.1");
	rc = cxd_run_client(tool, cfg);
	src = reap(pid);
	return rc ? rc : src;
}

static int gpu_unsupported(const struct cxd_tool *tool,
			   const struct cxd_cfg *cfg)
{
	if (cfg->local.tx_gpu < 0 && cfg->local.rx_gpu < 0)
		return 0;
	fprintf(stderr, "%s: GPU memory (-t/-r) is not supported yet: this "
		"build has no GPU runtime support, and it will not quietly "
		"use host memory instead\n", tool->name);
	return 1;
}

int cxd_main(const struct cxd_tool *tool, int argc, char **argv)
{
	char err[CXD_ERR_LEN] = "";
	struct cxd_cfg cfg;
	int ret;

	signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not a signal */
	ret = cxd_opts_parse(tool, argc, argv, &cfg, err, sizeof(err));
	if (ret == CXD_OPTS_HELP) {
		cxd_opts_help(tool, stdout);
		return EXIT_SUCCESS;
	}
	if (ret == CXD_OPTS_VERSION) {
		print_version(tool);
		return EXIT_SUCCESS;
	}
	if (ret != 0) {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more "
			"information.\n", tool->name, err, tool->name);
		return EXIT_USAGE;
	}
	if (gpu_unsupported(tool, &cfg))
		return EXIT_FAILURE;
	if (cfg.role == CXD_LOCAL)
		return run_local(tool, &cfg);
	if (cfg.role == CXD_CLIENT || tool->pattern == CXD_PAT_LOOPBACK)
		return cxd_run_client(tool, &cfg);
	return cxd_run_server(tool, &cfg, -1);
}

/* SPDX-License-Identifier: BSD-3-Clause */
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

#include "ctrl/ctrl.h"
#include "gpu/gpu.h"
#include "session/session.h"
#include "base/exit_codes.h"
#include "base/signals.h"
#include "base/stamp.h"
#include "report/report.h"
#include "run/run.h"
#include "launch.h"

#define LOCAL_READY_MS 10000
#define LOCAL_REAP_MS 3000

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

/* Before the watchdog ends the process: nothing may be left behind. */
static void on_fatal(void *arg)
{
	const struct cxd_sess *s = arg;
	pid_t child = s->cfg->local.local_child;
	int status;

	cxd_shm_remove_own();
	/* --local: the child has been told; give it time to clean up. */
	for (int i = 0; child > 0 && i < LOCAL_REAP_MS / 10; i++) {
		if (waitpid(child, &status, WNOHANG) == child)
			return;
		usleep(10000);
	}
	if (child > 0)
		kill(child, SIGKILL);
}

/* The results could not be written: a closed pipe ends the run quietly
 * (as `| head` expects); anything else is an error. */
static int output_failed(struct cxd_sess *s, int e)
{
	s->out_errno = e;
	return cxd_sess_fail(s, -e, "cannot write the results: %s",
			     strerror(e));
}

/* After the session is up: summary, ready barrier, the sizes, the end. */
static int run_session(struct cxd_sess *s)
{
	struct cxd_report *rep = NULL;
	struct cxd_ctrs *ctrs;
	char why[CXD_ERR_LEN];
	int ret, cret;

	cxd_summary_build(s);
	ret = cxd_report_begin(&rep, s->tool, s->cfg, &s->info, stdout);
	if (ret)
		return cxd_sess_fail(s, ret, "cannot start the report");
	/* A closed or full stdout is known now: do not start the run. */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ret = errno ? errno : EIO;
		cxd_report_free(rep);
		return output_failed(s, ret);
	}
	/* the summary shows while the buffers are touched */
	ret = cxd_sess_prepare(s);
	if (ret == 0) {
		/* From here a provider call may block on a dead peer's state. */
		s->via->watch(s, on_fatal, s);
		ret = cxd_sess_barrier(s, "the ready barrier");
	}
	if (ret == 0) {
		/* Link error counters: before the first size, after the
		 * last. */
		ctrs = cxd_run_counters_begin(s);
		ret = s->tool->run(s, rep);
		cret = cxd_run_counters_end(ctrs, ret ? NULL : rep);
		ret = ret ? ret : cret;
	}
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the final barrier");
	if (ret) {
		cxd_report_free(rep);
		/* A report call fails only on a write; others set s->err. */
		return s->err[0] || !ferror(stdout) ? ret
						      : output_failed(s, -ret);
	}
	s->gate_missed = cxd_report_gate_missed(rep);
	ret = cxd_report_metrics(rep, why, sizeof(why));
	if (ret) {
		cxd_report_free(rep);
		return cxd_sess_fail(s, ret, "%s", why);
	}
	ret = cxd_report_end(rep);
	return ret ? output_failed(s, -ret) : 0;
}

/* Interrupted: say so here, and tell the peer in its own words. */
static int interrupted(struct cxd_sess *s, int sig)
{
	char text[CXD_ERR_LEN];
	const char *phase = s->phase ? s->phase : "the start";

	fprintf(stderr, "%s: interrupted by %s during %s\n", s->tool->name,
		cxd_sig_name(sig), phase);
	snprintf(text, sizeof(text), "the %s was interrupted (%s) during %s",
		 s->is_client ? "client" : "server", cxd_sig_name(sig), phase);
	s->via->tell(s, text);
	cxd_sess_close(s);
	return CXD_EXIT_SIGNAL + sig;
}

static int end_session(struct cxd_sess *s, int ret)
{
	bool quiet = s->out_errno == EPIPE;
	/* --local's server child, connected (its way names the peer): the
	 * client speaks for both. */
	bool mute = s->cfg->local.local_child < 0 && s->via->name(s) != NULL;

	if (ret && cxd_sig_pending())
		return interrupted(s, cxd_sig_pending());
	if (ret) {
		if (!s->out_errno)
			fflush(stdout);
		if (!quiet && !mute)
			fprintf(stderr, "%s: %s\n", s->tool->name,
				s->err[0] ? s->err : strerror(-ret));
		if (quiet)
			snprintf(s->err, sizeof(s->err), "the %s's output was "
				 "closed (broken pipe): it stopped",
				 s->is_client ? "client" : "server");
		s->via->tell(s, s->err);
	}
	cxd_sess_close(s);
	if (quiet)
		return CXD_EXIT_PIPE;
	if (ret)
		return CXD_EXIT_FAIL;
	return s->gate_missed ? CXD_EXIT_OUTLIERS : CXD_EXIT_OK;
}

static void sess_init(struct cxd_sess *s, const struct cxd_tool *tool,
		      struct cxd_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->tool = tool;
	s->cfg = cfg;
	s->run = &cfg->run;
	s->ops = tool->ops;
	/* The loopback tool's is set on opening; the channel behind
	 * via_arg, on connecting (sess_connect.c). */
	s->via = &cxd_peer_ctrl;
	s->timeout_ms = (uint64_t) cfg->local.timeout_s * 1000; /* >= 1 s */
}

int cxd_main_client(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	struct cxd_sess s;
	int ret;

	sess_init(&s, tool, cfg);
	ret = cxd_tool_is(tool, CXD_TRAIT_LOOPBACK) ? cxd_sess_loopback(&s) :
						 cxd_sess_client(&s);
	if (ret == 0)
		ret = run_session(&s);
	return end_session(&s, ret);
}

/* step: a launcher step's server publishes its address (launch.h). */
static int serve(const struct cxd_tool *tool, struct cxd_cfg *cfg,
		 int ready_fd, const struct cxd_step *step)
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
		if (ret == 0 && step)
			ret = cxd_step_publish(cfg, step, port, s.err,
					       sizeof(s.err));
		ret = ret ? ret : cxd_sess_server(&s, lfd);
	}
	/* One client per server, like the originals; the socket stays open
	 * so that others are told "server busy" (the heartbeat thread). */
	if (ret == 0)
		ret = run_session(&s);
	ret = end_session(&s, ret);
	if (lfd >= 0)
		close(lfd);
	if (step)
		cxd_step_unpublish(cfg, step);
	return ret;
}

int cxd_main_server(const struct cxd_tool *tool, struct cxd_cfg *cfg,
		   int ready_fd)
{
	return serve(tool, cfg, ready_fd, NULL);
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
			return WIFEXITED(status) ? WEXITSTATUS(status) :
			       CXD_EXIT_FAIL;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return CXD_EXIT_FAIL;
}

static void serve_child(const struct cxd_tool *tool, struct cxd_cfg cfg,
			int ready_fd)
{
	int devnull = open("/dev/null", O_WRONLY);

	/* Only the client's output is shown; errors still reach stderr. */
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	cfg.role = CXD_SERVER;
	cfg.local.local_child = -1; /* this is the child */
	cfg.local.port = 0;
	cfg.out.format = CXD_FMT_TEXT;
	cfg.out.metrics[0] = '\0'; /* the client's file */
	snprintf(cfg.local.bind, sizeof(cfg.local.bind), "127.0.0.1");
	_exit(cxd_main_server(tool, &cfg, ready_fd));
}

static int run_local(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	int fds[2], rc, src;
	uint32_t port = 0;
	pid_t pid;

	if (pipe(fds) != 0) {
		perror("pipe");
		return CXD_EXIT_FAIL;
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
		if (cxd_sig_pending())
			fprintf(stderr, "%s: interrupted by %s while starting "
				"the local server\n", tool->name,
				cxd_sig_name(cxd_sig_pending()));
		else
			fprintf(stderr, "%s: the local server did not start\n",
				tool->name);
		if (pid > 0 && cxd_sig_pending())
			kill(pid, SIGTERM); /* it may not have been told */
		if (pid > 0)
			reap(pid);
		return cxd_sig_pending() ? CXD_EXIT_SIGNAL + cxd_sig_pending()
					 : CXD_EXIT_FAIL;
	}
	close(fds[0]);
	cfg->role = CXD_CLIENT;
	cfg->local.local_child = pid;
	cfg->local.port = port;
	snprintf(cfg->local.host, sizeof(cfg->local.host), "127.0.0.1");
	rc = cxd_main_client(tool, cfg);
	src = reap(pid);
	return rc ? rc : src;
}

/* srun -n2 / mpirun -np 2: rank 0 serves, rank 1 is the client and
 * speaks for both (as --local: the server's stdout is discarded, its
 * errors reach stderr until a client connects). */
static int run_step(const struct cxd_tool *tool, struct cxd_cfg *cfg)
{
	char err[CXD_ERR_LEN] = "";
	struct cxd_step st;
	int devnull, ret = cxd_step_find(&st, err, sizeof(err));

	if (ret > 0 && cxd_step_alone(&st))
		ret = 0;
	if (ret == 0 && !cfg->local.rendezvous[0])
		return cxd_main_server(tool, cfg, -1); /* by hand */
	if (ret == 0 || cfg->role != CXD_SERVER)
		snprintf(err, sizeof(err), "--rendezvous is for a launcher "
			 "step (srun -n2, mpirun -np 2) without ADDR or "
			 "--local%s", ret == 0 ? ", and no launcher's rank is "
			 "in the environment" : "");
	else if (ret > 0)
		ret = cxd_step_roles(cfg, &st, err, sizeof(err));
	if (ret || err[0]) {
		fprintf(stderr, "%s: %s\n", tool->name, err);
		return ret == -EINVAL || ret >= 0 ? CXD_EXIT_USAGE
						  : CXD_EXIT_FAIL;
	}
	if (cfg->role == CXD_CLIENT)
		return cxd_main_client(tool, cfg);
	devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	cfg->local.local_child = -1; /* muted once connected, as --local's */
	return serve(tool, cfg, -1, &st);
}

/* The originals accept -g alone and use system memory; say so. */
static void gpu_note(const struct cxd_tool *tool, const struct cxd_cfg *cfg)
{
	if (cfg->local.gpu_type == CXD_GPU_NONE || cfg->local.tx_gpu >= 0 ||
	    cfg->local.rx_gpu >= 0)
		return;
	fprintf(stderr, "%s: note: -g %s has no effect without -t or -r; "
		"the buffers are in system memory\n", tool->name,
		cxd_gpu_type_name(cfg->local.gpu_type));
}

/* A closed 0, 1 or 2 would be reused by the next socket, and results
 * would go into the protocol: park /dev/null there first, read-only, so
 * that writing to it still fails with EBADF as on the closed descriptor
 * (the run is refused: its results could not be written). */
static void valid_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) < 0)
			break;
}

/* -h or --version into a closed or full stdout: an error, as coreutils. */
static int written(const struct cxd_tool *tool)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return CXD_EXIT_OK;
	e = errno;
	/* A long text flushes as it goes: the write that failed may be an
	 * earlier one, its errno gone. Ask the descriptor again. */
	if (e == 0 && write(STDOUT_FILENO, "", 0) < 0)
		e = errno;
	fprintf(stderr, "%s: write error: %s\n", tool->name,
		strerror(e ? e : EIO));
	return CXD_EXIT_FAIL;
}

int cxd_main(const struct cxd_tool *tool, int argc, char **argv)
{
	char err[CXD_ERR_LEN] = "";
	struct cxd_cfg cfg;
	int ret;

	signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not a signal */
	valid_std_fds();
	ret = cxd_opts_parse(tool, argc, argv, &cfg, err, sizeof(err));
	if (ret == CXD_OPTS_HELP) {
		cxd_opts_help(tool, stdout);
		return written(tool);
	}
	if (ret == CXD_OPTS_VERSION) {
		print_version(tool);
		return written(tool);
	}
	if (ret != 0) {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more "
			"information.\n", tool->name, err, tool->name);
		return CXD_EXIT_USAGE;
	}
	cxd_stamp_take(&cfg.out.stamp, argc, argv);
	if (tool->alone) /* no peer, no session: cxi_node_health */
		return tool->alone(tool, &cfg);
	gpu_note(tool, &cfg);
	/* The originals: iterations count only when no duration is given. */
	if ((cfg.local.given & CXD_GIVEN_ITERS) &&
	    cxd_run_has(&cfg.run, CXD_RUN_DURATION))
		fprintf(stderr, "%s: note: --duration is given, so the "
			"iteration count is ignored (the run lasts %llu s)\n",
			tool->name, (unsigned long long) cfg.run.duration_s);
	cxd_sig_install();
	if (cfg.role == CXD_LOCAL)
		return run_local(tool, &cfg);
	if (cfg.local.rendezvous[0] && cfg.role != CXD_SERVER)
		return run_step(tool, &cfg); /* refused there */
	if (cfg.role == CXD_CLIENT || cxd_tool_is(tool, CXD_TRAIT_LOOPBACK))
		return cxd_main_client(tool, &cfg);
	return run_step(tool, &cfg);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0's progress line in the normal build (progress_tty.h). A
 * launcher seldom hands a rank its terminal: Open MPI's mpirun reads
 * each local rank's stderr through a pipe and writes it to its own, and
 * Slurm's srun does the same unless --pty. So the terminal looked for is
 * rank 0's stderr, else its parent's: mpirun's when rank 0 runs on the
 * host mpirun was started on, which is where the line is forwarded to.
 * A batch job's launcher writes to a file or a pipe: no line there.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/progress_rounds.h"
#include "progress_tty.h"

/* The parent's descriptor fd is a terminal. Opened only when it is a
 * character device (never a FIFO, which an open could disturb), without
 * becoming our controlling terminal and without waiting on a modem
 * line. */
static bool launcher_tty(int fd_no)
{
	char path[48];
	struct stat st;
	bool tty;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/fd/%d", (long) getppid(),
		 fd_no);
	if (stat(path, &st) != 0 || !S_ISCHR(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	tty = isatty(fd);
	close(fd);
	return tty;
}

FILE *sw_progress_tty(const struct sw_ctx *c)
{
	uint32_t f = c->cfg.sweep.sw_flags;
	enum cxd_rprog_want want = f & CXD_SW_PROGRESS ? CXD_RPROG_ON :
				   f & CXD_SW_NO_PROGRESS ? CXD_RPROG_OFF :
				   CXD_RPROG_AUTO;
	bool json = c->cfg.sweep.json[0] != '\0';

	if (c->m.rank != 0 || want == CXD_RPROG_OFF)
		return NULL;
	/* The parent is looked at only when it may decide. */
	return cxd_rprog_wanted(want, json, isatty(STDERR_FILENO),
				want == CXD_RPROG_AUTO && !json &&
				launcher_tty(STDERR_FILENO)) ? stderr : NULL;
}

void sw_progress_part(const struct cxd_rprog *p)
{
	/* Where the report lands is the launcher's stdout (Open MPI hands
	 * a rank's stdout a pty of its own, and forwards it): a file or a
	 * pipe there gets no blanking. */
	if (p->widest == 0 || !launcher_tty(STDOUT_FILENO))
		return;
	printf("\r%*s\r", (int) p->widest, "");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fork(2), the child's _exit(2), the parent's waitpid(2): process creation
 * (copying the address space and file table), exit and reaping, and two
 * context switches.
 */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

/* One process created and reaped; 0, or an errno value. */
static int fork_one(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(0);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
}

int kb_wl_fork_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	int err = 0;

	for (unsigned long i = 0; i < args->warmup && !err; i++)
		err = fork_one();

	if (!err) {
		KB_REGION_BEGIN(fork, res);
		for (unsigned long i = 0; i < args->iters && !err; i++)
			err = fork_one();
		KB_REGION_END(fork, res);
	}
	return err ? kb_wl_fail(res, "fork", err) : 0;
}

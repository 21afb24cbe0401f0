// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pipe ping-pong: one byte to a child through pipe A, one byte back through
 * pipe B.  Each round trip is two writes, two reads and two context switches,
 * so it exercises the scheduler and wake-up paths as well as the syscalls.
 */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

/* Echo until the parent closes its end. */
static void __attribute__((noreturn)) echo_child(int rfd, int wfd)
{
	char c;

	while (read(rfd, &c, 1) == 1)
		if (write(wfd, &c, 1) != 1)
			_exit(1);
	_exit(0);
}

/* n round trips; 0, or -1 with res set */
static inline int ping(int wfd, int rfd, unsigned long n, struct kb_wl_result *res)
{
	char c = 'k';
	ssize_t r;

	for (unsigned long i = 0; i < n; i++) {
		if (write(wfd, &c, 1) != 1)
			return kb_wl_fail(res, "write", errno);
		r = read(rfd, &c, 1);
		if (r != 1)	/* 0: the child is gone */
			return kb_wl_fail(res, "read", r < 0 ? errno : EPIPE);
	}
	return 0;
}

int kb_wl_pipe_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	int a[2], b[2], status, ret;
	pid_t pid;

	if (pipe(a) < 0)
		return kb_wl_fail(res, "pipe", errno);
	if (pipe(b) < 0) {
		ret = kb_wl_fail(res, "pipe", errno);
		goto out_a;
	}
	pid = fork();
	if (pid < 0) {
		ret = kb_wl_fail(res, "fork", errno);
		goto out_b;
	}
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		echo_child(a[0], b[1]);
	}
	close(a[0]);
	a[0] = -1;
	close(b[1]);
	b[1] = -1;

	ret = ping(a[1], b[0], args->warmup, res);
	if (ret == 0) {
		KB_REGION_BEGIN(pipe, res);
		ret = ping(a[1], b[0], args->iters, res);
		KB_REGION_END(pipe, res);
	}

	/* EOF on pipe A ends the child */
	close(a[1]);
	a[1] = -1;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			if (ret == 0)
				ret = kb_wl_fail(res, "wait", errno);
			goto out_b;
		}
	}
	if (ret == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		ret = kb_wl_fail(res, "child", 0);
out_b:
	if (b[0] >= 0)
		close(b[0]);
	if (b[1] >= 0)
		close(b[1]);
out_a:
	if (a[0] >= 0)
		close(a[0]);
	if (a[1] >= 0)
		close(a[1]);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * poll(2) on a pipe that has a byte waiting: the poll set-up, the pipe's
 * poll method and an immediate return, never a sleep.
 */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "workload.h"

/* n polls that each find the pipe readable; 0, or an errno value. */
static inline int poll_n(int fd, unsigned long n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	for (unsigned long i = 0; i < n; i++) {
		r = poll(&p, 1, 0);
		if (r != 1 || !(p.revents & POLLIN))
			return r < 0 ? errno : EAGAIN;
	}
	return 0;
}

int kb_wl_poll_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	const char c = 'k';
	int fds[2], err;

	if (pipe(fds) < 0)
		return kb_wl_fail(res, "pipe", errno);
	if (write(fds[1], &c, 1) != 1) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		return kb_wl_fail(res, "write", err);
	}
	err = poll_n(fds[0], args->warmup);
	if (!err) {
		KB_REGION_BEGIN(poll, res);
		err = poll_n(fds[0], args->iters);
		KB_REGION_END(poll, res);
	}
	close(fds[0]);
	close(fds[1]);
	return err ? kb_wl_fail(res, "poll", err) : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Signal delivery to self: kill(2) of our own pid with SIGUSR1, caught by a
 * handler installed with sigaction(2).  Each operation is the kill, the
 * signal frame set up on return to user space, the handler and sigreturn.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

/* n signals sent and caught; 0, or an errno value. */
static inline int send_n(pid_t self, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (kill(self, SIGUSR1) < 0)
			return errno;
	return 0;
}

int kb_wl_signal_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	struct sigaction sa, old;
	pid_t self = getpid();
	int err;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &old) < 0)
		return kb_wl_fail(res, "sigaction", errno);
	caught = 0;
	err = send_n(self, args->warmup);
	if (!err) {
		KB_REGION_BEGIN(signal, res);
		err = send_n(self, args->iters);
		KB_REGION_END(signal, res);
	}
	sigaction(SIGUSR1, &old, NULL);
	if (err)
		return kb_wl_fail(res, "kill", err);
	/* a signal sent to self is delivered before kill() returns */
	if ((unsigned long)caught != args->warmup + args->iters)
		return kb_wl_fail(res, "caught", 0);
	return 0;
}

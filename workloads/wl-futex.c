// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * futex(2) wake/wait ping-pong between two processes sharing an anonymous
 * MAP_SHARED word: the parent sets it to 1 and wakes the child, the child
 * sets it back to 0 and wakes the parent.  Each round trip is two wakes, two
 * waits and two context switches, on the shared (not process-private) futex
 * hash path.
 */
#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

enum { TURN_CHILD = 1, TURN_PARENT = 0, STOP = 2 };

/* i386 kernels without COMPAT_32BIT_TIME (tinyconfig) have only the
 * 64-bit-time futex; on 64-bit hosts futex already is that one. */
#ifdef SYS_futex_time64
#define SYS_FUTEX64 SYS_futex_time64
#else
#define SYS_FUTEX64 SYS_futex
#endif

struct timespec64 {		/* struct __kernel_timespec */
	int64_t tv_sec;
	int64_t tv_nsec;
};

static long futex(volatile int *word, int op, int val, const struct timespec64 *timeout)
{
	return syscall(SYS_FUTEX64, word, op, val, timeout, NULL, 0);
}

/* Wait while *word == val: 0, or an errno value (ETIMEDOUT: a lost partner). */
static int wait_while(volatile int *word, int val)
{
	const struct timespec64 limit = { .tv_sec = 5 };

	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == val)
		if (futex(word, FUTEX_WAIT, val, &limit) < 0 && errno != EAGAIN && errno != EINTR)
			return errno;
	return 0;
}

static void set_wake(volatile int *word, int val)
{
	__atomic_store_n(word, val, __ATOMIC_RELEASE);
	futex(word, FUTEX_WAKE, 1, NULL);
}

static void __attribute__((noreturn)) partner(volatile int *word)
{
	for (;;) {
		if (wait_while(word, TURN_PARENT))
			_exit(1);
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) == STOP)
			_exit(0);
		set_wake(word, TURN_PARENT);
	}
}

/* n round trips; 0, or an errno value */
static inline int ping(volatile int *word, unsigned long n)
{
	int err;

	for (unsigned long i = 0; i < n; i++) {
		set_wake(word, TURN_CHILD);
		err = wait_while(word, TURN_CHILD);
		if (err)
			return err;
	}
	return 0;
}

int kb_wl_futex_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	volatile int *word;
	int status, err, ret = 0;
	pid_t pid;

	word = mmap(NULL, sizeof(*word), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (word == MAP_FAILED)
		return kb_wl_fail(res, "mmap", errno);
	*word = TURN_PARENT;
	pid = fork();
	if (pid < 0) {
		ret = kb_wl_fail(res, "fork", errno);
		goto out_unmap;
	}
	if (pid == 0)
		partner(word);

	err = ping(word, args->warmup);
	if (!err) {
		KB_REGION_BEGIN(futex, res);
		err = ping(word, args->iters);
		KB_REGION_END(futex, res);
	}
	if (err)
		ret = kb_wl_fail(res, "futex", err);

	set_wake(word, STOP);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			if (!ret)
				ret = kb_wl_fail(res, "wait", errno);
			goto out_unmap;
		}
	}
	if (!ret && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		ret = kb_wl_fail(res, "child", 0);
out_unmap:
	munmap((void *)word, sizeof(*word));
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * syscall-mix: each operation walks through about thirty different system
 * calls (process, file, pipe, memory and signal paths), so the kernel text
 * that one operation executes is larger than an L1 instruction cache, and
 * each call finds the code of the others evicting its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "workload.h"

struct mix {
	const char *file;	/* a tmpfs file */
	const char *dir;	/* its directory */
	int null_fd;		/* /dev/null */
	int pipe_fd[2];		/* empty between operations */
	pid_t self;
	size_t page;
};

/* One walk; 0, or -1 with res set. */
static inline int walk(const struct mix *m, struct kb_wl_result *res)
{
	char buf[512], c = 'k';
	struct iovec iov[2] = { { &c, 1 }, { &c, 1 } };
	struct pollfd pfd = { .fd = m->pipe_fd[0], .events = POLLIN };
	struct utsname u;
	struct rusage ru;
	struct rlimit rl;
	struct sysinfo si;
	struct tms t;
	struct stat st;
	sigset_t none, old;
	void *p;
	int fd, n;

	getppid();
	getpid();
	getuid();
	umask(022);
	uname(&u);
	if (!getcwd(buf, sizeof(buf)))
		return kb_wl_fail(res, "getcwd", errno);
	times(&t);
	getrusage(RUSAGE_SELF, &ru);
	getrlimit(RLIMIT_NOFILE, &rl);
	sysinfo(&si);
	getpriority(PRIO_PROCESS, 0);
	sched_yield();
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &none, &old);
	kill(m->self, 0);

	fd = open(m->file, O_RDWR);
	if (fd < 0)
		return kb_wl_fail(res, "open", errno);
	fstat(fd, &st);
	lseek(fd, 0, SEEK_SET);
	read(fd, buf, 1);
	close(fd);
	stat(m->file, &st);
	access(m->file, R_OK);
	utimensat(AT_FDCWD, m->file, NULL, 0);

	fd = open(m->dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return kb_wl_fail(res, "opendir", errno);
	syscall(SYS_getdents64, fd, buf, sizeof(buf));
	close(fd);

	fd = dup(m->null_fd);
	if (fd < 0)
		return kb_wl_fail(res, "dup", errno);
	close(fd);
	fcntl(m->null_fd, F_GETFL);
	write(m->null_fd, &c, 1);
	writev(m->null_fd, iov, 2);

	if (write(m->pipe_fd[1], &c, 1) != 1)
		return kb_wl_fail(res, "write", errno);
	poll(&pfd, 1, 0);
	ioctl(m->pipe_fd[0], FIONREAD, &n);
	if (read(m->pipe_fd[0], &c, 1) != 1)
		return kb_wl_fail(res, "read", errno);

	p = mmap(NULL, m->page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return kb_wl_fail(res, "mmap", errno);
	mprotect(p, m->page, PROT_READ | PROT_WRITE);
	munmap(p, m->page);
	return 0;
}

int kb_wl_syscall_mix_run(const struct kb_wl_args *args, struct kb_wl_result *res)
{
	struct mix m = { .dir = args->tmpdir, .self = getpid(),
			 .page = (size_t)sysconf(_SC_PAGESIZE) };
	char path[256];
	int ret = 0;

	if (kb_wl_tmpfile(args, "mix", path, sizeof(path)) < 0)
		return kb_wl_fail(res, "create", errno);
	m.file = path;
	m.null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (m.null_fd < 0) {
		ret = kb_wl_fail(res, "open", errno);
		goto out_unlink;
	}
	if (pipe(m.pipe_fd) < 0) {
		ret = kb_wl_fail(res, "pipe", errno);
		goto out_null;
	}

	for (unsigned long i = 0; i < args->warmup && !ret; i++)
		ret = walk(&m, res);
	if (!ret) {
		KB_REGION_BEGIN(syscall_mix, res);
		for (unsigned long i = 0; i < args->iters && !ret; i++)
			ret = walk(&m, res);
		KB_REGION_END(syscall_mix, res);
	}

	close(m.pipe_fd[0]);
	close(m.pipe_fd[1]);
out_null:
	close(m.null_fd);
out_unlink:
	unlink(path);
	return ret;
}

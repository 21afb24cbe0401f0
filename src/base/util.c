// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* kb_status's line is on the terminal: the next message clears it. */
static int status_shown;

void kb_status(const char *text)
{
	if (!text && !status_shown)
		return;
	fprintf(stderr, "\r%s%s\033[K", text ? "kbench: " : "", text ? text : "");
	if (!text)
		fputc('\r', stderr);
	fflush(stderr);
	status_shown = text != NULL;
}

/* Messages quote configurations, run directories and guests: their control
 * characters never reach the terminal. */
static void vprint(const char *prefix, const char *fmt, va_list ap, int err)
{
	char *msg = kb_xvasprintf(fmt, ap), *line;

	for (char *p = msg; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			*p = '?';
	/* one write: the lines of boots running at once do not mix */
	line = kb_xasprintf("%s%s%s%s%s\n", status_shown ? "\r\033[K" : "", prefix, msg,
			    err ? ": " : "", err ? strerror(err) : "");
	status_shown = 0;
	fputs(line, stderr);
	free(line);
	free(msg);
}

static void vreport(const char *prefix, const char *fmt, va_list ap, int err)
{
	char *p = kb_xasprintf("kbench: %s", prefix);

	vprint(p, fmt, ap, err);
	free(p);
}

void kb_eprint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint("", fmt, ap, 0);
	va_end(ap);
}

int kb_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int kb_error_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, err);
	va_end(ap);
	return -err;
}

void kb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0);
	va_end(ap);
}

void kb_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
}

static void *oom(void)
{
	fputs("kbench: out of memory\n", stderr);
	abort();
}

void *kb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *kb_xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	return p ? p : oom();
}

void *kb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : oom();
}

char *kb_xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom();
}

char *kb_xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	return vasprintf(&p, fmt, ap) < 0 ? oom() : p;
}

char *kb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = kb_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

int kb_mkdir_p(const char *path, int mode)
{
	char *p = kb_xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			ret = kb_error_errno(errno, "cannot create directory '%s'", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

int kb_open_regular(const char *path, struct stat *st)
{
	struct stat tmp;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	if (!st)
		st = &tmp;
	if (fstat(fd, st) < 0) {
		err = errno;
		close(fd);
		return -err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
	}
	/* reads of a regular file never block; the flag only kept open() from
	 * waiting on a FIFO */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int kb_read_file_max(const char *path, char **buf, size_t *len, size_t max)
{
	size_t cap = 4096, n = 0;
	int fd = kb_open_regular(path, NULL);
	char *b;

	if (fd < 0)
		return fd;
	b = kb_xmalloc(cap + 1);
	for (;;) {
		ssize_t r = read(fd, b + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			close(fd);
			free(b);
			return -err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			close(fd);
			free(b);
			return -EFBIG;
		}
		if (n == cap) {
			cap *= 2;
			b = kb_xrealloc(b, cap + 1);
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

const char *kb_file_strerror(int err)
{
	if (err == -EINVAL || err == EINVAL)
		return "not a regular file (a FIFO, a device or a socket)";
	if (err == -EFBIG || err == EFBIG)
		return "too large";
	return strerror(err < 0 ? -err : err);
}

int kb_read_file(const char *path, char **buf, size_t *len)
{
	return kb_read_file_max(path, buf, len, (size_t)-1 / 2);
}

/* path written whole through a rename: with sync, fsync'd first. */
static int write_file_renamed(const char *path, const void *buf, size_t len, int sync)
{
	char *tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	const char *p = buf;
	int fd, ret = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = kb_error_errno(errno, "cannot create '%s'", tmp);
		goto out;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			ret = kb_error_errno(errno, "cannot write '%s'", path);
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += w;
		len -= (size_t)w;
	}
	if ((sync && fsync(fd) < 0) || close(fd) < 0) {
		ret = kb_error_errno(errno, "cannot write '%s'", path);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		ret = kb_error_errno(errno, "cannot rename '%s' to '%s'", tmp, path);
		unlink(tmp);
	}
out:
	free(tmp);
	return ret;
}

int kb_write_file_if_changed(const char *path, const char *want)
{
	char *have = NULL;
	int same = kb_read_file(path, &have, NULL) == 0 && !strcmp(have, want);

	free(have);
	if (same)
		return 0;
	return kb_write_file_atomic(path, want, strlen(want)) < 0 ? -1 : 1;
}

int kb_write_file_atomic(const char *path, const void *buf, size_t len)
{
	return write_file_renamed(path, buf, len, 1);
}

int kb_write_file_replace(const char *path, const void *buf, size_t len)
{
	return write_file_renamed(path, buf, len, 0);
}

void kb_sync_fs(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

int kb_copy_file(const char *src, const char *dst)
{
	char *buf;
	size_t len;
	int ret = kb_read_file(src, &buf, &len);

	if (ret < 0)
		return kb_error_errno(-ret, "cannot read '%s'", src);
	ret = kb_write_file_atomic(dst, buf, len);
	free(buf);
	return ret;
}

void kb_print_tail(FILE *f, const char *path, int n, const char *prefix)
{
	char *buf, *p;
	size_t len;
	int lines = 0;

	if (kb_read_file(path, &buf, &len) < 0)
		return;
	p = buf + len;
	if (p > buf && p[-1] == '\n')
		p--;
	while (p > buf) {
		if (p[-1] == '\n' && ++lines == n)
			break;
		p--;
	}
	while (*p) {
		char *nl = strchr(p, '\n');
		int l = nl ? (int)(nl - p) : (int)strlen(p);

		/* a guest's serial log: its terminal control never reaches ours */
		for (int i = 0; i < l; i++)
			if (((unsigned char)p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)
				p[i] = '?';
		fprintf(f, "%s%.*s\n", prefix, l, p);
		p += l + (nl != NULL);
	}
	free(buf);
}

volatile sig_atomic_t kb_interrupted;
static volatile sig_atomic_t child_pgid;

static void on_signal(int sig)
{
	pid_t pg = child_pgid;

	kb_interrupted = sig;
	if (pg > 0)
		kill(-pg, SIGKILL);
}

void kb_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void kb_child_started(pid_t pgid)
{
	child_pgid = pgid;
	if (kb_interrupted)	/* the signal came while the child was starting */
		kill(-pgid, SIGKILL);
}

void kb_child_ended(void)
{
	child_pgid = 0;
}

/* Wait for pid until the deadline (kb_now() seconds); past it, its process
 * group is killed.  0 with *status, or -ETIMEDOUT, or -errno. */
static int wait_until(pid_t pid, double deadline, int *status, void (*tick)(void *), void *arg)
{
	struct timespec nap = { 0, 1000000 };	/* 1 ms, doubling to 64 ms */
	double ticked = kb_now();

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (kb_now() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		if (tick && kb_now() - ticked >= 1) {
			tick(arg);
			ticked = kb_now();
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 64000000)
			nap.tv_nsec *= 2;
	}
}

int kb_run_argv_deadline(char *const argv[], const char *dir, const char *log_path, double timeout)
{
	return kb_run_argv_watch(argv, dir, log_path, timeout, NULL, NULL);
}

int kb_run_argv_watch(char *const argv[], const char *dir, const char *log_path, double timeout,
		      void (*tick)(void *), void *arg)
{
	int status, fd = -1, r;
	pid_t pid;

	if (log_path) {
		fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0)
			return kb_error_errno(errno, "cannot open log '%s'", log_path);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return kb_error_errno(err, "cannot fork");
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		setpgid(0, 0);	/* its own group: kbench decides when it stops */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nul >= 0)
			dup2(nul, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (dir && chdir(dir) < 0) {
			fprintf(stderr, "kbench: cannot enter '%s': %s\n", dir, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "kbench: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	kb_child_started(pid);
	if (fd >= 0)
		close(fd);
	r = wait_until(pid, kb_now() + timeout, &status, tick, arg);
	kb_child_ended();
	if (r == -ETIMEDOUT)
		return kb_error("'%s' did not finish within %.0f s: killed", argv[0], timeout), -ETIMEDOUT;
	if (r < 0)
		return kb_error_errno(-r, "waitpid");
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int kb_run_argv(char *const argv[], const char *dir, const char *log_path)
{
	return kb_run_argv_deadline(argv, dir, log_path, KB_CHILD_DEADLINE);
}

int kb_remove_tree(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };

	return kb_run_argv(argv, NULL, "/dev/null");
}

int kb_capture(char *const argv[], double timeout, size_t max, char **out)
{
	double deadline = kb_now() + timeout;
	size_t n = 0, cap = max < 4096 ? max + 1 : 4096;
	int pfd[2], status = 0;
	pid_t pid, parent;

	*out = kb_xcalloc(1, cap);
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* as every child: none outlives a killed kbench */
		if (getppid() != parent)
			_exit(127);
		dup2(nul, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	/* what it prints, until it closes its output or the deadline passes */
	while (n < max) {
		struct pollfd p = { pfd[0], POLLIN, 0 };
		int left = (int)((deadline - kb_now()) * 1000);
		ssize_t got;

		if (left <= 0 || poll(&p, 1, left) == 0)
			break;
		if (n + 1 >= cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			*out = kb_xrealloc(*out, cap);
		}
		got = read(pfd[0], *out + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	(*out)[n] = '\0';
	close(pfd[0]);
	if (wait_until(pid, deadline, &status, NULL, NULL) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

char *kb_capture_line(char *const argv[], int any_status)
{
	char *out;
	int r = kb_capture(argv, KB_PROBE_DEADLINE, 511, &out);

	out[strcspn(out, "\n")] = '\0';
	if (r < 0 || r >= 128 || (r != 0 && !any_status) || !out[0]) {
		free(out);
		return NULL;
	}
	return out;
}

double kb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *kb_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	return p ? p : oom();
}

size_t kb_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return n;
}

char *kb_find_companion(const char *env, const char *build_rel, const char *installed)
{
	const char *e = getenv(env);
	char exe[4096];
	ssize_t n;

	if (e && *e)
		return kb_xstrdup(e);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *p, *real;

		exe[n] = '\0';
		p = kb_xasprintf("%s/%s", dirname(exe), build_rel);
		real = access(p, R_OK) == 0 ? realpath(p, NULL) : NULL;
		free(p);
		if (real)
			return real;
	}
	return kb_xstrdup(installed);
}

const char *kb_self_path(void)
{
	static char *self;

	if (!self)
		self = realpath("/proc/self/exe", NULL);
	return self;
}

void kb_touch(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

const char *kb_term_inert(char *out, size_t size, const char *s)
{
	size_t i = 0;

	for (; s && s[i] && i + 1 < size; i++)
		out[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
	return out;
}

char *kb_debian_source_package(const char *path)
{
	unsigned major, minor;
	int end = 0;

	if (sscanf(path, "/usr/src/linux-source-%u.%u.tar.xz%n", &major, &minor, &end) != 2 || !end ||
	    path[end])
		return NULL;
	return kb_xasprintf("linux-source-%u.%u", major, minor);
}

char *kb_default_cache_dir(void)
{
	const char *e = getenv("KBENCH_CACHE"), *x = getenv("XDG_CACHE_HOME");

	if (e && *e)
		return kb_xstrdup(e);
	if (x && *x)
		return kb_xasprintf("%s/kbench", x);
	return kb_xasprintf("%s/.cache/kbench", getenv("HOME") ? getenv("HOME") : "/tmp");
}

char *kb_path_lookup(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL, *found = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? kb_xstrdup(name) : NULL;
	dirs = kb_xstrdup(path && *path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = kb_xasprintf("%s/%s", *d ? d : ".", name);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(dirs);
	return found;
}

int kb_utf8_valid(const char *s, size_t *at)
{
	const unsigned char *u = (const unsigned char *)s, *b = u;

	while (*u) {
		unsigned c = *u;
		size_t n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 4;
		unsigned long cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;

		if (n == 4)
			goto bad;
		for (size_t i = 1; i <= n; i++) {
			if ((u[i] & 0xc0) != 0x80)
				goto bad;
			cp = cp << 6 | (u[i] & 0x3f);
		}
		/* the shortest form only, no surrogates, nothing above U+10FFFF */
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			goto bad;
		u += n + 1;
	}
	return 1;
bad:
	if (at)
		*at = (size_t)(u - b);
	return 0;
}

const char *kb_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

int kb_mkstemp(const char *what, char **path)
{
	char *p = kb_xasprintf("%s/kbench-%s.XXXXXX", kb_tmpdir(), what);
	int fd = mkostemp(p, O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		kb_error_errno(err, "cannot create a temporary file in '%s' (TMPDIR)", kb_tmpdir());
		free(p);
		*path = NULL;
		return -err;
	}
	*path = p;
	return fd;
}

size_t kb_wait_one(const void *first, size_t n, size_t stride, int *status)
{
	const char *base = first;
	int forwarded = 0;
	pid_t pid;

	if (!n)
		return n;
	for (;;) {
		pid = waitpid(-1, status, 0);
		if (pid > 0)
			break;
		if (errno != EINTR)
			return n;
		if (kb_interrupted && !forwarded++)
			for (size_t i = 0; i < n; i++)
				kill(*(const pid_t *)(const void *)(base + i * stride), SIGTERM);
	}
	for (size_t i = 0; i < n; i++)
		if (*(const pid_t *)(const void *)(base + i * stride) == pid)
			return i;
	return n;
}

void kb_shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* A path the kernel build gets (make's O=, -C, the fragment it reads):
 * make expands '$' in it and the kernel's recipes hand it to a shell
 * unquoted, so only characters inert to both are allowed. */
const char *kb_make_inert_path(const char *path)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789/._-+,=@%:~";
	static char why[160];
	unsigned char c = (unsigned char)path[strspn(path, ok)];
	char what[16];

	if (!c)
		return NULL;
	if (c < 0x20 || c >= 0x7f)
		snprintf(what, sizeof(what), "byte 0x%02x", c);
	else
		snprintf(what, sizeof(what), "'%c'", c);
	snprintf(why, sizeof(why), "%s not allowed in a path the kernel build gets (make and its "
		 "shell recipes expand it; allowed: letters, digits and /._-+,=@%%:~)", what);
	return why;
}

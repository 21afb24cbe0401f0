// SPDX-License-Identifier: GPL-2.0-or-later
/* QEMU as a child: argv only, its own process group, a deadline, the serial
 * port captured and split into lines. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libcpuid/libcpuid.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "util.h"
#include "vm.h"

#define LINE_MAX_BYTES 4096

#if defined(__x86_64__) || defined(__i386__)
static uint64_t host_tsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a" (lo), "=d" (hi));
	return (uint64_t)hi << 32 | lo;
}

/* The TSC and the clock read back to back, the pair whose reads took least
 * time of a few: a preemption between them would skew the rate. */
static void tsc_pair(uint64_t *tsc, double *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		struct timespec ts;
		uint64_t a = host_tsc(), b;

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		b = host_tsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
		}
	}
}

long kb_vm_host_tsc_khz(void)
{
	static long khz = -1;	/* measured once a process */
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;
	uint64_t t0, t1;
	double n0, n1;

	if (khz >= 0)
		return khz;
	khz = 0;
	if (!cpuid_present() || cpuid_get_raw_data(&raw) < 0 || cpu_identify(&raw, &id) < 0 ||
	    !id.flags[CPU_FEATURE_CONSTANT_TSC])
		return khz;
	tsc_pair(&t0, &n0);
	usleep(20 * 1000);
	tsc_pair(&t1, &n1);
	if (n1 > n0 && t1 > t0)
		khz = (long)((double)(t1 - t0) / (n1 - n0) * 1e6 + 0.5);
	return khz;
}
#else
long kb_vm_host_tsc_khz(void)
{
	return 0;
}
#endif

const char *kb_qemu_path(const char *arch)
{
	int x86_64 = arch && !strcmp(arch, "x86_64");
	const char *e = getenv(x86_64 ? "KBENCH_QEMU_X86_64" : "KBENCH_QEMU");

	return e && *e ? e : x86_64 ? QEMU_SYSTEM_X86_64 : QEMU_SYSTEM_I386;
}

static void build_argv(const struct kb_vm_opts *o, char **argv, char *mem)
{
	int n = 0;

	argv[n++] = (char *)o->qemu;
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-user-config";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	argv[n++] = "-name";		/* threads named "CPU 0/KVM": pmuhost.c finds them */
	argv[n++] = "kbench,debug-threads=on";
	argv[n++] = "-monitor";
	argv[n++] = "none";
	argv[n++] = "-serial";
	argv[n++] = "stdio";
	argv[n++] = "-accel";
	argv[n++] = (char *)kb_accel_name(o->accel);
	argv[n++] = "-m";
	argv[n++] = mem;
	if (o->bios) {
		argv[n++] = "-bios";
		argv[n++] = (char *)o->bios;
		argv[n++] = "-device";
		argv[n++] = "isa-debug-exit,iobase=0xf4,iosize=0x01";
	}
	if (o->kernel) {
		argv[n++] = "-kernel";
		argv[n++] = (char *)o->kernel;
	}
	if (o->initrd) {
		argv[n++] = "-initrd";
		argv[n++] = (char *)o->initrd;
	}
	if (o->append) {
		argv[n++] = "-append";
		argv[n++] = (char *)o->append;
	}
	for (int i = 0; o->extra_argv && o->extra_argv[i] && i < KB_VM_MAX_EXTRA; i++)
		argv[n++] = (char *)o->extra_argv[i];
	argv[n] = NULL;
}

struct lines {
	char buf[LINE_MAX_BYTES];
	size_t len;
	const struct kb_vm_opts *o;
};

static void feed(struct lines *l, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n' || l->len == sizeof(l->buf)) {
			if (l->o->on_line)
				l->o->on_line(l->o->ctx, l->buf, l->len);
			l->len = 0;
			if (p[i] == '\n')
				continue;
		}
		l->buf[l->len++] = p[i];
	}
}

int kb_vm_boot(const struct kb_vm_opts *o, struct kb_vm_result *res)
{
	char *argv[32 + KB_VM_MAX_EXTRA], mem[32];
	struct lines lines = { .o = o };
	int pfd[2], ifd[2] = { -1, -1 }, logfd = -1, serfd = -1, status = 0, ret = 0;
	double t0 = kb_now(), deadline = t0 + o->timeout;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	snprintf(mem, sizeof(mem), "%ld", o->memory_mb);
	build_argv(o, argv, mem);
	if (o->serial_log) {
		serfd = open(o->serial_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (serfd < 0)
			return kb_error_errno(errno, "cannot create '%s'", o->serial_log);
	}
	if (o->qemu_log) {
		logfd = open(o->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (logfd < 0) {
			ret = kb_error_errno(errno, "cannot create '%s'", o->qemu_log);
			goto out_ser;
		}
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		ret = kb_error_errno(errno, "pipe");
		goto out_log;
	}
	/* a socket, not a pipe: kbench sends with MSG_NOSIGNAL, so a QEMU that
	 * is gone gives EPIPE, not a SIGPIPE that would end kbench */
	if (o->on_start && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ifd) < 0) {
		ret = kb_error_errno(errno, "socketpair");
		close(pfd[0]);
		close(pfd[1]);
		goto out_log;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = kb_error_errno(errno, "cannot fork");
		close(pfd[0]);
		close(pfd[1]);
		goto out_in;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* no QEMU outlives a killed kbench */
		dup2(ifd[0] >= 0 ? ifd[0] : nul, 0);
		dup2(pfd[1], 1);
		dup2(logfd >= 0 ? logfd : nul, 2);
		execv(argv[0], argv);
		fprintf(stderr, "kbench: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	kb_child_started(pid);
	close(pfd[1]);
	if (ifd[0] >= 0) {
		close(ifd[0]);
		ifd[0] = -1;
		shutdown(ifd[1], SHUT_RD);	/* QEMU's stdin: kbench only writes */
		o->on_start(o->ctx, pid, ifd[1]);
	}

	for (;;) {
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		double left = deadline - kb_now();
		char buf[8192];
		ssize_t n;
		int r;

		if (left <= 0) {
			res->timed_out = 1;
			break;
		}
		r = poll(&pf, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(pfd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* QEMU closed the serial port: it is exiting */
		if (res->bytes + (size_t)n > o->max_bytes && o->max_bytes) {
			n = (ssize_t)(o->max_bytes - res->bytes);
			res->flooded = 1;
		}
		res->bytes += (size_t)n;
		if (serfd >= 0 && write(serfd, buf, (size_t)n) != n) {
			kb_warn("cannot write '%s': %s", o->serial_log, strerror(errno));
			close(serfd);
			serfd = -1;
		}
		feed(&lines, buf, (size_t)n);
		if (res->flooded)
			break;
	}
	if (lines.len && o->on_line)
		o->on_line(o->ctx, lines.buf, lines.len);
	close(pfd[0]);
	if (res->timed_out || res->flooded) {
		kill(-pid, SIGKILL);
	} else {
		/* Serial closed; QEMU should be gone within moments. */
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (kb_now() > deadline) {
				res->timed_out = 1;
				kill(-pid, SIGKILL);
				break;
			}
			usleep(1000);	/* a whole-boot timing includes this wait */
		}
		if (!res->timed_out)
			goto reaped;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
reaped:
	kill(-pid, SIGKILL);	/* anything QEMU left in its group */
	kb_child_ended();
	res->seconds = kb_now() - t0;
	if (WIFEXITED(status)) {
		res->exited = !res->timed_out && !res->flooded;
		res->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
	if (res->exited && res->status == 127 && res->bytes == 0) {
		ret = kb_error("cannot run '%s'", o->qemu);
		if (o->qemu_log)
			kb_print_tail(stderr, o->qemu_log, 5, "kbench:   | ");
	}
out_in:
	if (ifd[0] >= 0)
		close(ifd[0]);
	if (ifd[1] >= 0)
		close(ifd[1]);
out_log:
	if (logfd >= 0)
		close(logfd);
out_ser:
	if (serfd >= 0) {
		fsync(serfd);	/* the serial log is evidence: keep it */
		close(serfd);
	}
	return ret;
}

int kb_vm_panic_text(const char *line, size_t len, char *out, size_t size)
{
	const char *p = memmem(line, len, "Kernel panic", 12);
	size_t n;

	if (!p || !size)
		return 0;
	n = len - (size_t)(p - line);
	while (n && (p[n - 1] == '\r' || p[n - 1] == '\n'))
		n--;	/* the console's line end is no part of the text */
	n = n < size - 1 ? n : size - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = (p[i] >= 0x20 && p[i] < 0x7f) ? p[i] : '?';
	out[n] = '\0';
	return 1;
}

const char *kb_vm_outcome(const struct kb_vm_result *res, const struct kb_vm_opts *o, int hello,
			  int done, const char *panic, char **reason)
{
	if (res->timed_out) {
		*reason = kb_xasprintf("no end within %g s (%s)", o->timeout,
				       hello ? "the runner started" : "the runner never started");
		return "timeout";
	}
	if (res->flooded) {
		*reason = kb_xasprintf("more than %zu bytes of serial output", o->max_bytes);
		return "flood";
	}
	if (done && res->exited) {
		*reason = kb_xstrdup("");
		return "ok";
	}
	if (panic[0]) {
		*reason = kb_xstrdup(panic);
		return "panic";
	}
	if (res->exited)
		*reason = kb_xasprintf("QEMU exited (status %d) before the guest said done%s",
				       res->status, hello ? "" : "; the runner never started");
	else
		*reason = kb_xasprintf("QEMU died of signal %d", res->signal);
	return "crashed";
}

struct check {
	int hello, done;
	char panic[160];
};

static void check_line(void *ctx, const char *line, size_t len)
{
	struct check *c = ctx;
	struct kb_record r;
	const char *why;

	if (kb_record_parse(line, len, &r, &why) == KB_RECORD_OK) {
		c->hello |= !strcmp(r.kind, "hello");
		c->done |= !strcmp(r.kind, "done");
		return;
	}
	if (!c->panic[0])
		kb_vm_panic_text(line, len, c->panic, sizeof(c->panic));
}

int kb_vm_check(const struct kb_vm_opts *opts, char **reason, struct kb_vm_result *out)
{
	struct kb_vm_opts o = *opts;
	struct check c = { 0 };
	struct kb_vm_result res;
	const char *status;

	o.on_line = check_line;
	o.ctx = &c;
	if (kb_vm_boot(&o, &res) < 0) {
		*reason = kb_xasprintf("QEMU could not be started (%s)", o.qemu);
		if (out)
			memset(out, 0, sizeof(*out));
		return -1;
	}
	if (out)
		*out = res;
	status = kb_vm_outcome(&res, &o, c.hello, c.done, c.panic, reason);
	return strcmp(status, "ok") ? -1 : 0;
}

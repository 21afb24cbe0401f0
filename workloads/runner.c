// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kbench-runner: the guest's /init.  Reads its parameters from the
 * environment (the kernel hands unknown name=value boot parameters to init
 * that way), runs the workloads and prints the records of proto.h on the
 * console, then ends the VM.  Run by hand (not PID 1) it just exits, which is
 * how the tests use it.
 *
 * No stdio: every record is built in a buffer and written with one write()
 * so kernel messages cannot land inside it, and the same code can report a
 * fatal signal from the signal handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "proto.h"
#include "workload.h"

#define KB_RUNNER_VERSION	"0.1"
#define KB_LIST_SEP		'+'	/* ',' is not a record character */
#define MAX_PARAM_ERRORS	8

const struct kb_workload kb_workloads[KB_WL_COUNT] = {
#define KB_WORKLOAD(name_, kind_, iters_, help_) \
	[KB_WL_##name_] = { .name = #name_, .kind = kind_, .default_iters = iters_, \
			    .help = help_, .run = kb_wl_##name_##_run },
#include "workloads.def"
#undef KB_WORKLOAD
};

/* ---- records ---- */

struct rec {
	char buf[KB_PROTO_MAX_LINE];
	size_t len;
};

/* room left for the " #xxxxxxxx\r\n" trailer (the tty adds the \r) */
#define REC_BODY_MAX	(KB_PROTO_MAX_LINE - 16)

/* values are cut to this; the host keeps 160 bytes of a value */
#define REC_VALUE_MAX	128

static void rec_put(struct rec *r, const char *s, size_t max, bool sanitize)
{
	for (; *s && max && r->len < REC_BODY_MAX; s++, max--)
		r->buf[r->len++] = !sanitize || kb_proto_char_ok((unsigned char)*s) ? *s : '_';
}

static void rec_begin(struct rec *r, const char *kind)
{
	r->len = 0;
	rec_put(r, KB_PROTO_MAGIC, SIZE_MAX, false);
	rec_put(r, kind, SIZE_MAX, false);
}

static void rec_str(struct rec *r, const char *key, const char *val)
{
	rec_put(r, " ", SIZE_MAX, false);
	rec_put(r, key, SIZE_MAX, false);
	rec_put(r, "=", SIZE_MAX, false);
	rec_put(r, *val ? val : "_", REC_VALUE_MAX, true);
}

static void rec_u64(struct rec *r, const char *key, uint64_t v)
{
	char digits[24];
	size_t n = sizeof(digits);

	digits[--n] = '\0';
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rec_str(r, key, digits + n);
}

/* Checksum, newline and one write(); async-signal-safe. */
static void rec_send(struct rec *r)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t sum = kb_proto_sum(r->buf, r->len);
	size_t off = 0;
	ssize_t n;

	rec_put(r, " #", SIZE_MAX, false);
	for (int shift = 28; shift >= 0; shift -= 4)
		r->buf[r->len++] = hex[(sum >> shift) & 0xf];
	r->buf[r->len++] = '\n';
	while (off < r->len) {
		n = write(STDOUT_FILENO, r->buf + off, r->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
}

/* ---- ending ---- */

static bool is_init;
static pid_t runner_pid;
static volatile sig_atomic_t n_samples, n_errors;
static volatile sig_atomic_t current_wl = -1;

static void send_done(void)
{
	struct rec r;

	rec_begin(&r, "done");
	rec_u64(&r, "samples", (uint64_t)n_samples);
	rec_u64(&r, "errors", (uint64_t)n_errors);
	rec_send(&r);
}

/* PID 1 must never exit (the kernel panics): reset the machine instead, which
 * ends QEMU under -no-reboot.  If even that fails, the panic does it. */
static void __attribute__((noreturn)) finish(int status)
{
	if (is_init) {
		sync();
		reboot(RB_AUTOBOOT);
	}
	_exit(status);
}

static void on_fatal(int sig)
{
	struct rec r;

	if (getpid() != runner_pid)	/* a workload's child: just die */
		_exit(128 + sig);
	rec_begin(&r, "error");
	if (current_wl >= 0)
		rec_str(&r, "wl", kb_workloads[current_wl].name);
	rec_str(&r, "reason", "signal");
	rec_u64(&r, "signal", (uint64_t)sig);
	rec_send(&r);
	n_errors++;
	send_done();
	finish(128 + sig);
}

static void setup_signals(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
				     SIGSYS, SIGXCPU };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	/* a dead pipe reader must show as EPIPE in an error record */
	signal(SIGPIPE, SIG_IGN);
}

/* The kernel opens /dev/console from the initramfs for init; if the image
 * lacks it, devtmpfs has one. */
static void setup_console(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0 && mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) == 0)
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i <= 2; i++)
		if (fcntl(i, F_GETFD) < 0)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* ---- parameters ---- */

struct params {
	int order[KB_WL_COUNT];		/* workloads to run, in this order */
	unsigned n_order;
	unsigned long samples;
	double scale;
	bool warmup_set;
	unsigned long warmup;
};

struct param_error {
	char param[32];
	const char *reason;
	const char *value;
};

static struct param_error param_errors[MAX_PARAM_ERRORS];
static unsigned n_param_errors;

/* entry: the "name=value" environment string */
static void param_error(const char *entry, const char *reason)
{
	struct param_error *pe;
	const char *eq = strchr(entry, '=');
	size_t n = (size_t)(eq - entry);

	if (n_param_errors >= MAX_PARAM_ERRORS)
		return;
	pe = &param_errors[n_param_errors++];
	if (n >= sizeof(pe->param))
		n = sizeof(pe->param) - 1;
	memcpy(pe->param, entry, n);
	pe->param[n] = '\0';
	pe->reason = reason;
	pe->value = eq + 1;
}

/* A plain decimal number: no sign, no spaces, no trailing junk. */
static bool parse_ulong(const char *s, unsigned long min, unsigned long max,
			unsigned long *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_scale(const char *s, double *out)
{
	double v;
	char *end;

	if ((*s < '0' || *s > '9') && *s != '.')	/* no inf, nan, hex, sign */
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0 && v <= 1000))
		return false;
	*out = v;
	return true;
}

static int find_workload(const char *name, size_t len)
{
	for (int i = 0; i < KB_WL_COUNT; i++)
		if (strlen(kb_workloads[i].name) == len &&
		    !strncmp(kb_workloads[i].name, name, len))
			return i;
	return -1;
}

/* "getppid,pipe" (or with '+', as the hello record prints it) */
static bool parse_workloads(const char *s, struct params *p)
{
	bool seen[KB_WL_COUNT] = { false };

	p->n_order = 0;
	for (;;) {
		size_t len = strcspn(s, ",+");
		int wl = find_workload(s, len);

		if (wl < 0 || seen[wl])
			return false;
		seen[wl] = true;
		p->order[p->n_order++] = wl;
		if (!s[len])
			return true;
		s += len + 1;
	}
}

static void parse_params(char **env, struct params *p)
{
	p->n_order = KB_WL_COUNT;
	for (int i = 0; i < KB_WL_COUNT; i++)
		p->order[i] = i;
	p->samples = 5;
	p->scale = 1.0;
	p->warmup_set = false;
	p->warmup = 0;

	for (; env && *env; env++) {
		const char *e = *env, *val = strchr(e, '=');

		if (strncmp(e, "kb_", 3) || !val)
			continue;
		val++;
		if (!strncmp(e, "kb_workloads=", 13)) {
			struct params tmp = *p;

			if (parse_workloads(val, &tmp))
				*p = tmp;
			else
				param_error(e, "invalid");
		} else if (!strncmp(e, "kb_samples=", 11)) {
			if (!parse_ulong(val, 1, 1000000, &p->samples))
				param_error(e, "invalid");
		} else if (!strncmp(e, "kb_scale=", 9)) {
			if (!parse_scale(val, &p->scale))
				param_error(e, "invalid");
		} else if (!strncmp(e, "kb_warmup=", 10)) {
			if (parse_ulong(val, 0, 1000000000, &p->warmup))
				p->warmup_set = true;
			else
				param_error(e, "invalid");
		} else {
			/* a misspelt parameter would otherwise be ignored silently */
			param_error(e, "unknown");
		}
	}
}

static unsigned long scaled_iters(const struct kb_workload *w, double scale)
{
	unsigned long v = (unsigned long)((double)w->default_iters * scale + 0.5);

	return v ? v : 1;
}

/* ---- the run ---- */

static void send_hello(const struct params *p)
{
	char list[KB_WL_COUNT * 32 + 1];
	struct utsname u;
	size_t len = 0;
	struct rec r;

	if (uname(&u) < 0) {
		strcpy(u.release, "unknown");
		strcpy(u.machine, "unknown");
	}
	list[0] = '\0';
	for (unsigned i = 0; i < p->n_order; i++) {
		const char *name = kb_workloads[p->order[i]].name;
		size_t n = strlen(name);

		if (len + n + 2 > sizeof(list))
			break;
		if (i)
			list[len++] = KB_LIST_SEP;
		memcpy(list + len, name, n + 1);
		len += n;
	}
	rec_begin(&r, "hello");
	rec_u64(&r, "proto", KB_PROTO_VERSION);
	rec_str(&r, "runner", KB_RUNNER_VERSION);
	rec_str(&r, "kernel", u.release);
	rec_str(&r, "machine", u.machine);
	rec_str(&r, "pmu", "none");
	rec_str(&r, "workloads", list);
	rec_u64(&r, "samples", p->samples);
	rec_send(&r);
}

/* All samples of one workload; stops at its first failure. */
static void run_workload(int wl, const struct params *p)
{
	const struct kb_workload *w = &kb_workloads[wl];
	struct kb_wl_args args;
	struct rec r;

	args.iters = scaled_iters(w, p->scale);
	args.warmup = p->warmup_set ? p->warmup : args.iters / 10;
	current_wl = wl;
	for (unsigned long rep = 1; rep <= p->samples; rep++) {
		struct kb_wl_result res = { 0, NULL, 0 };

		if (w->run(&args, &res) < 0) {
			rec_begin(&r, "error");
			rec_str(&r, "wl", w->name);
			rec_str(&r, "reason", res.reason ? res.reason : "failed");
			if (res.err)
				rec_u64(&r, "errno", (uint64_t)res.err);
			rec_send(&r);
			n_errors++;
			break;
		}
		rec_begin(&r, "sample");
		rec_str(&r, "wl", w->name);
		rec_u64(&r, "rep", rep);
		rec_u64(&r, "iter", args.iters);
		rec_u64(&r, "ns", res.ns);
		rec_send(&r);
		n_samples++;
	}
	current_wl = -1;
}

int main(int argc, char **argv, char **envp)
{
	struct params p;

	(void)argc;
	(void)argv;
	runner_pid = getpid();
	is_init = runner_pid == 1;
	if (is_init)
		setup_console();
	setup_signals();

	parse_params(envp, &p);
	send_hello(&p);
	if (n_param_errors) {
		for (unsigned i = 0; i < n_param_errors; i++) {
			struct rec r;

			rec_begin(&r, "error");
			rec_str(&r, "param", param_errors[i].param);
			rec_str(&r, "reason", param_errors[i].reason);
			rec_str(&r, "value", param_errors[i].value);
			rec_send(&r);
			n_errors++;
		}
		send_done();
		finish(2);
	}
	for (unsigned i = 0; i < p.n_order; i++)
		run_workload(p.order[i], &p);
	send_done();
	finish(n_errors ? 1 : 0);
}

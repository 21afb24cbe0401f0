// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kbench-runner: the guest's /init.  Reads its parameters from the
 * environment (the kernel hands unknown name=value boot parameters to init
 * that way), runs the workloads and prints the records of proto.h on the
 * console, then ends the VM.  Run by hand (not PID 1) it just exits, which is
 * how the tests use it; files then go to $TMPDIR (default /tmp).
 *
 * As PID 1 it first makes what the workloads need: /dev/null, and tmpfs on
 * /tmp.  It opens the guest's counters once (counters.h); where they cannot
 * be opened or do not count (TCG has no PMU) the hello record says so, with
 * pmu=none and pmu_why, and the samples carry the clock alone.  Otherwise
 * each sample carries, per event of kb_perf_hw_events, <key>_k and <key>_u
 * (kernel and user counts of the region, scaled for multiplexing) and mux_k
 * and mux_u, the per mille of the region each group really counted.
 *
 * A workload that fails, even by a fatal signal, gives an error record
 * naming it, and the runner goes on with the next one.
 *
 * No stdio: every record is built in a buffer and written with one write()
 * so kernel messages cannot land inside it, and the same code can report a
 * fatal signal from the signal handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>

#include "counters.h"
#include "icache.h"
#include "proto.h"
#include "workload.h"

#define KB_RUNNER_VERSION	"0.1"
#define KB_LIST_SEP		'+'	/* ',' is not a record character */
#define MAX_PARAM_ERRORS	8
#define MAX_SWEEP		KB_SWEEP_MAX_POINTS
#define CHECK_LOOPS		1000000ul	/* the counter check: 2M instructions */

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
/* A fatal signal inside a workload jumps back to run_workload. */
static sigjmp_buf recover;
static volatile sig_atomic_t can_recover;

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
	if (can_recover) {
		can_recover = 0;
		siglongjmp(recover, sig);
	}
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

/* What the workloads need that an initramfs lacks: /dev/null (the image has
 * only /dev/console) and a tmpfs on /tmp.  A failure here shows later as the
 * failing workload's error record. */
static void setup_files(void)
{
	if (access("/dev/null", F_OK) < 0 &&
	    mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3)) < 0)
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/tmp", 01777);
	mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
}

/* ---- parameters ---- */

struct params {
	int order[KB_WL_COUNT];		/* workloads to run, in this order */
	unsigned n_order;
	unsigned long samples;
	double scale;
	bool warmup_set;
	unsigned long warmup;
	unsigned long sweep[MAX_SWEEP];	/* KiB, for KB_KIND_SWEEP workloads */
	unsigned n_sweep;
	const char *tmpdir;
	bool sync;			/* kb_sync=1: the host counts each region */
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

/* "getppid,pipe" (or with '+', as the hello record prints it); "none": a
 * boot that only starts and stops (whole-boot timing) */
static bool parse_workloads(const char *s, struct params *p)
{
	bool seen[KB_WL_COUNT] = { false };

	p->n_order = 0;
	if (!strcmp(s, "none"))
		return true;
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

/* "0,4,8,16" (or with '+'): distinct KiB values the generated block holds */
static bool parse_sweep(const char *s, struct params *p)
{
	unsigned n = 0;

	for (;;) {
		size_t len = strcspn(s, ",+");
		char num[16];
		unsigned long v;

		if (len == 0 || len >= sizeof(num) || n >= MAX_SWEEP)
			return false;
		memcpy(num, s, len);
		num[len] = '\0';
		if (!parse_ulong(num, 0, KB_ICACHE_MAX_KIB, &v))
			return false;
		for (unsigned i = 0; i < n; i++)
			if (p->sweep[i] == v)
				return false;
		p->sweep[n++] = v;
		if (!s[len])
			break;
		s += len + 1;
	}
	p->n_sweep = n;
	return true;
}

static void parse_params(char **env, struct params *p)
{
	static const unsigned long default_sweep[] = { 0, 4, 8, 16, 32, 64, 128 };
	const char *tmpdir = getenv("TMPDIR");

	p->n_order = KB_WL_COUNT;
	for (int i = 0; i < KB_WL_COUNT; i++)
		p->order[i] = i;
	p->samples = 5;
	p->scale = 1.0;
	p->warmup_set = false;
	p->warmup = 0;
	p->n_sweep = sizeof(default_sweep) / sizeof(default_sweep[0]);
	memcpy(p->sweep, default_sweep, sizeof(default_sweep));
	p->tmpdir = !is_init && tmpdir && *tmpdir ? tmpdir : "/tmp";

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
		} else if (!strncmp(e, "kb_sweep=", 9)) {
			struct params tmp = *p;

			if (parse_sweep(val, &tmp))
				*p = tmp;
			else
				param_error(e, "invalid");
		} else if (!strncmp(e, "kb_sync=", 8)) {
			if (!strcmp(val, "0") || !strcmp(val, "1"))
				p->sync = val[0] == '1';
			else
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

/* ---- counters and the workloads' services ---- */

static struct kb_counters counters;
static bool counting;		/* opened, and the check passed */
static bool region_counted;	/* the last region has counter values */
static const char *pmu_why = "";
static int pmu_errno;
static uint64_t pmu_check;	/* instructions the check read back */

static void setup_counters(void)
{
	int ret = kb_counters_open(&counters, kb_perf_hw_events, kb_perf_n_hw_events, 0, -1);

	if (ret < 0) {
		pmu_why = counters.why;
		pmu_errno = -ret;
		return;
	}
	ret = kb_counters_check(&counters, CHECK_LOOPS, &pmu_check);
	if (ret < 0) {
		pmu_why = counters.why;
		pmu_errno = ret == -ERANGE ? 0 : -ret;
		kb_counters_close(&counters);
		return;
	}
	counting = true;
}

/* Counters that worked at the start and fail later: say so once and go on
 * with the clock alone. */
static void counters_failed(int err)
{
	struct rec r;

	counting = false;
	region_counted = false;
	rec_begin(&r, "error");
	rec_str(&r, "reason", "counters");
	rec_str(&r, "what", counters.why);
	rec_u64(&r, "errno", (uint64_t)-err);
	rec_send(&r);
	n_errors++;
	kb_counters_close(&counters);
}

/*
 * The host-side handshake (kb_sync=1): around each measured region the
 * runner sends a mark record and waits for the host's one-byte answer on
 * the console, so the host can read counters of its own (the QEMU vCPU
 * thread's) around the region.  The waits fall outside the region's clock
 * and the guest's counters; the host's count holds the handshake's own tail
 * (its answer's delivery here, the end mark's output), 0.2 to 0.55 ms a
 * region under TCG (t0360).  A console that fails or closes ends the handshake
 * for the rest of the boot (one error record); the regions go on.
 */
static bool syncing;
static unsigned long cur_rep, cur_k;
static bool cur_sweep;

static void setup_sync(const struct params *p)
{
	struct termios t;

	if (!p->sync)
		return;
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		/* byte by byte, no echo of the host's answers into the records */
		t.c_lflag &= (tcflag_t) ~(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
		t.c_iflag &= (tcflag_t) ~(ICRNL | INLCR | IGNCR | IXON);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
	syncing = true;
}

static void host_sync(const char *at)
{
	struct rec r;
	ssize_t n;
	char c;

	if (!syncing || current_wl < 0 || getpid() != runner_pid)
		return;
	rec_begin(&r, "mark");
	rec_str(&r, "wl", kb_workloads[current_wl].name);
	rec_u64(&r, "rep", cur_rep);
	if (cur_sweep)
		rec_u64(&r, "k", cur_k);
	rec_str(&r, "at", at);
	rec_send(&r);
	do
		n = read(STDIN_FILENO, &c, 1);
	while ((n < 0 && errno == EINTR) || (n == 1 && c != 'g'));
	if (n == 1)
		return;
	syncing = false;
	rec_begin(&r, "error");
	rec_str(&r, "reason", "sync");
	rec_u64(&r, "errno", (uint64_t)(n < 0 ? errno : 0));
	rec_send(&r);
	n_errors++;
}

static void region_enter(struct kb_wl_result *res)
{
	int ret;

	host_sync("begin");
	region_counted = false;
	if (counting) {
		ret = kb_counters_start(&counters);
		if (ret < 0)
			counters_failed(ret);
		else
			region_counted = true;
	}
	res->t0 = kb_wl_now();
}

static void region_leave(struct kb_wl_result *res)
{
	uint64_t t1 = kb_wl_now();
	int ret;

	res->ns = t1 - res->t0;
	if (region_counted) {
		ret = kb_counters_stop(&counters);
		if (ret < 0)
			counters_failed(ret);
	}
	host_sync("end");
}

/* The region markers of workload.h, a pair per workload.  noipa: never
 * inlined or cloned, so each marker ID is in the binary once. */
#define KB_WORKLOAD(name_, kind_, iters_, help_) \
	void __attribute__((noipa)) kb_wl_##name_##_begin(struct kb_wl_result *res) \
	{ \
		region_enter(res); \
		KB_MARK(KB_MARK_BEGIN(KB_WL_##name_)); \
	} \
	void __attribute__((noipa)) kb_wl_##name_##_end(struct kb_wl_result *res) \
	{ \
		KB_MARK(KB_MARK_END(KB_WL_##name_)); \
		region_leave(res); \
	}
#include "workloads.def"
#undef KB_WORKLOAD

int kb_wl_tmpfile(const struct kb_wl_args *args, const char *tag, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/kb-%s.%ld", args->tmpdir, tag, (long)getpid());
	int fd;

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* ---- the run ---- */

/* "a+b+c" of n items into buf (the record form of a list) */
static void join_list(char *buf, size_t size, const char *const *items, unsigned n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		size_t l = strlen(items[i]);

		if (len + l + 2 > size)
			break;
		if (i)
			buf[len++] = KB_LIST_SEP;
		memcpy(buf + len, items[i], l + 1);
		len += l;
	}
}

static void send_hello(const struct params *p)
{
	char list[KB_WL_COUNT * 32 + 1], sweep[MAX_SWEEP * 8 + 1], num[MAX_SWEEP][8];
	const char *names[KB_WL_COUNT], *ks[MAX_SWEEP];
	struct utsname u;
	struct rec r;

	if (uname(&u) < 0) {
		strcpy(u.release, "unknown");
		strcpy(u.machine, "unknown");
	}
	names[0] = "none";	/* kb_workloads=none: a boot that only starts and stops */
	for (unsigned i = 0; i < p->n_order; i++)
		names[i] = kb_workloads[p->order[i]].name;
	join_list(list, sizeof(list), names, p->n_order ? p->n_order : 1);
	for (unsigned i = 0; i < p->n_sweep; i++) {
		snprintf(num[i], sizeof(num[i]), "%lu", p->sweep[i]);
		ks[i] = num[i];
	}
	join_list(sweep, sizeof(sweep), ks, p->n_sweep);

	rec_begin(&r, "hello");
	rec_u64(&r, "proto", KB_PROTO_VERSION);
	rec_str(&r, "runner", KB_RUNNER_VERSION);
	rec_str(&r, "kernel", u.release);
	rec_str(&r, "machine", u.machine);
	if (counting) {
		rec_str(&r, "pmu", "guest");
		rec_u64(&r, "pmu_check", pmu_check);
	} else {
		rec_str(&r, "pmu", "none");
		rec_str(&r, "pmu_why", pmu_why);
		if (pmu_errno)
			rec_u64(&r, "pmu_errno", (uint64_t)pmu_errno);
	}
	rec_str(&r, "workloads", list);
	rec_u64(&r, "samples", p->samples);
	rec_str(&r, "sweep", sweep);
	if (p->sync)
		rec_u64(&r, "sync", 1);
	rec_send(&r);
}

static void send_sample(const struct kb_workload *w, const struct kb_wl_args *args,
			unsigned long rep, bool sweep, const struct kb_wl_result *res)
{
	struct rec r;
	char key[16];

	rec_begin(&r, "sample");
	rec_str(&r, "wl", w->name);
	rec_u64(&r, "rep", rep);
	rec_u64(&r, "iter", args->iters);
	rec_u64(&r, "ns", res->ns);
	if (sweep)
		rec_u64(&r, "k", args->k);
	if (region_counted) {
		for (size_t i = 0; i < counters.n; i++) {
			snprintf(key, sizeof(key), "%s_k", kb_perf_hw_events[i].key);
			rec_u64(&r, key, kb_counters_value(&counters, 0, i));
			snprintf(key, sizeof(key), "%s_u", kb_perf_hw_events[i].key);
			rec_u64(&r, key, kb_counters_value(&counters, 1, i));
		}
		rec_u64(&r, "mux_k", kb_counters_permille(&counters, 0));
		rec_u64(&r, "mux_u", kb_counters_permille(&counters, 1));
	}
	rec_send(&r);
	n_samples++;
}

/* All samples of one workload (per rep, one per K of a sweep); stops at its
 * first failure. */
static void run_workload(int wl, const struct params *p)
{
	const struct kb_workload *w = &kb_workloads[wl];
	bool sweep = !strcmp(w->kind, KB_KIND_SWEEP);
	unsigned long iters0 = scaled_iters(w, p->scale);
	unsigned n_k = sweep ? p->n_sweep : 1;
	struct kb_wl_args args = { .tmpdir = p->tmpdir };
	struct rec r;

	for (unsigned long rep = 1; rep <= p->samples; rep++) {
		for (unsigned j = 0; j < n_k; j++) {
			struct kb_wl_result res = { 0, NULL, 0, 0 };

			args.k = sweep ? p->sweep[j] : 0;
			cur_rep = rep;
			cur_k = args.k;
			cur_sweep = sweep;
			args.iters = sweep ? kb_wl_sweep_iters(iters0, args.k) : iters0;
			args.warmup = p->warmup_set ? p->warmup : args.iters / 10;
			if (w->run(&args, &res) < 0) {
				rec_begin(&r, "error");
				rec_str(&r, "wl", w->name);
				if (sweep)
					rec_u64(&r, "k", args.k);
				rec_str(&r, "reason", res.reason ? res.reason : "failed");
				if (res.err)
					rec_u64(&r, "errno", (uint64_t)res.err);
				rec_send(&r);
				n_errors++;
				return;
			}
			send_sample(w, &args, rep, sweep, &res);
		}
	}
}

/* run_workload, where a fatal signal ends the workload (on_fatal sends its
 * error record) and not the run.  A helper process the workload had is left
 * behind, asleep. */
static void run_workload_guarded(int wl, const struct params *p)
{
	current_wl = wl;
	if (sigsetjmp(recover, 1)) {
		if (region_counted && kb_counters_stop(&counters) < 0)
			counters_failed(-EIO);
		region_counted = false;
		setup_signals();	/* SA_RESETHAND took the handler away */
		current_wl = -1;
		return;
	}
	can_recover = 1;
	run_workload(wl, p);
	can_recover = 0;
	current_wl = -1;
}

int main(int argc, char **argv, char **envp)
{
	struct params p;

	(void)argc;
	(void)argv;
	runner_pid = getpid();
	is_init = runner_pid == 1;
	if (is_init) {
		setup_console();
		setup_files();
	}
	setup_signals();

	parse_params(envp, &p);
	setup_counters();
	send_hello(&p);
	setup_sync(&p);
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
		run_workload_guarded(p.order[i], &p);
	send_done();
	finish(n_errors ? 1 : 0);
}

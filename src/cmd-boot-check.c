// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench boot-check: one QEMU boot of the guest runner that succeeds only
 * when the runner says done: the command hyperfine times (boottime.c). */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "record.h"
#include "util.h"
#include "vm.h"

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

/* A failed run says why on one line of the log: hyperfine keeps no output. */
static void check_log(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_log(const char *log, const char *fmt, ...)
{
	FILE *f = log ? fopen(log, "a") : NULL;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (!f)
		return;
	fprintf(f, "%ld: ", (long)time(NULL));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static int cmd_boot_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' }, { "initrd", required_argument, NULL, 'i' },
		{ "append", required_argument, NULL, 'a' }, { "accel", required_argument, NULL, 'A' },
		{ "memory", required_argument, NULL, 'm' }, { "timeout", required_argument, NULL, 't' },
		{ "log", required_argument, NULL, 'l' }, { "qemu-log", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	struct kb_vm_opts o = { .qemu = kb_qemu_path(), .accel = "tcg", .memory_mb = 128,
				.timeout = 300, .max_bytes = 1 << 20, .on_line = check_line };
	struct check c = { 0 };
	struct kb_vm_result res;
	const char *log = NULL, *status;
	char *end, *reason;
	int opt;

	o.ctx = &c;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k': o.kernel = optarg; break;
		case 'i': o.initrd = optarg; break;
		case 'a': o.append = optarg; break;
		case 'A':
			if (strcmp(optarg, "tcg") && strcmp(optarg, "kvm"))
				return kb_error("--accel: '%s' is neither tcg nor kvm", optarg), KB_EXIT_USAGE;
			o.accel = optarg;
			break;
		case 'm':
			o.memory_mb = strtol(optarg, &end, 10);
			if (*end || o.memory_mb < 32 || o.memory_mb > 3072)
				return kb_error("--memory: '%s' is not 32 to 3072 MiB", optarg), KB_EXIT_USAGE;
			break;
		case 't':
			o.timeout = strtod(optarg, &end);
			if (*end || !(o.timeout > 0 && o.timeout <= 86400))
				return kb_error("--timeout: '%s' is not 0 to 86400 s", optarg), KB_EXIT_USAGE;
			break;
		case 'l': log = optarg; break;
		case 'q': o.qemu_log = optarg; break;
		case 'h': return kb_command_usage(&kb_command_boot_check, KB_EXIT_OK);
		default: return kb_command_usage(&kb_command_boot_check, KB_EXIT_USAGE);
		}
	}
	if (optind != argc || !o.kernel || !o.initrd || !o.append)
		return kb_command_usage(&kb_command_boot_check, KB_EXIT_USAGE);
	if (kb_vm_boot(&o, &res) < 0) {
		check_log(log, "boot-check: QEMU could not be started (%s)", o.qemu);
		return KB_EXIT_FAILED;
	}
	status = kb_vm_outcome(&res, &o, c.hello, c.done, c.panic, &reason);
	if (strcmp(status, "ok"))
		check_log(log, "boot-check: %s", reason);
	free(reason);
	return strcmp(status, "ok") ? KB_EXIT_FAILED : KB_EXIT_OK;
}

const struct kb_command kb_command_boot_check = {
	.name = "boot-check",
	.summary = "one verified boot of the guest runner (what kbench run has hyperfine time)",
	.usage = "usage: kbench boot-check --kernel BZIMAGE --initrd CPIO --append CMDLINE\n"
		 "                         [--accel tcg|kvm] [--memory MIB] [--timeout S]\n"
		 "                         [--log FILE] [--qemu-log FILE]\n\n"
		 "One boot of the guest runner; exit 0 only when it reported done and QEMU\n"
		 "exited by itself.  What `kbench run` has hyperfine time for workload 'boot'.\n",
	.fn = cmd_boot_check,
	.hidden = 1,
};

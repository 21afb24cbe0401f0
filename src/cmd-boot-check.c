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
#include "util.h"
#include "vm.h"

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
				.timeout = 300, .max_bytes = 1 << 20 };
	const char *log = NULL;
	char *end, *reason;
	int opt, r;

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
	r = kb_vm_check(&o, &reason, NULL);
	if (r < 0)
		check_log(log, "boot-check: %s", reason);
	free(reason);
	return r < 0 ? KB_EXIT_FAILED : KB_EXIT_OK;
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

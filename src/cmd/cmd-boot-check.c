// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench boot-check: one QEMU boot of the guest runner that succeeds only
 * when the runner says done: the command hyperfine times (boottime.c). */
#include "config.h"

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

struct args {
	struct kb_vm_opts o;
	const char *log;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;
	char *end;

	switch (key) {
	case KB_LONG('r'):
		if (strcmp(value, "i386") && strcmp(value, "x86_64"))
			return kb_command_usage_error(&kb_command_boot_check,
						      "--arch: '%s' is neither i386 nor x86_64", value);
		a->o.qemu = kb_qemu_path(value);
		break;
	case KB_LONG('k'): a->o.kernel = value; break;
	case KB_LONG('i'): a->o.initrd = value; break;
	case KB_LONG('a'): a->o.append = value; break;
	case KB_LONG('A'):
		a->o.accel = kb_accel_from_name(value);
		if (a->o.accel == KB_ACCEL_AUTO)
			return kb_command_usage_error(&kb_command_boot_check,
						      "--accel: '%s' is neither tcg nor kvm", value);
		break;
	case KB_LONG('m'):
		a->o.memory_mb = strtol(value, &end, 10);
		if (*end || a->o.memory_mb < 32 || a->o.memory_mb > 3072)
			return kb_command_usage_error(&kb_command_boot_check,
						      "--memory: '%s' is not 32 to 3072 MiB", value);
		break;
	case KB_LONG('t'):
		a->o.timeout = strtod(value, &end);
		if (*end || !(a->o.timeout > 0 && a->o.timeout <= 86400))
			return kb_command_usage_error(&kb_command_boot_check,
						      "--timeout: '%s' is not 0 to 86400 s", value);
		break;
	case KB_LONG('l'): a->log = value; break;
	case KB_LONG('q'): a->o.qemu_log = value; break;
	}
	return KB_GO_ON;
}

static int cmd_boot_check(int argc, char **argv)
{
	struct args a = { .o = { .qemu = kb_qemu_path("i386"), .accel = KB_ACCEL_TCG, .memory_mb = 128,
				 .timeout = 300, .max_bytes = 1 << 20 } };
	char *reason;
	int r = kb_command_parse(&kb_command_boot_check, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 0)
		return kb_command_usage_error(&kb_command_boot_check, "no operands, but '%s'", argv[0]);
	if (!a.o.kernel || !a.o.initrd || !a.o.append)
		return kb_command_usage_error(&kb_command_boot_check,
					      "--kernel, --initrd and --append are needed");
	r = kb_vm_check(&a.o, &reason, NULL);
	if (r < 0)
		check_log(a.log, "boot-check: %s", reason);
	free(reason);
	return r < 0 ? KB_EXIT_FAILED : KB_EXIT_OK;
}

static const struct kb_command_option options[] = {
	{ "arch", KB_LONG('r'), "i386|x86_64", "the guest's architecture: its QEMU (default i386)" },
	{ "kernel", KB_LONG('k'), "BZIMAGE", "the kernel" },
	{ "initrd", KB_LONG('i'), "CPIO", "the guest runner's initramfs" },
	{ "append", KB_LONG('a'), "CMDLINE", "the kernel's command line" },
	{ "accel", KB_LONG('A'), "tcg|kvm", "QEMU's accelerator (default tcg)" },
	{ "memory", KB_LONG('m'), "MIB", "the guest's memory, 32 to 3072 MiB (default 128)" },
	{ "timeout", KB_LONG('t'), "S", "give up after S seconds (default 300)" },
	{ "log", KB_LONG('l'), "FILE", "append why a boot failed to FILE" },
	{ "qemu-log", KB_LONG('q'), "FILE", "QEMU's own log" },
	{ 0 },
};

const struct kb_command kb_command_boot_check = {
	.name = "boot-check",
	.summary = "one verified boot of the guest runner (what kbench run has hyperfine time)",
	.usage = "usage: kbench boot-check --kernel BZIMAGE --initrd CPIO --append CMDLINE\n"
		 "                         [--arch i386|x86_64] [--accel tcg|kvm] [--memory MIB] [--timeout S]\n"
		 "                         [--log FILE] [--qemu-log FILE]\n\n"
		 "One boot of the guest runner; exit 0 only when it reported done and QEMU\n"
		 "exited by itself.  What `kbench run` has hyperfine time for workload 'boot'.\n",
	.options = options,
	.fn = cmd_boot_check,
	.hidden = 1,
};

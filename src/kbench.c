// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench: does a kernel built for size also run faster?  The subcommand table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

struct kb_command {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

static const struct kb_command commands[] = {
	{ "run",    "build, boot and measure every variant, then write the report", kb_cmd_run },
	{ "build",  "build the kernels of variants.conf only",                      kb_cmd_build },
	{ "size",   "text/data/bss of ELF files, as binutils size prints them",     kb_cmd_size },
	{ "bloat",  "per-symbol size changes, as scripts/bloat-o-meter prints them", kb_cmd_bloat },
	{ "report", "write the report of a run directory again",                    kb_cmd_report },
	{ "compare", "compare two runs of the same variants (B against A)",         kb_cmd_compare },
	{ "probe",  "what this host can measure (KVM, PMU, caches, QEMU)",          kb_cmd_probe },
	{ "sim",    "run a static i386 program under kbench's cache-simulating QEMU plugin", kb_cmd_sim },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kbench <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < KB_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'kbench <command> --help' for a command's options\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return KB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kbench %s\n", PACKAGE_VERSION);
		return KB_EXIT_OK;
	}
	/* not listed: the command `kbench run` has hyperfine time */
	if (!strcmp(argv[1], "boot-check"))
		return kb_cmd_boot_check(argc - 1, argv + 1);
	for (size_t i = 0; i < KB_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	kb_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return KB_EXIT_USAGE;
}

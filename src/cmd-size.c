// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench size: binutils size's tables, from size.c's libelf reading. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "size.h"
#include "util.h"

static int size_usage_error(void)
{
	fputs(kb_command_size.usage, stderr);
	return KB_EXIT_USAGE;
}

static int cmd_size(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "totals", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_size_printer p = { .out = stdout };
	int c, ret = KB_EXIT_OK;

	optind = 0;	/* a fresh scan, whoever parsed before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ABth", longopts, NULL)) != -1) {
		switch (c) {
		case 'A':
			p.sysv = true;
			break;
		case 'B':
			p.sysv = false;
			break;
		case 'f':
			if (!strcmp(optarg, "sysv")) {
				p.sysv = true;
			} else if (!strcmp(optarg, "berkeley")) {
				p.sysv = false;
			} else {
				kb_error("size: unknown format '%s' (berkeley or sysv)", optarg);
				return size_usage_error();
			}
			break;
		case 't':
			p.totals = true;
			break;
		case 'h':
			return kb_command_usage(&kb_command_size, KB_EXIT_OK);
		case ':':
			kb_error("size: option '%s' needs a value", argv[optind - 1]);
			return size_usage_error();
		default:
			if (optopt)
				kb_error("size: unknown option '-%c'", optopt);
			else
				kb_error("size: unknown option '%s'", argv[optind - 1]);
			return size_usage_error();
		}
	}
	if (optind >= argc) {
		kb_error("size: no file named");
		return size_usage_error();
	}
	for (int i = optind; i < argc; i++)
		if (kb_size_show(&p, argv[i]) < 0)
			ret = KB_EXIT_FAILED;
	if (p.totals && !p.sysv)
		kb_size_print_row(p.out, &p.total, "(TOTALS)");
	if (fflush(p.out) == EOF || ferror(p.out)) {
		kb_error_errno(errno, "size: cannot write the output");
		ret = KB_EXIT_FAILED;
	}
	return ret;
}

const struct kb_command kb_command_size = {
	.name = "size",
	.summary = "text/data/bss of ELF files, as binutils size prints them",
	.usage = "usage: kbench size [--format=berkeley|sysv] [-A|-B] [-t] FILE...\n\n"
		 "Print text, data and bss of ELF files and archive members exactly as\n"
		 "binutils size does, reading them with libelf.\n\n"
		 "  -B, --format=berkeley  a line per file: text, data, bss, dec, hex (default)\n"
		 "  -A, --format=sysv      every section with its size and address\n"
		 "  -t, --totals           a last (TOTALS) line, Berkeley format only\n"
		 "  -h, --help             this help\n\n"
		 "Exit status: 0, 1 if a file could not be read, 2 on a usage error.\n",
	.fn = cmd_size,
};

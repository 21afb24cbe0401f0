// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench bloat [-c | -d | -t] OLD NEW: bloat-o-meter's table (bloat.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "bloat.h"
#include "commands.h"
#include "util.h"

static int cmd_bloat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_bloat_syms old, new;
	int mode = 0, c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "cdtp:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'd':
		case 't':
			if (mode && mode != c) {
				kb_error("bloat: -%c is not allowed with -%c", c, mode);
				return KB_EXIT_USAGE;
			}
			mode = c;
			break;
		case 'p':
			break;
		case 'h':
			return kb_command_usage(&kb_command_bloat, KB_EXIT_OK);
		default:
			return kb_command_usage(&kb_command_bloat, KB_EXIT_USAGE);
		}
	}
	if (argc - optind != 2) {
		kb_error("bloat: two files to compare, OLD and NEW");
		return kb_command_usage(&kb_command_bloat, KB_EXIT_USAGE);
	}
	kb_bloat_syms_init(&old);
	kb_bloat_syms_init(&new);
	ret = kb_bloat_syms_read(argv[optind], &old);
	if (ret == 0)
		ret = kb_bloat_syms_read(argv[optind + 1], &new);
	if (ret == 0)
		kb_bloat_print_mode(stdout, mode, &old, &new);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
	if (fflush(stdout) != 0 && ret == 0)
		ret = kb_error_errno(errno, "standard output");
	return ret == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
}

const struct kb_command kb_command_bloat = {
	.name = "bloat",
	.summary = "per-symbol size changes, as scripts/bloat-o-meter prints them",
	.usage = "usage: kbench bloat [-c | -d | -t] [-p PREFIX] OLD NEW\n\n"
		 "Per-symbol size changes from OLD to NEW (ELF files or ar archives), as the\n"
		 "kernel's scripts/bloat-o-meter prints them, read with libelf (no nm).\n\n"
		 "  -c         by category: functions, data, read-only data\n"
		 "  -d         data and read-only data only\n"
		 "  -t         functions only\n"
		 "  -p PREFIX  accepted for bloat-o-meter's sake (nm's cross prefix); unused\n",
	.fn = cmd_bloat,
};

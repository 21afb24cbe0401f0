// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench bloat [-c | -d | -t] OLD NEW: bloat-o-meter's table (bloat.h). */
#include "config.h"

#include <stdio.h>

#include "bloat.h"
#include "commands.h"
#include "util.h"

/* -c, -d or -t, at most one of them */
static int option(void *ctx, int key, const char *value)
{
	int *mode = ctx;

	(void)value;
	if (key == 'p')
		return KB_GO_ON;
	if (*mode && *mode != key)
		return kb_command_usage_error(&kb_command_bloat, "-%c is not allowed with -%c", key, *mode);
	*mode = key;
	return KB_GO_ON;
}

static int cmd_bloat(int argc, char **argv)
{
	struct kb_bloat_syms old, new;
	int mode = 0, ret = kb_command_parse(&kb_command_bloat, &argc, &argv, option, &mode);

	if (ret != KB_GO_ON)
		return ret;
	if (argc != 2)
		return kb_command_usage_error(&kb_command_bloat, "two files to compare, OLD and NEW");
	kb_bloat_syms_init(&old);
	kb_bloat_syms_init(&new);
	ret = kb_bloat_syms_read(argv[0], &old);
	if (ret == 0)
		ret = kb_bloat_syms_read(argv[1], &new);
	if (ret == 0)
		kb_bloat_print_mode(stdout, mode, &old, &new);
	kb_bloat_syms_release(&old);
	kb_bloat_syms_release(&new);
	return ret == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
}

static const struct kb_command_option options[] = {
	{ NULL, 'c', NULL, "by category: functions, data, read-only data" },
	{ NULL, 'd', NULL, "data and read-only data only" },
	{ NULL, 't', NULL, "functions only" },
	{ NULL, 'p', "PREFIX", "accepted for bloat-o-meter's sake (nm's cross prefix); unused" },
	{ 0 },
};

const struct kb_command kb_command_bloat = {
	.name = "bloat",
	.summary = "per-symbol size changes, as scripts/bloat-o-meter prints them",
	.usage = "usage: kbench bloat [-c | -d | -t] [-p PREFIX] OLD NEW\n\n"
		 "Per-symbol size changes from OLD to NEW (ELF files or ar archives), as the\n"
		 "kernel's scripts/bloat-o-meter prints them, read with libelf (no nm).\n",
	.options = options,
	.fn = cmd_bloat,
};

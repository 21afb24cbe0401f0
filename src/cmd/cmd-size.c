// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench size: binutils size's tables, from size.c's libelf reading. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "size.h"
#include "util.h"

static int option(void *ctx, int key, const char *value)
{
	struct kb_size_printer *p = ctx;

	switch (key) {
	case 'A':
		p->sysv = true;
		break;
	case 'B':
		p->sysv = false;
		break;
	case KB_LONG('f'):
		if (strcmp(value, "sysv") && strcmp(value, "berkeley"))
			return kb_command_unknown(&kb_command_size, "--format", value,
						  (const char *const[]){ "berkeley", "sysv" }, 2);
		p->sysv = !strcmp(value, "sysv");
		break;
	case 't':
		p->totals = true;
		break;
	}
	return KB_GO_ON;
}

static int cmd_size(int argc, char **argv)
{
	struct kb_size_printer p = { .out = stdout };
	int ret = kb_command_parse(&kb_command_size, &argc, &argv, option, &p);

	if (ret != KB_GO_ON)
		return ret;
	if (argc < 1)
		return kb_command_usage_error(&kb_command_size, "no file named");
	ret = KB_EXIT_OK;
	for (int i = 0; i < argc; i++)
		if (kb_size_show(&p, argv[i]) < 0)
			ret = KB_EXIT_FAILED;
	if (p.totals && !p.sysv)
		kb_size_print_row(p.out, &p.total, "(TOTALS)");
	return ret;
}

static const struct kb_command_option options[] = {
	{ NULL, 'B', NULL, "a line per file: text, data, bss, dec, hex (default)" },
	{ NULL, 'A', NULL, "every section with its size and address" },
	{ "format", KB_LONG('f'), "FORMAT", "berkeley (as -B) or sysv (as -A)" },
	{ "totals", 't', NULL, "a last (TOTALS) line, Berkeley format only" },
	{ 0 },
};

const struct kb_command kb_command_size = {
	.name = "size",
	.summary = "text/data/bss of ELF files, as binutils size prints them",
	.usage = "usage: kbench size [--format=berkeley|sysv] [-A|-B] [-t] FILE...\n\n"
		 "Print text, data and bss of ELF files and archive members exactly as\n"
		 "binutils size does, reading them with libelf.\n",
	.options = options,
	.footer = "Exit status: 0, 1 if a file could not be read, 2 on a usage error.\n",
	.fn = cmd_size,
};

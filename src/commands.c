// SPDX-License-Identifier: GPL-2.0-or-later
/* The subcommand table (commands.h). */
#include "config.h"

#include <string.h>

#include "commands.h"
#include "util.h"

static const struct kb_command *const table[] = {
#define KB_COMMAND(id) &kb_command_##id,
#include "commands.def"
#undef KB_COMMAND
};

const struct kb_command *const *kb_commands(size_t *n)
{
	*n = KB_ARRAY_SIZE(table);
	return table;
}

const struct kb_command *kb_command_find(const char *name)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

const struct kb_command kb_command_report = {
	.name = "report",
	.summary = "write the report of a run directory again",
	.usage = "usage: kbench report [--confidence LEVEL] RUN_DIR\n\n"
		 "Write report.md, report.html, summary.json and summary.csv of RUN_DIR again\n"
		 "from its files.\n\n"
		 "  --confidence LEVEL  confidence of the intervals, and 1 - LEVEL for the verdicts\n"
		 "                      (default 0.95)\n",
	.fn = kb_cmd_report,
};

const struct kb_command kb_command_compare = {
	.name = "compare",
	.summary = "compare two runs of the same variants (B against A)",
	.usage = "usage: kbench compare [--force] [--json] [--confidence LEVEL] RUN_A RUN_B\n\n"
		 "B against A: every variant both runs have, per case and metric.\n\n"
		 "  --force             compare runs that measured different things\n"
		 "  --json              print the comparison as JSON instead of markdown\n"
		 "  --confidence LEVEL  confidence of the intervals (default 0.95)\n",
	.fn = kb_cmd_compare,
};


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

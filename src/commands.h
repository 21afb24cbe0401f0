/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

/*
 * The subcommands, one src/cmd-*.c each (tmux's cmd-*.c, perf's builtin
 * table): each file ends with its struct kb_command, collected in
 * commands.c.  Its usage text is what --help prints and what the man page
 * (kbench.1, made from this table) says.
 */

#include <stdio.h>

struct kb_command {
	const char *name;
	const char *summary;	/* one line */
	const char *usage;	/* "usage: ..." lines, a blank line, then the options */
	int (*fn)(int argc, char **argv);	/* argv[0] is the name; returns an exit code */
	int hidden;		/* not listed: run by kbench itself (hyperfine times boot-check) */
};

#define KB_COMMAND(id) extern const struct kb_command kb_command_##id;
#include "commands.def"
#undef KB_COMMAND

/* The table, in the order the usage lists it; n in *n. */
const struct kb_command *const *kb_commands(size_t *n);
const struct kb_command *kb_command_find(const char *name);
/* A command's usage on stdout (ret 0) or stderr; returns ret.  Inline: a
 * command prints its usage without calling into the table that lists it. */
static inline int kb_command_usage(const struct kb_command *c, int ret)
{
	fputs(c->usage, ret ? stderr : stdout);
	return ret;
}

#endif

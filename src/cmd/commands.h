/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

/*
 * The subcommands, one src/cmd-*.c each (tmux's cmd-*.c, perf's builtin
 * table): each file ends with its struct kb_command, collected in
 * commands.c.  Its usage text and option table are what --help prints and
 * what the man page (kbench.1, made from this table) says; the same table
 * drives the parsing of its options (command.c).
 */

#include <stdio.h>

/* The key of an option without a short name: never taken as -c. */
#define KB_LONG(c) (0x100 | (c))

/* One option of a command (git's OPT_*, tmux's args template). */
struct kb_command_option {
	const char *name;	/* --NAME; NULL: the short option only */
	int key;		/* what the parser hands on; -KEY too unless KB_LONG */
	const char *arg;	/* its value's name in the usage (LEVEL); NULL: none */
	const char *help;	/* for --help and the man page; '\n' breaks a line */
};

struct kb_command {
	const char *name;
	const char *summary;	/* one line */
	const char *usage;	/* "usage: ..." lines, a blank line, what it does */
	const struct kb_command_option *options;	/* ends with { 0 }; NULL: none */
	const char *footer;	/* after the options, or NULL */
	int (*fn)(int argc, char **argv);	/* argv[0] is the name; returns an exit code */
	int hidden;		/* not listed: run by kbench itself (hyperfine times boot-check) */
	int options_first;	/* the options end at the first operand (its own come after) */
};

#define KB_COMMAND(id) extern const struct kb_command kb_command_##id;
#include "commands.def"
#undef KB_COMMAND

/* The table, in the order the usage lists it; n in *n. */
const struct kb_command *const *kb_commands(size_t *n);
const struct kb_command *kb_command_find(const char *name);

/*
 * One command (command.c; not in commands.c, so that a command does not
 * call into the table that lists it).
 */

/* What a step of kb_command_parse returns to go on. */
#define KB_GO_ON (-1)

/* Its full usage, options included, as --help prints it (to free). */
char *kb_command_help(const struct kb_command *c);
/* Its usage on stdout (ret 0) or stderr; returns ret. */
int kb_command_usage(const struct kb_command *c, int ret);
/* "kbench: NAME: MESSAGE" and the usage on stderr; returns KB_EXIT_USAGE. */
int kb_command_usage_error(const struct kb_command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Names given on the command line, refused one way (conf.c's "did you mean"
 * for variants.conf, here for commands, options, cases, variants and
 * choices): "kbench: COMMAND: unknown WHAT 'NAME' (did you mean 'X'?)",
 * or with no candidate close, "(one of: A, B, ...)" where they are few.
 */
/* The candidate nearest name by edit distance (kb_edit_distance), or NULL
 * where none is close enough to be a slip. */
const char *kb_command_closest(const char *name, const char *const *cands, size_t n);
/* The message above on stderr (c NULL: no command named); returns
 * KB_EXIT_USAGE. */
int kb_command_unknown(const struct kb_command *c, const char *what, const char *name,
		       const char *const *cands, size_t n);
/* --fail-on LIST into f (fail-on.h): KB_GO_ON, or after the message
 * KB_EXIT_USAGE. */
struct kb_fail_on;
int kb_command_fail_on(const struct kb_command *c, struct kb_fail_on *f, const char *list);

/*
 * argv's options by c's table (getopt_long): fn(ctx, key, value) for each,
 * which returns KB_GO_ON or an exit code.  --help (-h) prints the usage on
 * stdout and returns 0; an unknown option (with a "did you mean" among
 * the table's), a value given to one that takes none, or a missing value
 * is a usage error.  Leaves the operands in *argc and *argv (argv[0] the first) and
 * returns KB_GO_ON, or else the exit code.
 */
int kb_command_parse(const struct kb_command *c, int *argc, char ***argv,
		     int (*fn)(void *ctx, int key, const char *value), void *ctx);

/* The arguments of `kbench run` and `kbench build` (cmd-run.c), by c's option table
 * (keys KB_LONG('C') --help-config, KB_LONG('r') --resume, KB_LONG('x')
 * --executor): the configuration (or run directory) in *path, --resume in
 * *resume, --executor in *executor (NULL: not given; executor NULL: no such
 * option).  Returns KB_GO_ON, else the exit code (after --help,
 * --help-config or a usage error). */
int kb_run_args(const struct kb_command *c, int argc, char **argv, const char **path, int *resume,
		const char **executor);

#endif

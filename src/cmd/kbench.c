// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench: does a kernel built for size also run faster?  main: find the
 * subcommand in the table (commands.def), run it, and check that what it
 * printed was written (perf's run_builtin). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "util.h"

static void usage(FILE *f)
{
	const struct kb_command *const *cmds;
	size_t n;
	int width = 0;

	fprintf(f, "usage: kbench <command> [options]\n\ncommands:\n");
	cmds = kb_commands(&n);
	for (size_t i = 0; i < n; i++)
		if (!cmds[i]->hidden && (int)strlen(cmds[i]->name) > width)
			width = (int)strlen(cmds[i]->name);
	/* two spaces at least between a name and its summary */
	for (size_t i = 0; i < n; i++)
		if (!cmds[i]->hidden)
			fprintf(f, "  %-*s  %s\n", width, cmds[i]->name, cmds[i]->summary);
	fprintf(f, "\n'kbench <command> --help' for a command's options; man kbench for all\n");
}

/* A command's exit code, or KB_EXIT_FAILED where its output was not
 * written (a full disk, a closed pipe): said once here, for every command. */
static int run(const struct kb_command *c, int argc, char **argv)
{
	int ret = c->fn(argc, argv), err = 0;

	if (fflush(stdout) != 0)
		err = errno;
	else if (ferror(stdout))
		err = EIO;
	else if (fclose(stdout) != 0)
		err = errno;
	if (err) {
		kb_error_errno(err, "%s: cannot write the output", c->name);
		return ret ? ret : KB_EXIT_FAILED;
	}
	return ret;
}

/* An unknown command: the nearest one where one is close, else the list. */
static int unknown(const char *name)
{
	const struct kb_command *const *cmds;
	const char **names;
	size_t n, nn = 0;
	int ret;

	cmds = kb_commands(&n);
	names = kb_xcalloc(n, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		if (!cmds[i]->hidden)
			names[nn++] = cmds[i]->name;
	if (kb_command_closest(name, names, nn)) {
		ret = kb_command_unknown(NULL, "command", name, names, nn);
	} else {
		kb_error("unknown command '%s'", name);
		usage(stderr);
		ret = KB_EXIT_USAGE;
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	const struct kb_command *c;

	/* its own path now, before a rebuild can replace the file (a hybrid's
	 * and an ordered build's compiler wrapper, Slurm's jobs run it) */
	(void)kb_self_path();
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
	c = kb_command_find(argv[1]);
	if (c)
		return run(c, argc - 1, argv + 1);
	return unknown(argv[1]);
}

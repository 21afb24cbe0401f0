// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench hybrid-cc SPEC -- CC ARGS...: the compiler of a hybrid kernel
 * (hybrid.h), run by the kernel's make for every compilation.  An object
 * (-o X.o) that SPEC holds is compiled by the command SPEC/X.o records
 * (variant B's, through /bin/sh as make runs it); anything else runs
 * CC ARGS unchanged (variant A's). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "util.h"

static int cmd_hybrid_cc(int argc, char **argv)
{
	const char *out = NULL;
	char *path, *cmd = NULL;
	int cc = kb_command_parse(&kb_command_hybrid_cc, &argc, &argv, NULL, NULL);

	if (cc != KB_GO_ON)
		return cc;
	if (argc < 3 || strcmp(argv[1], "--"))
		return kb_command_usage_error(&kb_command_hybrid_cc, "SPEC, --, then the compiler's command");
	cc = 2;
	for (int i = cc + 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strncmp(argv[i], "-o", 2) && argv[i][2])
			out = argv[i] + 2;
	}
	if (out && out[0] != '/' && !strstr(out, "..") && strlen(out) > 2 &&
	    !strcmp(out + strlen(out) - 2, ".o")) {
		path = kb_xasprintf("%s/%s", argv[0], out);
		if (access(path, F_OK) == 0 && kb_read_file(path, &cmd, NULL) < 0) {
			kb_error("hybrid-cc: cannot read '%s'", path);
			return KB_EXIT_FAILED;
		}
		free(path);
		if (cmd) {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
			kb_error_errno(errno, "hybrid-cc: cannot run /bin/sh");
			return KB_EXIT_FAILED;
		}
	}
	execvp(argv[cc], argv + cc);
	kb_error_errno(errno, "hybrid-cc: cannot run '%s'", argv[cc]);
	return KB_EXIT_FAILED;
}

const struct kb_command kb_command_hybrid_cc = {
	.name = "hybrid-cc",
	.summary = "the compiler of a hybrid kernel (run by the kernel's make)",
	.usage = "usage: kbench hybrid-cc SPEC -- CC ARGS...\n\n"
		 "Compile as the kernel's make asks, except that an object SPEC holds is\n"
		 "compiled by the command recorded there ([variant] hybrid).\n",
	.fn = cmd_hybrid_cc,
	.hidden = 1,
	.options_first = 1,	/* the compiler's options are its own */
};

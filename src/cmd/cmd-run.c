// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench run VARIANTS.CONF, kbench run --resume RUN_DIR: its arguments (and
 * kbench build's, kb_run_args), then the pipeline (pipeline.c). */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "conf.h"
#include "executor.h"
#include "report.h"
#include "run.h"
#include "util.h"

struct run_args {
	const struct kb_command *c;
	int *resume;
	const char **executor;
};

static int run_option(void *ctx, int key, const char *value)
{
	struct run_args *a = ctx;

	switch (key) {
	case KB_LONG('C'):
		kb_conf_help(stdout);
		return KB_EXIT_OK;
	case KB_LONG('x'):
		if (!kb_executor_find(value))
			return kb_command_usage_error(a->c, "--executor '%s': %s", value, kb_executor_names());
		*a->executor = value;
		break;
	case KB_LONG('r'):
		*a->resume = 1;
		break;
	case KB_LONG('N'):
		kb_report_term_no_color();
		break;
	}
	return KB_GO_ON;
}

int kb_run_args(const struct kb_command *c, int argc, char **argv, const char **path, int *resume,
		const char **executor)
{
	const char *ignored;
	struct run_args a = { c, resume, executor ? executor : &ignored };
	int r;

	*path = NULL;
	*resume = 0;
	*a.executor = NULL;
	r = kb_command_parse(c, &argc, &argv, run_option, &a);
	if (r != KB_GO_ON)
		return r;
	if (argc != 1)
		return kb_command_usage_error(c, "one configuration file%s", *resume ? " or run directory" : "");
	*path = argv[0];
	return KB_GO_ON;
}

static int cmd_run(int argc, char **argv)
{
	const char *path, *executor;
	int resume, r = kb_run_args(&kb_command_run, argc, argv, &path, &resume, &executor);

	return r >= 0 ? r : kb_run_main(path, NULL, resume, executor, NULL);
}

static const struct kb_command_option options[] = {	/* kb_run_args's keys */
	{ "resume", KB_LONG('r'), NULL, "continue a run stopped by SIGINT or killed: finished boots are\n"
	  "kept, an unfinished one runs again (from RUN_DIR/variants.conf,\n"
	  "which must be as the run began)" },
	{ "executor", KB_LONG('x'), "E", "local (builds and boots here) or slurm (each a Slurm job);\n"
	  "overrides [run] executor" },
	{ "help-config", KB_LONG('C'), NULL, "every key of VARIANTS.CONF, with its default, and the backends" },
	{ "no-color", KB_LONG('N'), NULL, "no colour in the verdict table printed at the end (also:\n"
	  "NO_COLOR set)" },
	{ 0 },
};

const struct kb_command kb_command_run = {
	.name = "run",
	.summary = "build, boot and measure every variant, then write the report",
	.usage = "usage: kbench run [--executor local|slurm] [--no-color] [--help-config] VARIANTS.CONF\n"
		 "       kbench run [--executor local|slurm] [--no-color] --resume RUN_DIR\n\n"
		 "Build each variant of VARIANTS.CONF, boot it under QEMU, measure the workloads\n"
		 "in the guest and write a run directory with its report; print the verdict\n"
		 "table and the report's path.\n",
	.options = options,
	.fn = cmd_run,
};

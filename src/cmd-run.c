// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench run VARIANTS.CONF, kbench run --resume RUN_DIR: its arguments, then
 * the pipeline (pipeline.c). */
#include "config.h"

#include "commands.h"
#include "run.h"

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

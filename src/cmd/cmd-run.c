// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench run VARIANTS.CONF, kbench run --resume RUN_DIR: its arguments (and
 * kbench build's, kb_run_args), then the pipeline (pipeline.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "conf.h"
#include "executor.h"
#include "fail-on.h"
#include "report.h"
#include "run.h"
#include "util.h"

/* --fail-on LIST (kbench run's alone: kb_run_args serves build too) */
static struct kb_fail_on fail_on;

/* --set SECTION.KEY=VALUE in order (argv's strings), --dry-run: run's alone too */
static const char **sets;
static struct kb_run_opts run_opts;

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
	case KB_LONG('F'):
		return kb_command_fail_on(a->c, &fail_on, value);
	case KB_LONG('S'):
		/* checked with the file, as the key it sets (kb_conf_load_set) */
		sets = kb_xrealloc(sets, (run_opts.n_sets + 1) * sizeof(*sets));
		sets[run_opts.n_sets++] = value;
		run_opts.sets = sets;
		break;
	case KB_LONG('D'):
		run_opts.dry_run = 1;
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
	char *run_dir = NULL;
	int resume, r = kb_run_args(&kb_command_run, argc, argv, &path, &resume, &executor);

	if (r >= 0)
		return r;
	if (run_opts.dry_run && resume)
		return kb_command_usage_error(&kb_command_run, "--dry-run plans a new run: not with --resume");
	r = kb_run_main_opts(path, NULL, resume, executor, fail_on.n ? &run_dir : NULL, &run_opts);
	free(sets);
	/* the verdicts the report printed, from the same model (as kbench report --fail-on) */
	if (run_dir && !kb_interrupted)
		r = kb_fail_on_dir(&fail_on, run_dir, &(struct kb_model_opts)KB_MODEL_OPTS_INIT, r);
	free(run_dir);
	return r;
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
	{ "fail-on", KB_LONG('F'), "LIST", KB_FAIL_ON_HELP },
	{ "set", KB_LONG('S'), "SECTION.KEY=VALUE", "a key of VARIANTS.CONF as if the file said it, in\n"
	  "place of the file's value (SECTION: kernel, run or\n"
	  "variant.NAME; [claim] cannot be set), checked as the file\n"
	  "is; repeatable, each key once; recorded in the manifest;\n"
	  "--resume takes the run's own, and refuses other ones" },
	{ "dry-run", KB_LONG('D'), NULL, "print the plan and exit: each variant's kernel cached or\n"
	  "to build, the boots, the time earlier runs in the output\n"
	  "directory took; builds, boots and writes nothing" },
	{ 0 },
};

const struct kb_command kb_command_run = {
	.name = "run",
	.summary = "build, boot and measure every variant, then write the report",
	.usage = "usage: kbench run [--executor local|slurm] [--no-color] [--help-config]\n"
		 "                  [--set SECTION.KEY=VALUE]... [--dry-run] VARIANTS.CONF\n"
		 "       kbench run [--executor local|slurm] [--no-color] [--set SECTION.KEY=VALUE]...\n"
		 "                  --resume RUN_DIR\n\n"
		 "Build each variant of VARIANTS.CONF, boot it under QEMU, measure the workloads\n"
		 "in the guest and write a run directory with its report; print the verdict\n"
		 "table and the report's path.\n",
	.options = options,
	.fn = cmd_run,
};

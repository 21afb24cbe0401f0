// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench report [--confidence LEVEL] [--no-color] RUN_DIR: every file of the
 * report of a run directory written again from its files, then the verdict
 * table (report-term.c) and the report's path. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "fail-on.h"
#include "report.h"
#include "util.h"

struct args {
	struct kb_model_opts o;
	struct kb_fail_on fail_on;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;

	if (key == KB_LONG('N'))
		kb_report_term_no_color();
	else if (key == KB_LONG('F'))
		return kb_command_fail_on(&kb_command_report, &a->fail_on, value);
	else if (kb_report_parse_confidence(value, &a->o) < 0)
		return kb_command_usage(&kb_command_report, KB_EXIT_USAGE);
	return KB_GO_ON;
}

static int cmd_report(int argc, char **argv)
{
	struct args a = { .o = KB_MODEL_OPTS_INIT };
	int r = kb_command_parse(&kb_command_report, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 1)
		return kb_command_usage_error(&kb_command_report, "one run directory, RUN_DIR");
	if (kb_report_write_term(argv[0], &a.o, stdout) < 0)
		return KB_EXIT_FAILED;
	/* the verdicts just printed, as kbench run --fail-on reads them */
	return a.fail_on.n ? kb_fail_on_dir(&a.fail_on, argv[0], &a.o, KB_EXIT_OK) : KB_EXIT_OK;
}

static const struct kb_command_option options[] = {
	{ "confidence", KB_LONG('c'), "LEVEL", "confidence of the intervals, and 1 - LEVEL for the verdicts\n"
	  "(default 0.95)" },
	{ "no-color", KB_LONG('N'), NULL, "no colour in the verdict table (also: NO_COLOR set)" },
	{ "fail-on", KB_LONG('F'), "LIST", KB_FAIL_ON_HELP },
	{ 0 },
};

const struct kb_command kb_command_report = {
	.name = "report",
	.summary = "write the report of a run directory again",
	.usage = "usage: kbench report [--confidence LEVEL] [--no-color] [--fail-on LIST] RUN_DIR\n\n"
		 "Write report.md, report.html, summary.json and summary.csv of RUN_DIR again\n"
		 "from its files, then print the verdict table and the report's path.\n",
	.options = options,
	.fn = cmd_report,
};

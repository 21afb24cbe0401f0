// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench report [--confidence LEVEL] RUN_DIR: every file of the report of a
 * run directory written again from its files. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "report.h"
#include "util.h"

int kb_report_option(const struct kb_command *cmd, int c, char **argv, struct kb_model_opts *o)
{
	switch (c) {
	case 'c':
		return kb_report_parse_confidence(optarg, o) < 0 ? KB_EXIT_USAGE : -1;
	case 'h':
		return kb_command_usage(cmd, KB_EXIT_OK);
	case ':':
		kb_error("%s: option '%s' needs a value", cmd->name, argv[optind - 1]);
		break;
	default:
		if (optopt)
			kb_error("%s: unknown option '-%c'", cmd->name, optopt);
		else
			kb_error("%s: unknown option '%s'", cmd->name, argv[optind - 1]);
	}
	return kb_command_usage(cmd, KB_EXIT_USAGE);
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	const char *dir;
	int c;

	optind = 0;	/* a fresh scan, whoever parsed before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		int r = kb_report_option(&kb_command_report, c, argv, &o);

		if (r >= 0)
			return r;
	}
	if (argc - optind != 1) {
		kb_error("report: one run directory, RUN_DIR");
		return kb_command_usage(&kb_command_report, KB_EXIT_USAGE);
	}
	dir = argv[optind];
	if (kb_report_write_opts(dir, &o) < 0)
		return KB_EXIT_FAILED;
	printf("%s/report.md\n", dir);
	return KB_EXIT_OK;
}

const struct kb_command kb_command_report = {
	.name = "report",
	.summary = "write the report of a run directory again",
	.usage = "usage: kbench report [--confidence LEVEL] RUN_DIR\n\n"
		 "Write report.md, report.html, summary.json and summary.csv of RUN_DIR again\n"
		 "from its files.\n\n"
		 "  --confidence LEVEL  confidence of the intervals, and 1 - LEVEL for the verdicts\n"
		 "                      (default 0.95)\n",
	.fn = cmd_report,
};

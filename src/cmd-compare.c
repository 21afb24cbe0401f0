// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench compare [--force] [--json] [--confidence LEVEL] RUN_A RUN_B: B
 * against A (compare.h); runs that measured different things are refused
 * with the reasons unless --force. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "report.h"
#include "util.h"

static int run(const char *dir_a, const char *dir_b, int force, int as_json, const struct kb_model_opts *o)
{
	struct kb_model *a = kb_model_load(dir_a, o), *b = a ? kb_model_load(dir_b, o) : NULL;
	struct kb_compare c;
	int ret = KB_EXIT_FAILED;

	if (!a || !b)
		goto out;
	kb_compare_init(&c, a, b, dir_a, dir_b, o);
	if (*c.not_comparable && !force) {
		kb_error("'%s' and '%s' are not comparable (--force compares them anyway):", dir_a, dir_b);
		fputs(c.not_comparable, stderr);
	} else {
		for (const char *p = c.not_comparable; *p; ) {
			size_t len = strcspn(p, "\n");

			kb_warn("forced: %.*s", (int)len, p);
			p += len + (p[len] == '\n');
		}
		if (as_json) {
			json_t *j = kb_compare_json(&c);

			json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			putchar('\n');
			json_decref(j);
		} else {
			kb_compare_md(stdout, &c);
		}
		ret = fflush(stdout) == 0 ? KB_EXIT_OK : KB_EXIT_FAILED;
	}
	kb_compare_release(&c);
out:
	kb_model_free(a);
	kb_model_free(b);
	return ret;
}

static int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_model_opts o = KB_MODEL_OPTS_INIT;
	int force = 0, as_json = 0, c, r;

	optind = 0;	/* a fresh scan, whoever parsed before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			force = 1;
			break;
		case 'j':
			as_json = 1;
			break;
		default:
			r = kb_report_option(&kb_command_compare, c, argv, &o);
			if (r >= 0)
				return r;
		}
	}
	if (argc - optind != 2) {
		kb_error("compare: two run directories, RUN_A and RUN_B");
		return kb_command_usage(&kb_command_compare, KB_EXIT_USAGE);
	}
	return run(argv[optind], argv[optind + 1], force, as_json, &o);
}

const struct kb_command kb_command_compare = {
	.name = "compare",
	.summary = "compare two runs of the same variants (B against A)",
	.usage = "usage: kbench compare [--force] [--json] [--confidence LEVEL] RUN_A RUN_B\n\n"
		 "B against A: every variant both runs have, per case and metric.\n\n"
		 "  --force             compare runs that measured different things\n"
		 "  --json              print the comparison as JSON instead of markdown\n"
		 "  --confidence LEVEL  confidence of the intervals (default 0.95)\n",
	.fn = cmd_compare,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench compare [--force] [--json] [--confidence LEVEL] [--no-color]
 * [--fail-on LIST] RUN_A RUN_B: B against A (compare.h), then the verdict
 * table (report-term.c); runs that measured different things are refused
 * with the reasons unless --force; --fail-on (fail-on.h) after the output. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "fail-on.h"
#include "report.h"
#include "util.h"

/* The terminal's table (report-term.c) after the markdown: B against A on
 * B's primary metric, each variant's text B against its text in A. */
static void term_table(const struct kb_compare *c)
{
	const struct kb_model *a = c->a, *b = c->b;
	struct kb_term_row *rows = kb_xcalloc(c->n ? c->n : 1, sizeof(*rows));
	size_t n = 0;
	char *title;

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_compare_row *r = &c->rows[i];
		const struct kb_model_variant *va = &a->variants[r->a->variant], *vb = &b->variants[r->b->variant];

		if (r->mb != b || r->b->metric != b->primary)
			continue;
		rows[n++] = (struct kb_term_row){ b->cases[r->b->cas], vb->name,
						 va->has_size && vb->has_size && va->text > 0 ?
						 (double)vb->text / (double)va->text - 1 : NAN, &r->t, NULL };
	}
	title = kb_xasprintf("%s (%s) and text, B against A, ratio [the verdict's interval]:",
			     b->nm ? b->metrics[b->primary].unit : "",
			     b->nm ? kb_figure_kind_name(b->metrics[b->primary].source) : "");
	putchar('\n');
	kb_report_term_table(stdout, title, rows, n, kb_report_term_color(stdout));
	free(title);
	free(rows);
}

static int run(const char *dir_a, const char *dir_b, int force, int as_json, const struct kb_model_opts *o,
	       const struct kb_fail_on *fail_on)
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
			term_table(&c);
		}
		/* after the output, which goes first (the lines are on stderr) */
		fflush(stdout);
		ret = kb_fail_on_compare(fail_on, &c) ? KB_EXIT_VERDICT : KB_EXIT_OK;
	}
	kb_compare_release(&c);
out:
	kb_model_free(a);
	kb_model_free(b);
	return ret;
}

struct args {
	int force, as_json;
	struct kb_model_opts o;
	struct kb_fail_on fail_on;
};

static int option(void *ctx, int key, const char *value)
{
	struct args *a = ctx;

	switch (key) {
	case KB_LONG('f'):
		a->force = 1;
		break;
	case KB_LONG('j'):
		a->as_json = 1;
		break;
	case KB_LONG('N'):
		kb_report_term_no_color();
		break;
	case KB_LONG('c'):
		if (kb_report_parse_confidence(value, &a->o) < 0)
			return kb_command_usage(&kb_command_compare, KB_EXIT_USAGE);
		break;
	case KB_LONG('F'):
		return kb_command_fail_on(&kb_command_compare, &a->fail_on, value);
	}
	return KB_GO_ON;
}

static int cmd_compare(int argc, char **argv)
{
	struct args a = { .o = KB_MODEL_OPTS_INIT };
	int r = kb_command_parse(&kb_command_compare, &argc, &argv, option, &a);

	if (r != KB_GO_ON)
		return r;
	if (argc != 2)
		return kb_command_usage_error(&kb_command_compare, "two run directories, RUN_A and RUN_B");
	return run(argv[0], argv[1], a.force, a.as_json, &a.o, &a.fail_on);
}

static const struct kb_command_option options[] = {
	{ "force", KB_LONG('f'), NULL, "compare runs that measured different things" },
	{ "json", KB_LONG('j'), NULL, "print the comparison as JSON instead of markdown" },
	{ "confidence", KB_LONG('c'), "LEVEL", "confidence of the intervals (default 0.95)" },
	{ "no-color", KB_LONG('N'), NULL, "no colour in the verdict table (also: NO_COLOR set)" },
	{ "fail-on", KB_LONG('F'), "LIST", KB_FAIL_ON_HELP },
	{ 0 },
};

const struct kb_command kb_command_compare = {
	.name = "compare",
	.summary = "compare two runs of the same variants (B against A)",
	.usage = "usage: kbench compare [--force] [--json] [--confidence LEVEL] [--no-color]\n"
		 "                      [--fail-on LIST] RUN_A RUN_B\n\n"
		 "B against A: every variant both runs have, per case and metric, as markdown;\n"
		 "then the verdict table of the primary metric.  With --json, one JSON document\n"
		 "instead (format \"kbench-compare-1\", results/README.md).\n",
	.options = options,
	.fn = cmd_compare,
};

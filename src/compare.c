// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench compare RUN_A RUN_B: the same variants measured twice (two hosts,
 * two compilers, two days), with the same tests as within a run: B against
 * A per variant, case and metric.  Runs that did not measure the same thing
 * are refused unless --force, with the reasons. */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "stats.h"
#include "summary.h"
#include "util.h"

#define str kb_report_str
#define cell kb_report_md_cell

/* A manifest field by path ("run.scale"), as text for messages. */
static char *field(json_t *m, const char *path)
{
	char *p = kb_xstrdup(path), *save = NULL, *s;
	json_t *v = m;

	for (char *k = strtok_r(p, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
		v = json_object_get(v, k);
	free(p);
	if (!v)
		return kb_xstrdup("(none)");
	if (json_is_string(v))
		return kb_xstrdup(json_string_value(v));
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
	return s ? s : kb_xstrdup("?");
}

static const struct {
	const char *path, *what;
} must_match[] = {
	{ "kernel.id", "kernel source" },
	{ "run.workloads", "workloads" },
	{ "run.scale", "workload scale" },
	{ "backend", "measurement backend" },
};

/* Reasons the runs are not comparable, one per line; "" if none. */
static char *incomparable(json_t *a, json_t *b)
{
	char *why = kb_xstrdup("");

	for (size_t i = 0; i < KB_ARRAY_SIZE(must_match) + 1; i++) {
		const char *path = i < KB_ARRAY_SIZE(must_match) ? must_match[i].path : "accel.chosen";
		const char *what = i < KB_ARRAY_SIZE(must_match) ? must_match[i].what : "accelerator";
		char *x = field(a, path), *y = field(b, path), *n;

		/* Time under TCG and under KVM are different quantities. */
		if (i == KB_ARRAY_SIZE(must_match) && strcmp(str(a, "backend"), "clock"))
			*x = *y = '\0';
		if (strcmp(x, y)) {
			n = kb_xasprintf("%s%s differs: '%s' in A, '%s' in B\n", why, what, x, y);
			free(why);
			why = n;
		}
		free(x);
		free(y);
	}
	return why;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: kbench compare [--force] [--json] [--confidence LEVEL] RUN_A RUN_B\n"
		"  B against A: every variant both runs have, per case and metric\n"
		"  --force       compare runs that measured different things\n"
		"  --json        print the comparison as JSON instead of markdown\n");
}

static void print_md(json_t *rows, json_t *ma, json_t *mb, const char *a, const char *b,
		     const char *why, const struct kb_summary_opts *o)
{
	json_t *r;
	size_t i;

	printf("# kbench compare\n\nA: `");
	cell(stdout, a);
	printf("` (run %s), B: `", str(ma, "run_id"));
	cell(stdout, b);
	printf("` (run %s). Per variant, case and metric: B against A, two-sided Mann-Whitney U "
	       "test of per-boot medians, Holm-Bonferroni corrected over the cases, at %.0f%% "
	       "confidence; ratio B/A of the medians over boots with a %.0f%% percentile bootstrap "
	       "interval.\n\n", str(mb, "run_id"), 100 * o->level, 100 * o->level);
	if (*why) {
		printf("**Forced: the runs are not comparable:**\n\n");
		for (const char *p = why; *p; ) {
			size_t l = strcspn(p, "\n");

			printf("- %.*s\n", (int)l, p);
			p += l + (p[l] == '\n');
		}
		printf("\n");
	}
	printf("| case | variant | metric | median A | median B | B/A [%.0f%% CI] | p (Holm) | "
	       "Cliff's delta | B is |\n|---|---|---|---:|---:|---:|---:|---:|---|\n", 100 * o->level);
	json_array_foreach(rows, i, r) {
		printf("| ");
		cell(stdout, str(r, "case"));
		printf(" | ");
		cell(stdout, str(r, "variant"));
		printf(" | %s | ", str(r, "unit"));
		kb_report_fig(stdout, kb_summary_num(r, "median_a"));
		printf(" | ");
		kb_report_fig(stdout, kb_summary_num(r, "median_b"));
		printf(" | ");
		kb_report_ratio_ci(stdout, r);
		printf(" | ");
		kb_report_p(stdout, kb_summary_num(r, "p_holm"));
		printf(" | ");
		kb_report_delta(stdout, kb_summary_num(r, "cliffs_delta"));
		printf(" | %s |\n", str(r, "verdict"));
	}
	if (!json_array_size(rows))
		printf("| | | | | | | | | no variant, case and metric in common |\n");
}

/* Rows of B's results against A's, tested and Holm-corrected as one
 * family per metric and variant. */
static json_t *compare_models(json_t *ma, json_t *mb, json_t *const *man, gsl_rng *rng,
			      const struct kb_summary_opts *o)
{
	json_t *rows = json_array(), *r;
	size_t i;

	json_array_foreach(json_object_get(mb, "results"), i, r) {
		json_t *a = kb_summary_find(ma, str(r, "case"), str(r, "metric"), str(r, "variant"));
		json_t *row;
		double *x, *y;
		size_t nx, ny;

		if (!a || !json_integer_value(json_object_get(a, "boots")) ||
		    !json_integer_value(json_object_get(r, "boots")))
			continue;
		row = json_pack("{s:s,s:s,s:s,s:s,s:O,s:O,s:O,s:O}", "case", str(r, "case"),
				"metric", str(r, "metric"), "variant", str(r, "variant"), "unit",
				str(kb_summary_metric(mb, str(r, "metric")), "unit"),
				"median_a", json_object_get(a, "median"), "median_b", json_object_get(r, "median"),
				"boot_medians_a", json_object_get(a, "boot_medians"),
				"boot_medians_b", json_object_get(r, "boot_medians"));
		json_object_set_new(row, "deterministic",
				    json_boolean(json_is_true(json_object_get(a, "deterministic")) &&
						 json_is_true(json_object_get(r, "deterministic"))));
		x = kb_summary_array(json_object_get(r, "boot_medians"), &nx);
		y = kb_summary_array(json_object_get(a, "boot_medians"), &ny);
		gsl_rng_set(rng, kb_stats_seed((unsigned long long)json_integer_value(json_object_get(man[0], "seed")) ^
					       (unsigned long long)json_integer_value(json_object_get(man[1], "seed")),
					       str(r, "case"), str(r, "metric"), str(r, "variant")));
		kb_summary_versus(row, x, nx, y, ny, rng, o);
		free(x);
		free(y);
		json_array_append_new(rows, row);
	}
	kb_summary_decide(rows, o);
	return rows;
}

int kb_cmd_compare(int argc, char **argv)
{
	struct kb_summary_opts o = KB_SUMMARY_OPTS_INIT;
	const char *dir[2] = { NULL, NULL };
	json_t *model[2] = { NULL, NULL }, *rows = NULL, *man[2] = { NULL, NULL };
	int force = 0, as_json = 0, ndir = 0, ret = KB_EXIT_FAILED;
	gsl_rng *rng = NULL;
	char *why = NULL;

	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--force")) {
			force = 1;
		} else if (!strcmp(argv[k], "--json")) {
			as_json = 1;
		} else if (!strcmp(argv[k], "--confidence") && k + 1 < argc) {
			if (kb_report_parse_confidence(argv[++k], &o) < 0)
				return KB_EXIT_USAGE;
		} else if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
			usage(stdout);
			return KB_EXIT_OK;
		} else if (argv[k][0] == '-' || ndir == 2) {
			usage(stderr);
			return KB_EXIT_USAGE;
		} else {
			dir[ndir++] = argv[k];
		}
	}
	if (ndir != 2) {
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	for (int k = 0; k < 2; k++) {
		char *mp = kb_xasprintf("%s/manifest.json", dir[k]);
		json_error_t jerr;

		man[k] = json_load_file(mp, 0, &jerr);
		if (!json_is_object(man[k]))
			kb_error("%s:%d: %s", mp, jerr.line, man[k] ? "not a JSON object" : jerr.text);
		free(mp);
		if (!json_is_object(man[k]))
			goto out;
		model[k] = kb_summary_load(dir[k], &o, NULL);
		if (!model[k])
			goto out;
	}
	why = incomparable(man[0], man[1]);
	if (*why && !force) {
		kb_error("'%s' and '%s' are not comparable (--force compares them anyway):", dir[0], dir[1]);
		fprintf(stderr, "%s", why);
		goto out;
	}
	for (const char *p = why; *p; p += strcspn(p, "\n") + 1) {
		int len = (int)strcspn(p, "\n");

		kb_warn("forced: %.*s", len, p);
	}

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	rows = compare_models(model[0], model[1], man, rng, &o);
	/* whole boots (hyperfine): their own family, as in the report */
	{
		json_t *boot = compare_models(json_object_get(model[0], "boot_timing"),
					      json_object_get(model[1], "boot_timing"), man, rng, &o);

		json_array_extend(rows, boot);
		json_decref(boot);
	}
	if (as_json) {
		json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:f,s:b,s:O}", "a", dir[0], "b", dir[1],
				      "run_a", str(man[0], "run_id"), "run_b", str(man[1], "run_id"),
				      "confidence", o.level, "forced", *why != '\0', "rows", rows);

		json_object_set_new(j, "not_comparable", json_string(why));
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(j);
	} else {
		print_md(rows, man[0], man[1], dir[0], dir[1], why, &o);
	}
	ret = KB_EXIT_OK;
out:
	if (rng)
		gsl_rng_free(rng);
	free(why);
	json_decref(rows);
	for (int k = 0; k < 2; k++) {
		json_decref(model[k]);
		json_decref(man[k]);
	}
	return ret;
}

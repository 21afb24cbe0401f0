// SPDX-License-Identifier: GPL-2.0-or-later
/* report.md from what the run directory holds: the report can always be
 * written again (kbench report RUN_DIR) and never depends on memory. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bloat.h"
#include "commands.h"
#include "report.h"
#include "size.h"
#include "store.h"
#include "summary.h"
#include "util.h"

#define str kb_report_str
#define cell kb_report_md_cell

const char *kb_report_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* Markdown table cells come from the config and the guest: keep them inert. */
void kb_report_md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\`*_<>[]", *s))
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

void kb_report_html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fputc(*s, f);
			else if (*s == '\n' || *s == '\t')
				fputc(' ', f);
		}
	}
}

void kb_report_delta(FILE *f, double d)
{
	if (isfinite(d))
		fprintf(f, "%+.2f", d);
	else
		fputs("n/a", f);
}

void kb_report_pct(FILE *f, double fraction)
{
	if (isfinite(fraction))
		fprintf(f, "%+.1f%%", 100 * fraction);
	else
		fputs("n/a", f);
}

void kb_report_fig(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("n/a", f);
	else if (fabs(v) >= 100)
		fprintf(f, "%.1f", v);
	else
		fprintf(f, "%.4g", v);
}

static void size_section(FILE *f, json_t *variants, const char *baseline)
{
	json_t *v, *base = NULL;
	size_t i;

	fprintf(f, "## Text size\n\n");
	fprintf(f, "Berkeley format, as binutils `size` prints it (run directory relative paths):\n\n```\n");
	kb_size_print_header(f);
	json_array_foreach(variants, i, v) {
		json_t *sz = json_object_get(v, "size");
		struct kb_size s;
		char *name;

		if (!json_is_object(sz))
			continue;
		s.text = (unsigned long long)json_integer_value(json_object_get(sz, "text"));
		s.data = (unsigned long long)json_integer_value(json_object_get(sz, "data"));
		s.bss = (unsigned long long)json_integer_value(json_object_get(sz, "bss"));
		/* Inside a code fence: as size prints it, but never a fence of its own. */
		name = kb_xstrdup(str(v, "vmlinux"));
		for (char *p = name; *p; p++)
			if (*p == '`' || (unsigned char)*p < 0x20)
				*p = '?';
		kb_size_print_row(f, &s, name);
		free(name);
		if (!strcmp(str(v, "name"), baseline))
			base = sz;
	}
	fprintf(f, "```\n\n");
	if (!base)
		return;
	fprintf(f, "| variant | text | change vs %s | flags |\n|---|---:|---:|---|\n", baseline);
	json_array_foreach(variants, i, v) {
		json_t *sz = json_object_get(v, "size");
		long long t, bt = json_integer_value(json_object_get(base, "text"));

		if (!json_is_object(sz))
			continue;
		t = json_integer_value(json_object_get(sz, "text"));
		fprintf(f, "| ");
		cell(f, str(v, "name"));
		fprintf(f, " | %lld | %+lld (%+.1f%%) | ", t, t - bt, bt ? 100.0 * (double)(t - bt) / (double)bt : 0.0);
		cell(f, str(v, "flags"));
		fprintf(f, " |\n");
	}
	fprintf(f, "\n");
}

static const char *vname_of(json_t *r)
{
	return str(r, "variant");
}

/* "0.82 [0.79, 0.86]": a ratio with its interval. */
void kb_report_ratio_ci(FILE *f, json_t *r)
{
	json_t *ci = json_object_get(r, "ratio_ci");
	double x = kb_summary_num(r, "ratio");

	if (!isfinite(x)) {
		fputs("n/a", f);
		return;
	}
	fprintf(f, "%.3f", x);
	if (json_is_number(json_array_get(ci, 0)))
		fprintf(f, " [%.3f, %.3f]", json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)));
}

void kb_report_p(FILE *f, double p)
{
	if (!isfinite(p))
		fputs("n/a", f);
	else if (p < 0.001)
		fprintf(f, "%.1e", p);
	else
		fprintf(f, "%.3f", p);
}

static void metric_source(FILE *f, json_t *metric)
{
	fprintf(f, "%s", str(metric, "source"));
	if (*str(metric, "note")) {
		fputs(": ", f);
		cell(f, str(metric, "note"));
	}
}

json_t *kb_report_variant(json_t *model, const char *name)
{
	return kb_summary_lookup(json_object_get(model, "variants"), "name", name);
}

/* Inline text of the claim paragraph, as markdown or as HTML. */
static void text_in(FILE *f, const char *s, int html)
{
	if (html)
		kb_report_html_text(f, s);
	else
		cell(f, s);
}

static void code_in(FILE *f, const char *s, int html)
{
	fputs(html ? "<code>" : "`", f);
	text_in(f, s, html);
	fputs(html ? "</code>" : "`", f);
}

static void strong_in(FILE *f, const char *s, int html)
{
	fprintf(f, html ? "<strong>%s</strong>" : "**%s**", s);
}

/* The whole-boot figure of a variant, after its claim: said apart, being
 * another kind of figure (one boot, not one operation). */
static void boot_claim(FILE *f, json_t *model, const char *variant, int html)
{
	json_t *bt = json_object_get(model, "boot_timing");
	json_t *r = kb_summary_find(bt, "boot", "ns_per_op", variant);
	json_t *b = kb_summary_find(bt, "boot", "ns_per_op", str(model, "baseline"));

	if (!r || !b || !json_integer_value(json_object_get(r, "boots")) ||
	    !json_integer_value(json_object_get(b, "boots")))
		return;
	fputs(" Whole boot, QEMU start to guest exit, timed by hyperfine (", f);
	text_in(f, str(kb_summary_metric(bt, "ns_per_op"), "note"), html);
	fprintf(f, "): %.3f s against %.3f s, ratio ", kb_summary_num(r, "median") / 1e9,
		kb_summary_num(b, "median") / 1e9);
	kb_report_ratio_ci(f, r);
	fputs(", p = ", f);
	kb_report_p(f, kb_summary_num(r, "p"));
	fprintf(f, ": %s.", str(r, "verdict"));
}

void kb_report_claim(FILE *f, json_t *model, json_t *c, int html)
{
	json_t *v = kb_report_variant(model, str(c, "variant")), *b = kb_report_variant(model, str(model, "baseline"));
	json_t *metric = kb_summary_metric(model, str(model, "primary_metric"));
	double tc = kb_summary_num(c, "text_change");
	long long fa = json_integer_value(json_object_get(c, "faster"));
	long long sl = json_integer_value(json_object_get(c, "slower"));
	long long sa = json_integer_value(json_object_get(c, "same"));
	long long un = json_integer_value(json_object_get(c, "undecided"));
	long long n = fa + sl + sa + un;

	code_in(f, str(c, "variant"), html);
	if (tc == 0)
		fputs(" has the same text size as ", f);
	else if (isfinite(tc))
		fprintf(f, " has %.1f%% %s text than ", fabs(100 * tc), tc < 0 ? "less" : "more");
	else
		fputs(" has no size measurement to set against ", f);
	code_in(f, str(model, "baseline"), html);
	if (isfinite(tc) && tc != 0)
		fprintf(f, " (%.0f vs %.0f bytes)", kb_summary_num(v, "text"), kb_summary_num(b, "text"));
	fprintf(f, ". On %s (%s", str(metric, "label"), str(metric, "source"));
	if (*str(metric, "note")) {
		fputs(", ", f);
		text_in(f, str(metric, "note"), html);
	}
	fprintf(f, "), at %.0f%% confidence, it is faster in %lld of %lld cases, slower in %lld",
		100 * kb_summary_num(model, "confidence"), fa, n, sl);
	if (sa)
		fprintf(f, ", the same in %lld (identical deterministic counts)", sa);
	fprintf(f, " and not distinguishable in %lld. ", un);
	if (!n)
		fputs("It has no measurement to judge.", f);
	else if (!isfinite(tc) || tc == 0)
		fputs("Its size does not differ, so it says nothing on the claim.", f);
	else if (fa == n)
		strong_in(f, tc < 0 ? "Yes: this smaller kernel is also faster in every case."
				    : "This larger kernel is faster in every case: smaller is not faster here.", html);
	else if (sl == n)
		strong_in(f, tc < 0 ? "No: this smaller kernel is slower in every case."
				    : "This larger kernel is slower in every case: smaller is faster here.", html);
	else if (un + sa == n)
		strong_in(f, "Not distinguishable: the measurements do not tell the two apart.", html);
	else
		strong_in(f, "Mixed: it depends on the case.", html);
	boot_claim(f, model, str(c, "variant"), html);
}

/* A model's caveats as a markdown list after heading; nothing without any. */
static void caveat_list(FILE *f, json_t *caveats, const char *heading)
{
	json_t *c;
	size_t i;

	if (!json_array_size(caveats))
		return;
	fputs(heading, f);
	json_array_foreach(caveats, i, c) {
		fputs("- ", f);
		cell(f, json_string_value(c));
		fputs("\n", f);
	}
	fputs("\n", f);
}

static void verdict_section(FILE *f, json_t *model)
{
	const char *primary = str(model, "primary_metric"), *baseline = str(model, "baseline");
	json_t *metric = kb_summary_metric(model, primary), *c, *r;
	size_t i, k, families = json_array_size(json_object_get(model, "cases"));

	fprintf(f, "## Is the smaller kernel also faster?\n\n");
	json_array_foreach(json_object_get(model, "claim"), i, c) {
		kb_report_claim(f, model, c, 0);
		fputs("\n\n", f);
	}
	if (!json_array_size(json_object_get(model, "claim")))
		fprintf(f, "Only one variant: nothing to compare.\n\n");
	fprintf(f, "Verdicts: two-sided Mann-Whitney U test of the per-boot medians against `");
	cell(f, baseline);
	fprintf(f, "` (the boot is the unit of replication), Holm-Bonferroni corrected over the %zu "
		"cases, at %.0f%% confidence; ratios are medians over boots with %.0f%% percentile "
		"bootstrap intervals (%lld resamples, seed %lld); Cliff's delta is the effect size "
		"(negative: fewer %s).\n\n", families, 100 * kb_summary_num(model, "confidence"),
		100 * kb_summary_num(model, "confidence"),
		(long long)json_integer_value(json_object_get(model, "resamples")),
		(long long)json_integer_value(json_object_get(model, "seed")), str(metric, "unit"));
	fprintf(f, "| case | variant | text vs %s | %s vs %s [%.0f%% CI] | p (Holm) | Cliff's delta | "
		"verdict | size figure | speed figure |\n|---|---|---:|---:|---:|---:|---|---|---|\n",
		baseline, str(metric, "unit"), baseline, 100 * kb_summary_num(model, "confidence"));
	json_array_foreach(json_object_get(model, "cases"), i, c)
		json_array_foreach(json_object_get(model, "results"), k, r) {
			if (strcmp(str(r, "metric"), primary) || strcmp(str(r, "case"), json_string_value(c)) ||
			    !strcmp(vname_of(r), baseline))
				continue;
			fputs("| ", f);
			cell(f, json_string_value(c));
			fputs(" | ", f);
			cell(f, vname_of(r));
			fputs(" | ", f);
			kb_report_pct(f, kb_summary_num(kb_report_variant(model, vname_of(r)), "text_change"));
			fputs(" | ", f);
			kb_report_ratio_ci(f, r);
			fputs(" | ", f);
			if (json_is_true(json_object_get(r, "deterministic")) &&
			    json_is_true(json_object_get(r, "identical_counts")))
				fputs("deterministic", f);
			else
				kb_report_p(f, kb_summary_num(r, "p_holm"));
			fputs(" | ", f);
			kb_report_delta(f, kb_summary_num(r, "cliffs_delta"));
			if (*str(r, "effect"))
				fprintf(f, " (%s)", str(r, "effect"));
			fprintf(f, " | %s | measured (ELF section headers, as binutils size) | ",
				*str(r, "verdict") ? str(r, "verdict") : "no data");
			metric_source(f, metric);
			fputs(" |\n", f);
		}
	fputs("\n", f);
	caveat_list(f, json_object_get(model, "caveats"), "Caveats:\n\n");
}

json_t *kb_report_timing(json_t *bt, const char *variant)
{
	return kb_summary_lookup(json_object_get(bt, "timing"), "variant", variant);
}

void kb_report_seconds_ci(FILE *f, json_t *r)
{
	json_t *ci = json_object_get(r, "ci");

	fprintf(f, "%.3f", kb_summary_num(r, "median") / 1e9);
	if (json_is_number(json_array_get(ci, 0)))
		fprintf(f, " [%.3f, %.3f]", json_number_value(json_array_get(ci, 0)) / 1e9,
			json_number_value(json_array_get(ci, 1)) / 1e9);
}

/* Whole boots timed by hyperfine: their own model (summary.c), their own
 * table, never mixed into the per-operation verdicts. */
static void boot_section(FILE *f, json_t *model)
{
	json_t *bt = json_object_get(model, "boot_timing"), *metric, *r;
	const char *baseline = str(model, "baseline");
	size_t i;

	if (!bt)
		return;
	metric = kb_summary_metric(bt, "ns_per_op");
	fprintf(f, "## Whole boot (hyperfine)\n\nhyperfine timed whole boots of each variant: "
		"`kbench boot-check`, QEMU start to guest exit, the guest runner doing no workload; a "
		"boot counts only when the guest said done. Figure: %s, %s. Each timed boot is one replicate: "
		"median with a %.0f%% bootstrap interval, ratio to `", metric ? str(metric, "source") : "measured",
		metric ? str(metric, "note") : "no boot was timed", 100 * kb_summary_num(model, "confidence"));
	cell(f, baseline);
	fprintf(f, "` with its interval, two-sided exact Mann-Whitney U (one test: no correction), "
		"Cliff's delta. hyperfine runs one variant's boots back to back (warm-up first), the "
		"variants in a seeded shuffled order.\n\n");
	fprintf(f, "| variant | text vs %s | boots timed | failed | median s [%.0f%% CI] | vs %s "
		"[%.0f%% CI] | p | Cliff's delta | verdict | outlier boots |\n"
		"|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n",
		baseline, 100 * kb_summary_num(model, "confidence"), baseline,
		100 * kb_summary_num(model, "confidence"));
	json_array_foreach(json_object_get(bt, "results"), i, r) {
		json_t *t = kb_report_timing(bt, vname_of(r));

		fputs("| ", f);
		cell(f, vname_of(r));
		fputs(" | ", f);
		kb_report_pct(f, kb_summary_num(kb_report_variant(model, vname_of(r)), "text_change"));
		fprintf(f, " | %lld | %lld | ", (long long)json_integer_value(json_object_get(r, "boots")),
			(long long)json_integer_value(json_object_get(t, "failed")));
		if (json_integer_value(json_object_get(r, "boots")))
			kb_report_seconds_ci(f, r);
		fputs(" | ", f);
		if (strcmp(vname_of(r), baseline))
			kb_report_ratio_ci(f, r);
		fputs(" | ", f);
		if (json_object_get(r, "p"))
			kb_report_p(f, kb_summary_num(r, "p"));
		fputs(" | ", f);
		if (json_object_get(r, "cliffs_delta"))
			kb_report_delta(f, kb_summary_num(r, "cliffs_delta"));
		fprintf(f, " | %s | %zu |\n", str(r, "verdict"),
			json_array_size(json_object_get(r, "outlier_boots")));
	}
	fputs("\n", f);
	caveat_list(f, json_object_get(bt, "caveats"), "");
}

static void interval_cell(FILE *f, json_t *ci, int ratio)
{
	if (!json_is_number(json_array_get(ci, 0))) {
		fputs("n/a", f);
		return;
	}
	fputs("[", f);
	if (ratio)
		fprintf(f, "%.3f, %.3f", json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)));
	else {
		kb_report_fig(f, json_number_value(json_array_get(ci, 0)));
		fputs(", ", f);
		kb_report_fig(f, json_number_value(json_array_get(ci, 1)));
	}
	fputs("]", f);
}

/* One table row: the columns of the first report, then the statistics. */
static void metric_row(FILE *f, json_t *model, json_t *r, const char *status)
{
	long long nb = json_integer_value(json_object_get(r, "boots"));
	json_t *o;
	size_t i;

	fputs("| ", f);
	cell(f, str(r, "case"));
	fputs(" | ", f);
	cell(f, vname_of(r));
	/* Other metrics name their unit in the third column: only the time
	 * table keeps the first report's "| case | variant | number |" rows. */
	if (strcmp(str(r, "metric"), "ns_per_op")) {
		fputs(" | ", f);
		cell(f, str(kb_summary_metric(model, str(r, "metric")), "unit"));
	}
	if (!nb) {
		fprintf(f, " | no samples (%s) | | 0 | 0 | | | | | | | |\n", status);
		return;
	}
	fputs(" | ", f);
	if (!strcmp(str(r, "metric"), "ns_per_op"))
		fprintf(f, "%.1f", kb_summary_num(r, "median"));
	else
		kb_report_fig(f, kb_summary_num(r, "median"));
	fputs(" | ", f);
	if (isfinite(kb_summary_num(r, "ratio")))
		fprintf(f, "%.3f", kb_summary_num(r, "ratio"));
	fprintf(f, " | %lld | %lld | %s | ", nb, (long long)json_integer_value(json_object_get(r, "samples")),
		str(model, "backend"));
	interval_cell(f, json_object_get(r, "ci"), 0);
	fputs(" | ", f);
	if (json_object_get(r, "ratio_ci"))
		interval_cell(f, json_object_get(r, "ratio_ci"), 1);
	fputs(" | ", f);
	if (json_object_get(r, "p_holm"))
		kb_report_p(f, kb_summary_num(r, "p_holm"));
	fputs(" | ", f);
	if (json_object_get(r, "cliffs_delta"))
		kb_report_delta(f, kb_summary_num(r, "cliffs_delta"));
	fprintf(f, " | %s | ", str(r, "verdict"));
	json_array_foreach(json_object_get(r, "outlier_boots"), i, o)
		fprintf(f, "%s%lld", i ? ", " : "boot ", (long long)json_integer_value(o));
	if (json_integer_value(json_object_get(r, "outlier_samples")))
		fprintf(f, "%s%lld samples", json_array_size(json_object_get(r, "outlier_boots")) ? "; " : "",
			(long long)json_integer_value(json_object_get(r, "outlier_samples")));
	fputs(" |\n", f);
}

static void metric_table(FILE *f, json_t *model, json_t *metric, const char *first_col)
{
	const char *baseline = str(model, "baseline");
	json_t *c, *r;
	size_t i, k;

	int other = strcmp(str(metric, "name"), "ns_per_op") != 0;

	fprintf(f, "| %s | variant | %smedian %s | vs %s | boots | samples | backend | %.0f%% CI | "
		"vs %s %.0f%% CI | p (Holm) | Cliff's delta | verdict | outliers |\n"
		"|---|---|%s---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|\n", first_col,
		other ? "metric | " : "", str(metric, "unit"), baseline,
		100 * kb_summary_num(model, "confidence"), baseline,
		100 * kb_summary_num(model, "confidence"), other ? "---|" : "");
	json_array_foreach(json_object_get(model, "cases"), i, c)
		json_array_foreach(json_object_get(model, "results"), k, r)
			if (!strcmp(str(r, "case"), json_string_value(c)) &&
			    !strcmp(str(r, "metric"), str(metric, "name")))
				metric_row(f, model, r, str(kb_report_variant(model, vname_of(r)), "status"));
	fputs("\n", f);
}

static void speed_section(FILE *f, json_t *model)
{
	json_t *m;
	size_t i;

	fprintf(f, "## Speed\n\n");
	fprintf(f, "Median over boots of each boot's median time per operation. Backend `%s`",
		str(model, "backend"));
	if (!strcmp(str(model, "accel"), "tcg") && strcmp(str(model, "backend"), "sim"))
		fprintf(f, ": under TCG this is emulated time, a property of QEMU's translation as much as of the kernel");
	fprintf(f, ". Intervals: %.0f%% percentile bootstrap over boots. Outliers (modified z-score "
		"of a boot's median above %.1f, or of a sample within its boot) are marked, never "
		"dropped.\n\n", 100 * kb_summary_num(model, "confidence"),
		kb_summary_num(model, "outlier_z"));
	metric_table(f, model, kb_summary_metric(model, "ns_per_op"), "workload");
	json_array_foreach(json_object_get(model, "metrics"), i, m) {
		if (!strcmp(str(m, "name"), "ns_per_op"))
			continue;
		fprintf(f, "### %s\n\n%s", str(m, "label"), str(m, "source"));
		if (*str(m, "note"))
			fprintf(f, ": %s", str(m, "note"));
		fputs(".\n\n", f);
		metric_table(f, model, m, "case");
	}
}

static void correlation_section(FILE *f, json_t *model)
{
	json_t *c;
	size_t i;

	if (!json_array_size(json_object_get(model, "correlation")))
		return;
	fprintf(f, "## Size against cost\n\nSpearman rank correlation across variants between text "
		"size and the median of each metric (positive: bigger is costlier), with an exact "
		"permutation p-value (every ordering up to 8 variants, else %lld random ones); and "
		"whether the variant with the least text is also the cheapest.\n\n",
		(long long)json_integer_value(json_object_get(model, "resamples")));
	fprintf(f, "| case | metric | variants | Spearman rho | p (permutation) | smallest | cheapest | smallest is cheapest |\n"
		"|---|---|---:|---:|---:|---|---|---|\n");
	json_array_foreach(json_object_get(model, "correlation"), i, c) {
		fputs("| ", f);
		cell(f, str(c, "case"));
		fprintf(f, " | %s | %lld | ", str(kb_summary_metric(model, str(c, "metric")), "unit"),
			(long long)json_integer_value(json_object_get(c, "n")));
		if (isfinite(kb_summary_num(c, "rho")))
			fprintf(f, "%+.3f", kb_summary_num(c, "rho"));
		else
			fputs("n/a", f);
		fputs(" | ", f);
		kb_report_p(f, kb_summary_num(c, "p"));
		fputs(" | ", f);
		cell(f, str(c, "smallest"));
		fputs(" | ", f);
		cell(f, str(c, "fastest"));
		fprintf(f, " | %s |\n", json_is_true(json_object_get(c, "smallest_is_fastest")) ? "yes" : "no");
	}
	fputs("\n", f);
}

static void boots_section(FILE *f, json_t *boots)
{
	size_t i, ok = 0;
	json_t *b;

	json_array_foreach(boots, i, b)
		ok += !strcmp(str(b, "status"), "ok");
	fprintf(f, "## Boots\n\n%zu of %zu boots completed.\n\n", ok, json_array_size(boots));
	if (ok == json_array_size(boots))
		return;
	fprintf(f, "| variant | boot | status | reason | serial log |\n|---|---:|---|---|---|\n");
	json_array_foreach(boots, i, b) {
		if (!strcmp(str(b, "status"), "ok"))
			continue;
		fprintf(f, "| ");
		cell(f, str(b, "variant"));
		fprintf(f, " | %lld | %s | ", json_integer_value(json_object_get(b, "boot")),
			str(b, "status"));
		cell(f, str(b, "reason"));
		fprintf(f, " | ");
		cell(f, str(b, "serial"));
		fprintf(f, " |\n");
	}
	fprintf(f, "\n");
}

static void build_section(FILE *f, json_t *m)
{
	json_t *variants = json_object_get(m, "variants"), *v;
	size_t i;

	fprintf(f, "## Variants\n\n| variant | status | build | config key | compiler | log |\n|---|---|---|---|---|---|\n");
	json_array_foreach(variants, i, v) {
		fprintf(f, "| ");
		cell(f, str(v, "name"));
		fprintf(f, " | %s", str(v, "status"));
		if (*str(v, "reason"))
			{
			fprintf(f, ": ");
			cell(f, str(v, "reason"));
		}
		fprintf(f, " | ");
		if (json_is_true(json_object_get(v, "cached")))
			fprintf(f, "cached");
		else if (json_is_number(json_object_get(v, "build_seconds")))
			fprintf(f, "%.0f s", json_number_value(json_object_get(v, "build_seconds")));
		fprintf(f, " | `%.12s` | ", str(v, "key"));
		cell(f, str(v, "compiler"));
		fprintf(f, " | variants/");
		cell(f, str(v, "name"));
		fprintf(f, "/build.log |\n");
	}
	fprintf(f, "\n");
}

static int write_md(FILE *f, const struct kb_report_ctx *ctx)
{
	json_t *m = ctx->manifest, *accel = json_object_get(m, "accel");

	fprintf(f, "# kbench report ");
	cell(f, str(m, "run_id"));
	fprintf(f, "\n\nKernel ");
	cell(f, str(json_object_get(m, "kernel"), "version"));
	fprintf(f, " (");
	cell(f, str(json_object_get(m, "kernel"), "arch"));
	fprintf(f, "), %zu variants, baseline `", json_array_size(json_object_get(m, "variants")));
	cell(f, str(m, "baseline"));
	fprintf(f, "`. Accelerator: ");
	cell(f, str(accel, "chosen"));
	fprintf(f, " (");
	cell(f, str(accel, "why"));
	fprintf(f, "). Host: ");
	cell(f, str(json_object_get(json_object_get(m, "host"), "cpu"), "brand"));
	fprintf(f, ".\n\n");
	if (ctx->bad_lines)
		fprintf(f, "**%d torn or invalid lines were skipped in samples.jsonl/boots.jsonl.**\n\n",
			ctx->bad_lines);
	verdict_section(f, ctx->model);
	boot_section(f, ctx->model);
	size_section(f, json_object_get(m, "variants"), str(m, "baseline"));
	kb_bloat_report_md(f, ctx->run_dir, json_object_get(m, "variants"), str(m, "baseline"));
	speed_section(f, ctx->model);
	correlation_section(f, ctx->model);
	boots_section(f, ctx->boots);
	build_section(f, m);
	fprintf(f, "Also in this directory: summary.json and summary.csv (every figure above, with "
		"the per-boot medians), report.html (the same with plots).\n");
	return 0;
}

const struct kb_report_writer kb_report_md = { "markdown", "report.md", write_md };

static const struct kb_report_writer *const writers[] = {
	&kb_report_md, &kb_report_json, &kb_report_csv, &kb_report_html,
};

int kb_report_write_opts(const char *run_dir, const struct kb_summary_opts *o)
{
	char *mpath = kb_xasprintf("%s/manifest.json", run_dir);
	char *bpath = kb_xasprintf("%s/boots.jsonl", run_dir);
	struct kb_report_ctx ctx = { .run_dir = run_dir };
	json_error_t jerr;
	int bad, ret = -1;

	ctx.manifest = json_load_file(mpath, 0, &jerr);
	if (!json_is_object(ctx.manifest)) {
		kb_error("%s:%d: %s", mpath, jerr.line, ctx.manifest ? "not a JSON object" : jerr.text);
		goto out;
	}
	ctx.boots = kb_store_read_lines(bpath, &bad);
	ctx.model = kb_summary_load(run_dir, o, &ctx.bad_lines);
	if (!ctx.model)
		goto out;
	ret = 0;
	for (size_t i = 0; i < KB_ARRAY_SIZE(writers); i++) {
		char *text = NULL, *path = kb_xasprintf("%s/%s", run_dir, writers[i]->file);
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		int r;

		if (!f)
			abort();
		r = writers[i]->write(f, &ctx);
		fclose(f);
		if (r == 0)
			r = kb_write_file_atomic(path, text, len);
		if (r < 0) {
			kb_error("%s: %s not written", path, writers[i]->name);
			ret = -1;
		}
		free(text);
		free(path);
	}
out:
	json_decref(ctx.manifest);
	json_decref(ctx.boots);
	json_decref(ctx.model);
	free(mpath);
	free(bpath);
	return ret;
}

int kb_report_write(const char *run_dir)
{
	struct kb_summary_opts o = KB_SUMMARY_OPTS_INIT;

	return kb_report_write_opts(run_dir, &o);
}

/* --confidence LEVEL: for the intervals, and 1 - LEVEL for the verdicts. */
int kb_report_parse_confidence(const char *arg, struct kb_summary_opts *o)
{
	char *end;
	double c = strtod(arg, &end);

	if (*end || !(c >= 0.5 && c < 1)) {
		kb_error("--confidence '%s': want a level between 0.5 and 1, e.g. 0.95", arg);
		return -1;
	}
	o->level = c;
	o->alpha = 1 - c;
	return 0;
}

int kb_cmd_report(int argc, char **argv)
{
	struct kb_summary_opts o = KB_SUMMARY_OPTS_INIT;
	const char *dir = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--confidence") && i + 1 < argc) {
			if (kb_report_parse_confidence(argv[++i], &o) < 0)
				return KB_EXIT_USAGE;
		} else if (argv[i][0] == '-' || dir) {
			dir = NULL;
			break;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: kbench report [--confidence LEVEL] RUN_DIR\n");
		return KB_EXIT_USAGE;
	}
	if (kb_report_write_opts(dir, &o) < 0)
		return KB_EXIT_FAILED;
	printf("%s/report.md\n", dir);
	return KB_EXIT_OK;
}

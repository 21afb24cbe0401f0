// SPDX-License-Identifier: GPL-2.0-or-later
/* report.html: one self-contained page (no script, no network: a content
 * security policy says so to the browser too) with the verdict, the tables
 * and gnuplot's SVG plots inlined.  Every string from the config or the
 * guest goes through kb_report_html_text, or kb_plot_label into plots. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "report.h"
#include "summary.h"
#include "util.h"

#define str kb_report_str
#define esc kb_report_html_text

static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
	"table{border-collapse:collapse;margin:1em 0;font-size:14px}"
	"th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"th{background:#f3f3f3}pre{background:#f7f7f7;padding:.6em;overflow-x:auto}"
	"figure{margin:1.5em 0}figure svg{width:100%;max-width:760px;height:auto;border:1px solid #eee}"
	"figcaption{color:#555;font-size:14px}.faster{color:#1a7f37;font-weight:600}"
	".slower{color:#b3261e;font-weight:600}.caveat{color:#7a5b00}";

/* ---- plots ---- */

struct buf {
	char *s;
	size_t len;
	FILE *f;
};

static FILE *buf_open(struct buf *b)
{
	memset(b, 0, sizeof(*b));
	b->f = open_memstream(&b->s, &b->len);
	if (!b->f)
		abort();
	return b->f;
}

static char *buf_close(struct buf *b)
{
	fclose(b->f);
	return b->s;
}

static const char plot_head[] =
	"set terminal svg size 760,420 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
	"set output 'plot.svg'\nset datafile missing 'NaN'\nset grid\n"
	"set key outside right top\n";

static void figure(FILE *f, const char *script, const char *data, const char *caption)
{
	char *why = NULL, *svg = kb_plot_svg(script, data, &why);

	fputs("<figure>", f);
	if (svg)
		fputs(svg, f);
	else {
		fputs("<p class=\"caveat\">Plot not drawn: ", f);
		esc(f, why ? why : "gnuplot failed");
		fputs(".</p>", f);
		kb_warn("report.html: plot '%s' not drawn: %s", caption, why ? why : "gnuplot failed");
	}
	fputs("<figcaption>", f);
	esc(f, caption);
	fputs("</figcaption></figure>\n", f);
	free(svg);
	free(why);
}

static double elem(json_t *arr, size_t i, double dflt)
{
	json_t *x = json_array_get(arr, i);

	return json_is_number(x) ? json_number_value(x) : dflt;
}

/* A plot written series by series: gnuplot script and data in memory. */
struct plot {
	struct buf d, s;
	FILE *df, *sf;
	size_t series;		/* series with points so far */
	int points;		/* points of the series being written */
};

static void plot_open(struct plot *p)
{
	p->df = buf_open(&p->d);
	p->sf = buf_open(&p->s);
	p->series = 0;
	p->points = 0;
}

/* A point of the current series: x as written, y and y's interval (y where
 * the interval is missing). */
static void plot_point(struct plot *p, const char *x, double y, json_t *ci)
{
	fprintf(p->df, "%s %g %g %g\n", x, y, elem(ci, 0, y), elem(ci, 1, y));
	p->points++;
}

/* Ends the current series: a plot clause (with: the gnuplot style; title) if it had
 * points. */
static void plot_series_end(struct plot *p, const char *with, const char *title)
{
	if (p->points) {
		fprintf(p->df, "\n\n");
		fprintf(p->sf, "%s'plot.dat' index %zu using 1:2:3:4 with %s pt 7 ps 0.8 title '%s'",
			p->series ? ", " : "", p->series, with, title);
		p->series++;
	}
	p->points = 0;
}

/* The figure, if any series had points; the plot's memory goes either way. */
static void plot_close(struct plot *p, FILE *out, const char *caption)
{
	char *data, *script;

	fputs("\n", p->sf);
	data = buf_close(&p->d);
	script = buf_close(&p->s);
	if (p->series)
		figure(out, script, data, caption);
	free(data);
	free(script);
}

static void plot_size(FILE *out, json_t *model)
{
	struct buf d, s;
	FILE *df = buf_open(&d), *sf = buf_open(&s);
	json_t *v;
	size_t i, n = 0;
	char *data, *script;

	json_array_foreach(json_object_get(model, "variants"), i, v) {
		char *l = kb_plot_label(str(v, "name"));
		double t = kb_summary_num(v, "text");

		if (isfinite(t))
			fprintf(df, "%zu %s %.0f\n", n++, l, t);
		free(l);
	}
	fprintf(sf, "%sunset key\nset style fill solid 0.6 border -1\nset boxwidth 0.6\n"
		"set ylabel 'text (bytes)'\nset yrange [0:*]\nset xrange [-0.7:%zu.7]\n"
		"set format y '%%.0f'\n"
		"plot 'plot.dat' using 1:3:xtic(2) with boxes lc rgb '#4477aa', "
		"'' using 1:3:(sprintf('%%.0f', $3)) with labels offset 0,0.8\n", plot_head,
		n ? n - 1 : 0);
	data = buf_close(&d);
	script = buf_close(&s);
	if (n)
		figure(out, script, data, "Text size per variant (bytes, from the ELF section headers as binutils size counts them).");
	free(data);
	free(script);
}

/* The primary metric per case, one series per variant, with intervals. */
static void plot_cost(FILE *out, json_t *model)
{
	const char *primary = str(model, "primary_metric");
	json_t *metric = kb_summary_metric(model, primary), *v, *c;
	json_t *variants = json_object_get(model, "variants"), *cases = json_object_get(model, "cases");
	size_t nv = json_array_size(variants), iv, ic;
	struct plot p;
	char *caption;

	plot_open(&p);
	fprintf(p.sf, "%sset logscale y\nset ylabel '%s (log scale)'\nset xrange [-0.5:%zu.5]\n"
		"set xtics rotate by -30\nset xtics (", plot_head, str(metric, "unit"),
		json_array_size(cases) ? json_array_size(cases) - 1 : 0);
	json_array_foreach(cases, ic, c) {
		char *l = kb_plot_label(json_string_value(c));

		fprintf(p.sf, "%s'%s' %zu", ic ? ", " : "", l, ic);
		free(l);
	}
	fputs(")\nplot ", p.sf);
	json_array_foreach(variants, iv, v) {
		char *l = kb_plot_label(str(v, "name"));

		json_array_foreach(cases, ic, c) {
			json_t *r = kb_summary_find(model, json_string_value(c), primary, str(v, "name"));
			double m = kb_summary_num(r, "median");
			char x[32];

			if (!(m > 0))
				continue;
			snprintf(x, sizeof(x), "%g", (double)ic + 0.12 * ((double)iv - (double)(nv - 1) / 2));
			plot_point(&p, x, m, json_object_get(r, "ci"));
		}
		plot_series_end(&p, "yerrorbars", l);
		free(l);
	}
	caption = kb_xasprintf("%s per case and variant: median over boots with its %.0f%% bootstrap "
			       "interval (%s).", str(metric, "label"),
			       100 * kb_summary_num(model, "confidence"), str(metric, "source"));
	plot_close(&p, out, caption);
	free(caption);
}

/* The icache-pressure sweep: cases "<workload>/k=N", cost against K. */
static void plot_sweeps(FILE *out, json_t *model)
{
	const char *primary = str(model, "primary_metric");
	json_t *metric = kb_summary_metric(model, primary), *c, *v, *done = json_array();
	json_t *cases = json_object_get(model, "cases");
	size_t ic, jc, iv;

	json_array_foreach(cases, ic, c) {
		const char *name = json_string_value(c), *k = strstr(name, "/k=");
		char *wl, *wlabel, *caption;
		struct plot p;

		if (!k)
			continue;
		wl = kb_xstrndup(name, (size_t)(k - name));
		if (json_array_size(done) && !strcmp(json_string_value(json_array_get(done, json_array_size(done) - 1)), wl)) {
			free(wl);
			continue;
		}
		json_array_append_new(done, json_string(wl));
		plot_open(&p);
		wlabel = kb_plot_label(wl);
		fprintf(p.sf, "%sset xlabel 'K (KiB of user code run between syscalls)'\n"
			"set ylabel '%s'\nset yrange [0:*]\nplot ", plot_head, str(metric, "unit"));
		json_array_foreach(json_object_get(model, "variants"), iv, v) {
			char *l = kb_plot_label(str(v, "name"));

			json_array_foreach(cases, jc, c) {
				const char *cn = json_string_value(c);
				json_t *r;
				double m;

				if (strncmp(cn, wl, strlen(wl)) || strncmp(cn + strlen(wl), "/k=", 3))
					continue;
				r = kb_summary_find(model, cn, primary, str(v, "name"));
				m = kb_summary_num(r, "median");
				if (isfinite(m))
					plot_point(&p, cn + strlen(wl) + 3, m, json_object_get(r, "ci"));
			}
			plot_series_end(&p, "yerrorlines", l);
			free(l);
		}
		caption = kb_xasprintf("Instruction-cache pressure sweep '%s': %s against K, one line per "
				       "variant, with %.0f%% intervals.", wlabel, str(metric, "label"),
				       100 * kb_summary_num(model, "confidence"));
		plot_close(&p, out, caption);
		free(caption);
		free(wlabel);
		free(wl);
	}
	json_decref(done);
}

static int cmp_text(const void *a, const void *b)
{
	double x = kb_summary_num(*(json_t *const *)a, "text");
	double y = kb_summary_num(*(json_t *const *)b, "text");

	return (x > y) - (x < y);
}

/* Text size against cost relative to the baseline, one series per case. */
static void plot_size_cost(FILE *out, json_t *model)
{
	const char *primary = str(model, "primary_metric");
	json_t *metric = kb_summary_metric(model, primary), *c, *v;
	json_t *variants = json_object_get(model, "variants");
	size_t nv = json_array_size(variants), ic, iv;
	json_t **sorted = kb_xcalloc(nv + 1, sizeof(*sorted));
	struct plot p;
	char *caption;

	json_array_foreach(variants, iv, v)
		sorted[iv] = v;
	qsort(sorted, nv, sizeof(*sorted), cmp_text);
	plot_open(&p);
	fprintf(p.sf, "%sset xlabel 'text (bytes)'\nset ylabel '%s relative to %s'\nset format x '%%.0f'\nset xtics rotate by -30\n"
		"set offsets graph 0.08, graph 0.08, graph 0.05, graph 0.05\nplot ",
		plot_head, str(metric, "unit"), "the baseline");
	json_array_foreach(json_object_get(model, "cases"), ic, c) {
		char *l = kb_plot_label(json_string_value(c));

		for (iv = 0; iv < nv; iv++) {
			json_t *r = kb_summary_find(model, json_string_value(c), primary, str(sorted[iv], "name"));
			double t = kb_summary_num(sorted[iv], "text"), x = kb_summary_num(r, "ratio");
			char tx[32];

			if (!isfinite(t) || !isfinite(x))
				continue;
			snprintf(tx, sizeof(tx), "%.0f", t);
			plot_point(&p, tx, x, json_object_get(r, "ratio_ci"));
		}
		plot_series_end(&p, "yerrorlines", l);
		free(l);
	}
	caption = kb_xasprintf("Text size against %s, as a ratio to the baseline with %.0f%% "
			       "intervals, one line per case: a line rising to the right means "
			       "bigger is costlier.", str(metric, "label"),
			       100 * kb_summary_num(model, "confidence"));
	plot_close(&p, out, caption);
	free(caption);
	free(sorted);
}

/* ---- tables ---- */

static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, s);
	fputs("</td>", f);
}

static void tdn_begin(FILE *f)
{
	fputs("<td class=\"n\">", f);
}

static void verdict_cell(FILE *f, const char *v)
{
	fprintf(f, "<td class=\"%s\">", !strcmp(v, "faster") ? "faster" : !strcmp(v, "slower") ? "slower" : "");
	esc(f, v);
	fputs("</td>", f);
}

static void verdict_table(FILE *f, json_t *model)
{
	const char *primary = str(model, "primary_metric"), *baseline = str(model, "baseline");
	json_t *metric = kb_summary_metric(model, primary), *c, *r;
	size_t i, k;

	fputs("<table><tr><th>case</th><th>variant</th><th>text vs ", f);
	esc(f, baseline);
	fprintf(f, "</th><th>%s vs ", str(metric, "unit"));
	esc(f, baseline);
	fprintf(f, " [%.0f%% CI]</th><th>p (Holm)</th><th>Cliff's delta</th><th>verdict</th>"
		"<th>speed figure</th></tr>\n", 100 * kb_summary_num(model, "confidence"));
	json_array_foreach(json_object_get(model, "cases"), i, c)
		json_array_foreach(json_object_get(model, "results"), k, r) {
			if (strcmp(str(r, "metric"), primary) || strcmp(str(r, "case"), json_string_value(c)) ||
			    !strcmp(str(r, "variant"), baseline))
				continue;
			fputs("<tr>", f);
			td(f, json_string_value(c));
			td(f, str(r, "variant"));
			tdn_begin(f);
			kb_report_pct(f, kb_summary_num(kb_report_variant(model, str(r, "variant")), "text_change"));
			fputs("</td>", f);
			tdn_begin(f);
			kb_report_ratio_ci(f, r);
			fputs("</td>", f);
			tdn_begin(f);
			if (json_is_true(json_object_get(r, "deterministic")) &&
			    json_is_true(json_object_get(r, "identical_counts")))
				fputs("deterministic", f);
			else
				kb_report_p(f, kb_summary_num(r, "p_holm"));
			fputs("</td>", f);
			tdn_begin(f);
			kb_report_delta(f, kb_summary_num(r, "cliffs_delta"));
			fputs("</td>", f);
			verdict_cell(f, *str(r, "verdict") ? str(r, "verdict") : "no data");
			fputs("<td>", f);
			esc(f, str(metric, "source"));
			if (*str(metric, "note")) {
				fputs(": ", f);
				esc(f, str(metric, "note"));
			}
			fputs("</td></tr>\n", f);
		}
	fputs("</table>\n", f);
}

/* A model's caveats as a list; nothing without any. */
static void caveat_list(FILE *f, json_t *caveats)
{
	json_t *c;
	size_t i;

	if (!json_array_size(caveats))
		return;
	fputs("<ul>", f);
	json_array_foreach(caveats, i, c) {
		fputs("<li class=\"caveat\">", f);
		esc(f, json_string_value(c));
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

/* A row's test against the baseline: p (p_key), Cliff's delta, verdict;
 * empty cells where the row has none (the baseline's own). */
static void test_tds(FILE *f, json_t *r, const char *p_key)
{
	tdn_begin(f);
	if (json_object_get(r, p_key))
		kb_report_p(f, kb_summary_num(r, p_key));
	fputs("</td>", f);
	tdn_begin(f);
	if (json_object_get(r, "cliffs_delta"))
		kb_report_delta(f, kb_summary_num(r, "cliffs_delta"));
	fputs("</td>", f);
	verdict_cell(f, str(r, "verdict"));
}

/* Whole boots timed by hyperfine (the boot_timing model), in seconds. */
static void boot_table(FILE *f, json_t *model)
{
	json_t *bt = json_object_get(model, "boot_timing"), *r;
	json_t *metric = kb_summary_metric(bt, "ns_per_op");
	const char *baseline = str(model, "baseline");
	size_t i;

	if (!bt)
		return;
	fputs("<h2>Whole boot (hyperfine)</h2>\n<p>QEMU start to guest exit of <code>kbench "
	      "boot-check</code> (no workload; a boot counts only when the guest said done), "
	      "timed by hyperfine. Figure: ", f);
	esc(f, metric ? str(metric, "source") : "measured");
	fputs(", ", f);
	esc(f, metric ? str(metric, "note") : "no boot was timed");
	fputs(". One timed boot is one replicate; exact Mann-Whitney U against the baseline.</p>\n", f);
	fprintf(f, "<table><tr><th>variant</th><th>boots timed</th><th>failed</th><th>median s "
		"[%.0f%% CI]</th><th>vs ", 100 * kb_summary_num(model, "confidence"));
	esc(f, baseline);
	fputs("</th><th>p</th><th>Cliff's delta</th><th>verdict</th><th>outlier boots</th></tr>\n", f);
	json_array_foreach(json_object_get(bt, "results"), i, r) {
		char n[64];

		fputs("<tr>", f);
		td(f, str(r, "variant"));
		snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(json_object_get(r, "boots")));
		td(f, n);
		snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(
			 json_object_get(kb_report_timing(bt, str(r, "variant")), "failed")));
		td(f, n);
		tdn_begin(f);
		if (json_integer_value(json_object_get(r, "boots")))
			kb_report_seconds_ci(f, r);
		fputs("</td>", f);
		tdn_begin(f);
		if (strcmp(str(r, "variant"), baseline))
			kb_report_ratio_ci(f, r);
		fputs("</td>", f);
		test_tds(f, r, "p");
		snprintf(n, sizeof(n), "%zu", json_array_size(json_object_get(r, "outlier_boots")));
		td(f, n);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	caveat_list(f, json_object_get(bt, "caveats"));
}

static void interval_td(FILE *f, json_t *ci, int ratio)
{
	tdn_begin(f);
	if (json_is_number(json_array_get(ci, 0))) {
		if (ratio)
			fprintf(f, "[%.3f, %.3f]", elem(ci, 0, NAN), elem(ci, 1, NAN));
		else {
			fputs("[", f);
			kb_report_fig(f, elem(ci, 0, NAN));
			fputs(", ", f);
			kb_report_fig(f, elem(ci, 1, NAN));
			fputs("]", f);
		}
	}
	fputs("</td>", f);
}

static void metric_table(FILE *f, json_t *model, json_t *metric)
{
	json_t *c, *r, *o;
	size_t i, k, j;

	fputs("<h3>", f);
	esc(f, str(metric, "label"));
	fputs("</h3><p>", f);
	esc(f, str(metric, "source"));
	if (*str(metric, "note")) {
		fputs(": ", f);
		esc(f, str(metric, "note"));
	}
	fprintf(f, ".</p>\n<table><tr><th>case</th><th>variant</th><th>median %s</th><th>%.0f%% CI</th>"
		"<th>ratio</th><th>ratio %.0f%% CI</th><th>p (Holm)</th><th>Cliff's delta</th>"
		"<th>verdict</th><th>boots</th><th>samples</th><th>outliers</th></tr>\n",
		str(metric, "unit"), 100 * kb_summary_num(model, "confidence"),
		100 * kb_summary_num(model, "confidence"));
	json_array_foreach(json_object_get(model, "cases"), i, c)
		json_array_foreach(json_object_get(model, "results"), k, r) {
			if (strcmp(str(r, "metric"), str(metric, "name")) ||
			    strcmp(str(r, "case"), json_string_value(c)))
				continue;
			fputs("<tr>", f);
			td(f, str(r, "case"));
			td(f, str(r, "variant"));
			tdn_begin(f);
			kb_report_fig(f, kb_summary_num(r, "median"));
			fputs("</td>", f);
			interval_td(f, json_object_get(r, "ci"), 0);
			tdn_begin(f);
			if (isfinite(kb_summary_num(r, "ratio")))
				fprintf(f, "%.3f", kb_summary_num(r, "ratio"));
			fputs("</td>", f);
			interval_td(f, json_object_get(r, "ratio_ci"), 1);
			test_tds(f, r, "p_holm");
			fprintf(f, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td><td>",
				(long long)json_integer_value(json_object_get(r, "boots")),
				(long long)json_integer_value(json_object_get(r, "samples")));
			json_array_foreach(json_object_get(r, "outlier_boots"), j, o)
				fprintf(f, "%s%lld", j ? ", " : "boot ", (long long)json_integer_value(o));
			fputs("</td></tr>\n", f);
		}
	fputs("</table>\n", f);
}

static void size_table(FILE *f, json_t *model)
{
	json_t *v;
	size_t i;

	fputs("<table><tr><th>variant</th><th>status</th><th>text</th><th>data</th><th>bss</th>"
	      "<th>text change</th><th>flags</th></tr>\n", f);
	json_array_foreach(json_object_get(model, "variants"), i, v) {
		fputs("<tr>", f);
		td(f, str(v, "name"));
		td(f, str(v, "status"));
		tdn_begin(f);
		kb_report_fig(f, kb_summary_num(v, "text"));
		fputs("</td>", f);
		tdn_begin(f);
		kb_report_fig(f, kb_summary_num(v, "data"));
		fputs("</td>", f);
		tdn_begin(f);
		kb_report_fig(f, kb_summary_num(v, "bss"));
		fputs("</td>", f);
		tdn_begin(f);
		kb_report_pct(f, kb_summary_num(v, "text_change"));
		fputs("</td>", f);
		td(f, str(v, "flags"));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void correlation_table(FILE *f, json_t *model)
{
	json_t *c;
	size_t i;

	if (!json_array_size(json_object_get(model, "correlation")))
		return;
	fputs("<h2>Size against cost</h2><p>Spearman rank correlation across variants between text "
	      "size and each metric's median (positive: bigger is costlier), with a permutation "
	      "p-value.</p>\n<table><tr><th>case</th><th>metric</th><th>variants</th><th>rho</th>"
	      "<th>p</th><th>smallest</th><th>cheapest</th><th>smallest is cheapest</th></tr>\n", f);
	json_array_foreach(json_object_get(model, "correlation"), i, c) {
		fputs("<tr>", f);
		td(f, str(c, "case"));
		td(f, str(kb_summary_metric(model, str(c, "metric")), "unit"));
		fprintf(f, "<td class=\"n\">%lld</td>", (long long)json_integer_value(json_object_get(c, "n")));
		tdn_begin(f);
		kb_report_fig(f, kb_summary_num(c, "rho"));
		fputs("</td>", f);
		tdn_begin(f);
		kb_report_p(f, kb_summary_num(c, "p"));
		fputs("</td>", f);
		td(f, str(c, "smallest"));
		td(f, str(c, "fastest"));
		td(f, json_is_true(json_object_get(c, "smallest_is_fastest")) ? "yes" : "no");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int write_html(FILE *f, const struct kb_report_ctx *ctx)
{
	json_t *model = ctx->model, *m = ctx->manifest, *accel = json_object_get(m, "accel"), *c;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>kbench report ", f);
	esc(f, str(m, "run_id"));
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>kbench report ", style);
	esc(f, str(m, "run_id"));
	fputs("</h1>\n<p>Kernel ", f);
	esc(f, str(json_object_get(m, "kernel"), "version"));
	fputs(" (", f);
	esc(f, str(json_object_get(m, "kernel"), "arch"));
	fprintf(f, "), %zu variants, baseline <code>", json_array_size(json_object_get(m, "variants")));
	esc(f, str(m, "baseline"));
	fputs("</code>. Accelerator: ", f);
	esc(f, str(accel, "chosen"));
	fputs(" (", f);
	esc(f, str(accel, "why"));
	fputs("). Backend: ", f);
	esc(f, str(model, "backend"));
	fputs(". Host: ", f);
	esc(f, str(json_object_get(json_object_get(m, "host"), "cpu"), "brand"));
	fputs(".</p>\n", f);
	if (ctx->bad_lines)
		fprintf(f, "<p class=\"caveat\">%d torn or invalid lines were skipped in samples.jsonl and "
			"boots.jsonl.</p>\n", ctx->bad_lines);

	fputs("<h2>Is the smaller kernel also faster?</h2>\n", f);
	json_array_foreach(json_object_get(model, "claim"), i, c) {
		fputs("<p>", f);
		kb_report_claim(f, model, c, 1);
		fputs("</p>\n", f);
	}
	fprintf(f, "<p>Two-sided Mann-Whitney U tests of per-boot medians against the baseline, "
		"Holm-Bonferroni corrected over the cases, at %.0f%% confidence; ratios with "
		"percentile bootstrap intervals.</p>\n", 100 * kb_summary_num(model, "confidence"));
	verdict_table(f, model);
	caveat_list(f, json_object_get(model, "caveats"));

	boot_table(f, model);

	fputs("<h2>Plots</h2>\n", f);
	plot_size(f, model);
	plot_cost(f, model);
	plot_sweeps(f, model);
	plot_size_cost(f, model);

	fputs("<h2>Text size</h2>\n", f);
	size_table(f, model);
	fputs("<h2>Speed and counts</h2>\n", f);
	json_array_foreach(json_object_get(model, "metrics"), i, c)
		metric_table(f, model, c);
	correlation_table(f, model);
	fputs("<p>Every figure, with the per-boot medians: <code>summary.json</code>, "
	      "<code>summary.csv</code>. Report text: <code>report.md</code>.</p>\n</body></html>\n", f);
	return 0;
}

const struct kb_report_writer kb_report_html = { "HTML report", "report.html", write_html };

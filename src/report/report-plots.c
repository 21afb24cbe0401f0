// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's plots: gnuplot scripts and data written from the model as
 * document figures, which report.html draws (doc-html.c) and report.md
 * leaves out.  Every string from the config or the guest that reaches a
 * script or a data file (variant names, case names, units made from sample
 * field names) goes through kb_plot_label: it cannot become a gnuplot
 * command, a quote or a column. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "report.h"
#include "util.h"

static const char plot_head[] =
	"set terminal svg size %zu,%zu dynamic noenhanced font 'sans,11' background '#ffffff'\n"
	"set output 'plot.svg'\nset datafile missing 'NaN'\nset grid\n"
	"set key outside right top\n";

/* A plot being written: gnuplot script and data in memory, series by series. */
struct plot {
	char *script, *data;
	size_t slen, dlen;
	FILE *sf, *df;
	size_t series;		/* series with points so far */
	size_t points;		/* points of the series being written */
};

/* A plot of w x h pixels. */
static void plot_open_size(struct plot *p, size_t w, size_t h)
{
	memset(p, 0, sizeof(*p));
	p->sf = open_memstream(&p->script, &p->slen);
	p->df = open_memstream(&p->data, &p->dlen);
	if (!p->sf || !p->df)
		abort();
	fprintf(p->sf, plot_head, w, h);
}

static void plot_open(struct plot *p)
{
	plot_open_size(p, 760, 420);
}

/* A point of the current series: x as written (a number, or a label),
 * y with its interval (y where the interval is missing). */
static void plot_point(struct plot *p, const char *x, double y, struct kb_interval ci)
{
	fprintf(p->df, "%s %g %g %g\n", x, y, isfinite(ci.lo) ? ci.lo : y, isfinite(ci.hi) ? ci.hi : y);
	p->points++;
}

/* Ends the current series: a plot clause (with: the gnuplot style; title
 * from the run, made a label here) if it had points. */
static void plot_series_end(struct plot *p, const char *with, const char *title)
{
	char *l = kb_plot_label(title);

	if (p->points) {
		fprintf(p->df, "\n\n");
		fprintf(p->sf, "%s'plot.dat' index %zu using 1:2:3:4 with %s pt 7 ps 0.8 title '%s'",
			p->series ? ", " : "", p->series, with, l);
		p->series++;
	}
	p->points = 0;
	free(l);
}

/* The figure if any series had points (its caption to fill), else NULL; the
 * plot's memory goes either way. */
static struct kb_inline *plot_close(struct plot *p, struct kb_doc *d, const char *name)
{
	struct kb_inline *caption = NULL;

	fputs("\n", p->sf);
	fclose(p->sf);
	fclose(p->df);
	if (p->series)
		caption = kb_doc_figure(d, name, p->script, p->data);
	free(p->script);
	free(p->data);
	return caption;
}

void kb_report_plot_size(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *caption;
	struct plot p;
	size_t n = 0;

	plot_open(&p);
	for (size_t v = 0; v < m->nv; v++) {
		char *l = kb_plot_label(m->variants[v].name);

		if (m->variants[v].has_size)
			fprintf(p.df, "%zu %s %lld\n", n++, l, m->variants[v].text);
		free(l);
	}
	fprintf(p.sf, "unset key\nset style fill solid 0.6 border -1\nset boxwidth 0.6\n"
		"set ylabel 'text (bytes)'\nset yrange [0:*]\nset xrange [-0.7:%zu.7]\n"
		"set format y '%%.0f'\n"
		"plot 'plot.dat' using 1:3:xtic(2) with boxes lc rgb '#4477aa', "
		"'' using 1:3:(sprintf('%%.0f', $3)) with labels offset 0,0.8", n ? n - 1 : 0);
	p.series = n > 0;
	caption = plot_close(&p, d, "size");
	if (caption)
		kb_doc_fmt(caption, "Text size per variant (bytes, from the ELF section headers as binutils "
			   "size counts them).");
}

/* The primary metric per case, one series per variant, with intervals. */
void kb_report_plot_cost(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	char *unit = kb_plot_text(mt->unit);
	struct kb_inline *caption;
	struct plot p;

	plot_open(&p);
	fprintf(p.sf, "set logscale y\nset ylabel '%s (log scale)'\nset xrange [-0.5:%zu.5]\n"
		"set xtics rotate by -30\nset xtics (", unit, m->nc ? m->nc - 1 : 0);
	for (size_t c = 0; c < m->nc; c++) {
		char *l = kb_plot_label(m->cases[c]);

		fprintf(p.sf, "%s'%s' %zu", c ? ", " : "", l, c);
		free(l);
	}
	fputs(")\nplot ", p.sf);
	for (size_t v = 0; v < m->nv; v++) {
		for (size_t c = 0; c < m->nc; c++) {
			const struct kb_row *r = kb_model_row(m, c, m->primary, v);
			char x[32];

			if (!(r->median > 0))
				continue;
			snprintf(x, sizeof(x), "%g", (double)c + 0.12 * ((double)v - (double)(m->nv - 1) / 2));
			plot_point(&p, x, r->median, r->ci);
		}
		plot_series_end(&p, "yerrorbars", m->variants[v].name);
	}
	caption = plot_close(&p, d, "cost");
	if (caption) {
		kb_doc_str(caption, mt->label);
		kb_doc_fmt(caption, " per case and variant: median over boots with its %.0f%% bootstrap "
			   "interval (%s).", 100 * m->o.level, kb_figure_kind_name(mt->source));
	}
	free(unit);
}

/* The icache-pressure sweep: cases "<workload>/k=N", cost against K. */
void kb_report_plot_sweeps(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	char *unit = kb_plot_text(mt->unit), *last = NULL;

	for (size_t c = 0; c < m->nc; c++) {
		const char *k = strstr(m->cases[c], "/k=");
		struct kb_inline *caption;
		struct plot p;
		size_t wl;

		if (!k)
			continue;
		wl = (size_t)(k - m->cases[c]);
		if (last && strlen(last) == wl && !strncmp(last, m->cases[c], wl))
			continue;
		free(last);
		last = kb_xstrndup(m->cases[c], wl);
		plot_open(&p);
		fprintf(p.sf, "set xlabel 'K (KiB of user code run between syscalls)'\n"
			"set ylabel '%s'\nset yrange [0:*]\nplot ", unit);
		for (size_t v = 0; v < m->nv; v++) {
			for (size_t j = 0; j < m->nc; j++) {
				const char *cn = m->cases[j];
				const struct kb_row *r;
				char *x;

				if (strncmp(cn, last, wl) || strncmp(cn + wl, "/k=", 3))
					continue;
				r = kb_model_row(m, j, m->primary, v);
				if (!isfinite(r->median))
					continue;
				x = kb_plot_label(cn + wl + 3);
				plot_point(&p, x, r->median, r->ci);
				free(x);
			}
			plot_series_end(&p, "yerrorlines", m->variants[v].name);
		}
		caption = plot_close(&p, d, "icache sweep");
		if (!caption)
			continue;
		kb_doc_fmt(caption, "Instruction-cache pressure sweep '");
		kb_doc_str(caption, last);
		kb_doc_fmt(caption, "': ");
		kb_doc_str(caption, mt->label);
		kb_doc_fmt(caption, " against K, one line per variant, with %.0f%% intervals.", 100 * m->o.level);
	}
	free(last);
	free(unit);
}

struct sized {
	long long text;
	size_t variant;
};

static int cmp_text(const void *a, const void *b)
{
	long long x = ((const struct sized *)a)->text, y = ((const struct sized *)b)->text;

	return (x > y) - (x < y);
}

/* Text size against cost relative to the baseline, one series per case. */
void kb_report_plot_size_cost(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	struct sized *sized = kb_xcalloc(m->nv + 1, sizeof(*sized));
	size_t n = 0;
	char *unit = kb_plot_text(mt->unit);
	struct kb_inline *caption;
	struct plot p;

	for (size_t v = 0; v < m->nv; v++)
		if (m->variants[v].has_size)
			sized[n++] = (struct sized){ m->variants[v].text, v };
	qsort(sized, n, sizeof(*sized), cmp_text);
	if (n < 3) {	/* two points a case: the forest plot's ratios again */
		free(sized);
		free(unit);
		return;
	}
	plot_open(&p);
	fprintf(p.sf, "set xlabel 'text (bytes)'\nset ylabel '%s relative to the baseline'\n"
		"set format x '%%.0f'\nset xtics rotate by -30\n"
		"set offsets graph 0.08, graph 0.08, graph 0.05, graph 0.05\nplot ", unit);
	for (size_t c = 0; c < m->nc; c++) {
		for (size_t i = 0; i < n; i++) {
			const struct kb_row *r = kb_model_row(m, c, m->primary, sized[i].variant);
			char x[32];

			if (!isfinite(r->t.ratio))
				continue;
			snprintf(x, sizeof(x), "%lld", sized[i].text);
			plot_point(&p, x, r->t.ratio, r->t.done ? r->t.ratio_ci : (struct kb_interval){ NAN, NAN });
		}
		plot_series_end(&p, "yerrorlines", m->cases[c]);
	}
	caption = plot_close(&p, d, "size against cost");
	if (caption) {
		kb_doc_fmt(caption, "Text size against ");
		kb_doc_str(caption, mt->label);
		kb_doc_fmt(caption, ", as a ratio to the baseline with %.0f%% intervals, one line per case: a "
			   "line rising to the right means bigger is costlier.", 100 * m->o.level);
	}
	free(sized);
	free(unit);
}

/* The forest plot's marks: one series each, in this order. */
static const struct {
	enum kb_verdict v;
	const char *title, *colour;
	int pt;
} forest_marks[] = {
	{ KB_VERDICT_FASTER, "faster", "#1a7f37", 7 },
	{ KB_VERDICT_SLOWER, "slower", "#b3261e", 7 },
	{ KB_VERDICT_EQUIVALENT, "equivalent", "#2b5fb3", 5 },
	{ KB_VERDICT_UNDECIDED, "not distinguishable", "#777777", 6 },
	{ KB_VERDICT_SAME, "same", "#777777", 4 },
	{ KB_VERDICT_ONE_LAYOUT, "this layout only", "#a07000", 12 },
	{ KB_VERDICT_NONE, "no verdict", "#aaaaaa", 1 },
};

static double fmin_finite(double a, double b)
{
	return isfinite(b) && !(b >= a) ? b : a;
}

static double fmax_finite(double a, double b)
{
	return isfinite(b) && !(b <= a) ? b : a;
}

/*
 * One row per case, one panel per variant against the baseline: the ratio
 * of the primary metric's medians with its interval at the model's level,
 * the layouts' range over the baseline's median as a band behind it, the
 * mark by verdict, and 1 +- min_effect shaded.  The data, one line per
 * case and panel (index = panel): row, ratio, interval low and high, band
 * low and high (NaN without layouts), verdict mark (forest_marks' index),
 * case.
 */
void kb_report_plot_forest(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	double lo = 1 - m->o.min_effect, hi = 1 + m->o.min_effect;
	size_t panels = 0, used[KB_ARRAY_SIZE(forest_marks)] = { 0 };
	char *unit = kb_plot_text(mt->unit);
	struct kb_inline *caption;
	struct plot p;

	if (m->baseline >= m->nv || !m->nc || m->nv < 2)
		goto out;
	/* the panels side by side, a row of 17 px per case, 8 rows at least */
	plot_open_size(&p, 120 + 500 * (m->nv - 1), 110 + 17 * (m->nc > 8 ? m->nc : 8));
	for (size_t v = 0; v < m->nv; v++) {
		size_t points = 0;

		if (v == m->baseline)
			continue;
		for (size_t c = 0; c < m->nc; c++) {
			const struct kb_row *r = kb_model_row(m, c, m->primary, v);
			const struct kb_row *b = kb_model_row(m, c, m->primary, m->baseline);
			struct kb_interval ci = r->t.done ? r->t.ratio_ci : (struct kb_interval){ NAN, NAN };
			double blo = NAN, bhi = NAN;
			size_t k = 0;
			char *l;

			if (!isfinite(r->t.ratio))
				continue;
			if (r->by_layout && r->layouts && b->median > 0) {
				blo = r->lo / b->median;
				bhi = r->hi / b->median;
			}
			while (k + 1 < KB_ARRAY_SIZE(forest_marks) && forest_marks[k].v != r->t.verdict)
				k++;
			used[k]++;
			lo = fmin_finite(fmin_finite(fmin_finite(lo, r->t.ratio), ci.lo), blo);
			hi = fmax_finite(fmax_finite(fmax_finite(hi, r->t.ratio), ci.hi), bhi);
			l = kb_plot_label(m->cases[c]);
			fprintf(p.df, "%zu %.6g %.6g %.6g %.6g %.6g %zu %s\n", c, r->t.ratio,
				isfinite(ci.lo) ? ci.lo : r->t.ratio, isfinite(ci.hi) ? ci.hi : r->t.ratio,
				blo, bhi, k, l);
			free(l);
			points++;
		}
		if (!points)
			continue;
		fprintf(p.df, "\n\n");
		panels++;
	}
	if (!panels) {
		plot_close(&p, d, "forest");
		goto out;
	}
	fprintf(p.sf, "unset grid\nset grid xtics\nset key outside bottom center horizontal\nset multiplot layout 1,%zu\n"
		"set yrange [%zu.6:-0.6]\nset xrange [%g:%g]\nset xlabel '%s, ratio to the baseline'\n"
		"set object 1 rect from %g, graph 0 to %g, graph 1 fc rgb '#e4e4e4' fs solid 1.0 noborder behind\n"
		"set ytics (", panels, m->nc - 1, lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo), unit,
		1 - m->o.min_effect, 1 + m->o.min_effect);
	for (size_t c = 0; c < m->nc; c++) {
		char *l = kb_plot_label(m->cases[c]);

		fprintf(p.sf, "%s'%s' %zu", c ? ", " : "", l, c);
		free(l);
	}
	fputs(")\n", p.sf);
	for (size_t v = 0, i = 0; v < m->nv; v++) {
		char *vl, *bl;

		if (v == m->baseline)
			continue;
		vl = kb_plot_label(m->variants[v].name);
		bl = kb_plot_label(m->baseline_name);
		fprintf(p.sf, "set title '%s vs %s'\nplot 'plot.dat' index %zu using 5:1:5:6:($1-0.32):($1+0.32) "
			"with boxxyerror fs solid 0.5 noborder lc rgb '#9ec1e8' title 'layouts'' range'", vl, bl, i);
		for (size_t k = 0; k < KB_ARRAY_SIZE(forest_marks); k++)
			if (used[k])
				fprintf(p.sf, ", '' index %zu using ($7==%zu?$2:NaN):1:3:4 with xerrorbars pt %d ps 0.9 "
					"lw 1.5 lc rgb '%s' title '%s'", i, k, forest_marks[k].pt,
					forest_marks[k].colour, forest_marks[k].title);
		fputs("\n", p.sf);
		free(vl);
		free(bl);
		if (++i == panels)
			break;
	}
	fputs("unset multiplot\n", p.sf);
	p.series = panels;
	caption = plot_close(&p, d, "forest");
	if (caption) {
		kb_doc_str(caption, mt->label);
		kb_doc_fmt(caption, " (%s) against the baseline, per case: the ratio of medians with its %.0f%% "
			   "interval, marked by verdict; the band is the layouts' range over the baseline's "
			   "median, the grey zone 1 +- %g%% (min_effect).", kb_figure_kind_name(mt->source),
			   100 * m->o.level, 100 * m->o.min_effect);
	}
out:
	free(unit);
}

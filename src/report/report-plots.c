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

/* One row of a panel: what is drawn for a case and a variant, as ratios to
 * the baseline's median.  Each pair is NaN where there is none. */
struct forest_row {
	double ratio;
	struct kb_interval ci;		/* the ratio's interval (ratio where none) */
	struct kb_interval band;	/* the variant's layouts' range */
	struct kb_interval spread;	/* the baseline's replicates' range */
	size_t mark;			/* forest_marks' index */
};

/* Case c of variant v; 0 when it has a ratio, else -1. */
static int forest_row(const struct kb_model *m, size_t c, size_t v, struct forest_row *f)
{
	const struct kb_row *r = kb_model_row(m, c, m->primary, v);
	const struct kb_row *b = kb_model_row(m, c, m->primary, m->baseline);

	if (!isfinite(r->t.ratio))
		return -1;
	f->ratio = r->t.ratio;
	f->ci = r->t.done ? r->t.ratio_ci : (struct kb_interval){ NAN, NAN };
	if (!isfinite(f->ci.lo))
		f->ci.lo = f->ratio;
	if (!isfinite(f->ci.hi))
		f->ci.hi = f->ratio;
	f->band = f->spread = (struct kb_interval){ NAN, NAN };
	if (r->by_layout && r->layouts && b->median > 0)
		f->band = (struct kb_interval){ r->lo / b->median, r->hi / b->median };
	if (b->median > 0 && isfinite(b->lo) && isfinite(b->hi))
		f->spread = (struct kb_interval){ b->lo / b->median, b->hi / b->median };
	f->mark = 0;
	while (f->mark + 1 < KB_ARRAY_SIZE(forest_marks) && forest_marks[f->mark].v != r->t.verdict)
		f->mark++;
	return 0;
}

static double fmin_finite(double a, double b)
{
	return isfinite(b) && !(b >= a) ? b : a;
}

static double fmax_finite(double a, double b)
{
	return isfinite(b) && !(b <= a) ? b : a;
}

/* x as gnuplot reads it back from the script, so that what is clipped
 * here is what gnuplot clips. */
static double as_written(double x)
{
	char s[32];

	snprintf(s, sizeof(s), "%.6g", x);
	return strtod(s, NULL);
}

/* The clipped ends on one side of a row, as the label at the axis edge
 * says them: "1.540 · band 1.620 →" (right) or "← 0.600" (left), in buf;
 * the label's length, 0 if nothing is cut on that side. */
static size_t forest_clipped(char *buf, size_t size, const struct forest_row *fr, double lo, double hi,
			     int right)
{
	const struct { const char *what; double x; } ends[] = {
		{ "", right ? fr->ci.hi : fr->ci.lo },
		{ "band ", right ? fr->band.hi : fr->band.lo },
		{ "spread ", right ? fr->spread.hi : fr->spread.lo },
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < KB_ARRAY_SIZE(ends); i++) {
		if (!isfinite(ends[i].x) || (right ? !(ends[i].x > hi) : !(ends[i].x < lo)))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s%.3f",
				      n ? " \xc2\xb7 " : right ? "" : "\xe2\x86\x90 ", ends[i].what, ends[i].x);
		if (n >= size)
			return 0;
	}
	if (n && right)
		n += (size_t)snprintf(buf + n, size - n, " \xe2\x86\x92");
	return n < size ? n : 0;
}

/*
 * One row per case, one panel per variant against the baseline: the ratio
 * of the primary metric's medians with its interval at the model's level,
 * the layouts' range over the baseline's median as a band behind it, the
 * baseline's own spread (its replicates' range over its median) as an
 * outline around 1, the mark by verdict, and 1 +- min_effect shaded.  The
 * axis holds every mark and that zone; an interval, band or spread that
 * would stretch it by more than 1.5 times that width (0.05 at least) on a
 * side is cut at the edge, where a label gives its end ("1.540 ->").  The
 * data, one line per case and panel (index = panel): row, ratio, interval
 * low and high, band low and high (NaN without layouts), verdict mark
 * (forest_marks' index), the baseline's spread low and high, case.
 */
void kb_report_plot_forest(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	double core_lo = 1 - m->o.min_effect, core_hi = 1 + m->o.min_effect;
	double lo, hi, span, pad;
	size_t panels = 0, used[KB_ARRAY_SIZE(forest_marks)] = { 0 };
	char *unit = kb_plot_text(mt->bare_unit ? mt->bare_unit : mt->unit);
	char *model = kb_plot_text(mt->model ? mt->model : "");
	char *bl = NULL;
	struct kb_inline *caption;
	struct forest_row fr;
	struct plot p;

	if (m->baseline >= m->nv || !m->nc || m->nv < 2)
		goto out;
	bl = kb_plot_label(m->baseline_name);
	/* the marks and the zone first: they are never cut */
	for (size_t v = 0; v < m->nv; v++)
		for (size_t c = 0; v != m->baseline && c < m->nc; c++)
			if (!forest_row(m, c, v, &fr)) {
				core_lo = fmin_finite(core_lo, fr.ratio);
				core_hi = fmax_finite(core_hi, fr.ratio);
			}
	span = 1.5 * (core_hi - core_lo) > 0.05 ? 1.5 * (core_hi - core_lo) : 0.05;
	lo = core_lo;
	hi = core_hi;
	/* the panels side by side, a row of 17 px per case, 8 rows at least,
	 * and room for a two-line axis label and a key of three rows */
	plot_open_size(&p, 120 + 500 * (m->nv - 1), 150 + 17 * (m->nc > 8 ? m->nc : 8));
	for (size_t v = 0; v < m->nv; v++) {
		size_t points = 0;

		if (v == m->baseline)
			continue;
		for (size_t c = 0; c < m->nc; c++) {
			char *l;

			if (forest_row(m, c, v, &fr))
				continue;
			used[fr.mark]++;
			lo = fmin_finite(fmin_finite(fmin_finite(lo, fr.ci.lo), fr.band.lo), fr.spread.lo);
			hi = fmax_finite(fmax_finite(fmax_finite(hi, fr.ci.hi), fr.band.hi), fr.spread.hi);
			l = kb_plot_label(m->cases[c]);
			fprintf(p.df, "%zu %.6g %.6g %.6g %.6g %.6g %zu %.6g %.6g %s\n", c, fr.ratio, fr.ci.lo,
				fr.ci.hi, fr.band.lo, fr.band.hi, fr.mark, fr.spread.lo, fr.spread.hi, l);
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
	lo = lo < core_lo - span ? core_lo - span : lo;
	hi = hi > core_hi + span ? core_hi + span : hi;
	pad = 0.02 * (hi - lo);
	lo = as_written(lo - pad);
	hi = as_written(hi + pad);
	fprintf(p.sf, "set encoding utf8\nunset grid\nset grid xtics\nset key outside bottom center horizontal\n"
		"set multiplot layout 1,%zu\nset yrange [%zu.6:-0.6]\nset xrange [%.6g:%.6g]\n"
		"set object 1 rect from %.6g, graph 0 to %.6g, graph 1 fc rgb '#e4e4e4' fs solid 1.0 noborder behind\n"
		"set style textbox opaque fc rgb '#ffffff' noborder margins 1,1\n"
		"set ytics (", panels, m->nc - 1, lo, hi, 1 - m->o.min_effect, 1 + m->o.min_effect);
	for (size_t c = 0; c < m->nc; c++) {
		char *l = kb_plot_label(m->cases[c]);

		fprintf(p.sf, "%s'%s' %zu", c ? ", " : "", l, c);
		free(l);
	}
	fputs(")\n", p.sf);
	for (size_t v = 0, i = 0; v < m->nv; v++) {
		size_t labels = 0;
		char *vl, cut[128];

		if (v == m->baseline)
			continue;
		vl = kb_plot_label(m->variants[v].name);
		/* which way is better, and what the figures are (the metric's kind
		 * and the machine model it rests on) */
		fprintf(p.sf, "unset label\nset title '%s vs %s'\n"
			"set xlabel \"ratio to %s of %s (%s%s%s)\\n\xe2\x86\x90 %s faster \xc2\xb7 lower is better "
			"\xc2\xb7 %s slower \xe2\x86\x92\"\n", vl, bl, bl, unit, kb_figure_kind_name(mt->source),
			*model ? ", " : "", model, vl, vl);
		for (size_t c = 0; c < m->nc; c++) {
			if (forest_row(m, c, v, &fr))
				continue;
			for (int right = 0; right < 2; right++)
				if (forest_clipped(cut, sizeof(cut), &fr, lo, hi, right))
					fprintf(p.sf, "set label %zu \"%s\" at %.6g, %zu %s front boxed "
						"textcolor rgb '#333333' offset %s0.3,0\n", ++labels, cut,
						right ? hi : lo, c, right ? "right" : "left", right ? "-" : "");
		}
		fprintf(p.sf, "plot 'plot.dat' index %zu using 5:1:5:6:($1-0.32):($1+0.32) with boxxyerror "
			"fs solid 0.5 noborder lc rgb '#9ec1e8' title 'layouts'' range', "
			"'' index %zu using (1):1:8:9:($1-0.16):($1+0.16) with boxxyerror fs empty "
			"border lc rgb '#555555' lc rgb '#555555' lw 1 title '%s''s spread', "
			"keyentry with boxes fs solid 1.0 noborder fc rgb '#e4e4e4' title '1 \xc2\xb1 %g%% (min_effect)'",
			i, i, bl, 100 * m->o.min_effect);
		for (size_t k = 0; k < KB_ARRAY_SIZE(forest_marks); k++)
			if (used[k])
				fprintf(p.sf, ", '' index %zu using ($7==%zu?$2:NaN):1:3:4 with xerrorbars pt %d ps 0.9 "
					"lw 1.5 lc rgb '%s' title '%s'", i, k, forest_marks[k].pt,
					forest_marks[k].colour, forest_marks[k].title);
		fputs("\n", p.sf);
		free(vl);
		if (++i == panels)
			break;
	}
	fputs("unset multiplot\n", p.sf);
	p.series = panels;
	caption = plot_close(&p, d, "forest");
	if (caption) {
		kb_doc_str(caption, mt->label);
		kb_doc_fmt(caption, " (%s) against the baseline, per case: the ratio of medians with its %.0f%% "
			   "interval, marked by verdict; left of 1 is faster. The band is the layouts' range "
			   "over the baseline's median, the outline around 1 the baseline's own spread (its "
			   "replicates' range over its median), the grey zone 1 +- %g%% (min_effect); an end "
			   "past the axis is cut there and labelled with its value.",
			   kb_figure_kind_name(mt->source), 100 * m->o.level, 100 * m->o.min_effect);
	}
out:
	free(bl);
	free(model);
	free(unit);
}

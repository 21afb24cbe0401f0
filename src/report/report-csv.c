// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.csv: one row per case, metric and variant, with every figure the
 * report shows for it (size, interval, ratio, test, correlation) and the
 * per-boot medians, for spreadsheets and R.  The CSV escaping rules are
 * here and nowhere else. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report.h"
#include "util.h"

/* RFC 4180 quoting; a text cell that a spreadsheet would take for a
 * formula gets a leading apostrophe (it came from the config or guest). */
static void text(FILE *f, const char *s)
{
	fputc('"', f);
	if (*s && strchr("=+-@\t\r", *s))
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputs("\",", f);
}

static void number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	fputc(',', f);
}

static void boolean(FILE *f, int known, int v)
{
	fprintf(f, "%s,", known ? (v ? "true" : "false") : "");
}

static const char *const columns[] = {
	"case", "metric", "unit", "source", "variant", "text", "text_change", "boots", "samples",
	"median", "ci_lo", "ci_hi", "ratio", "ratio_lo", "ratio_hi", "u", "p", "p_exact", "p_holm",
	"cliffs_delta", "effect", "verdict", "outlier_boots", "outlier_samples", "spearman_rho",
	"spearman_p", "smallest_is_cheapest", "boot_medians", "difference", "superiority", "layouts",
	"layout_medians", "builds", "build_medians", "verdict_lo", "verdict_hi", "test_unit",
};

static const struct kb_correlation *correlation_of(const struct kb_model *m, const struct kb_row *r)
{
	for (size_t i = 0; i < m->ncorr; i++)
		if (m->corr[i].cas == r->cas && m->corr[i].metric == r->metric)
			return &m->corr[i];
	return NULL;
}

/* One row per result of a model (the run's, or its boot_timing). */
static void rows(FILE *f, const struct kb_model *m)
{
	for (size_t i = 0; m && i < m->nrows; i++) {
		const struct kb_row *r = &m->rows[i];
		const struct kb_test *t = &r->t;
		const struct kb_metric *mt = &m->metrics[r->metric];
		const struct kb_model_variant *v = &m->variants[r->variant];
		const struct kb_correlation *c = correlation_of(m, r);

		text(f, m->cases[r->cas]);
		text(f, mt->name);
		text(f, mt->unit);
		text(f, kb_figure_kind_name(mt->source));
		text(f, v->name);
		number(f, v->has_size ? (double)v->text : NAN);
		number(f, v->text_change);
		number(f, (double)r->boots);
		number(f, (double)r->samples);
		number(f, r->median);
		number(f, r->ci.lo);
		number(f, r->ci.hi);
		number(f, t->ratio);
		number(f, t->done ? t->ratio_ci.lo : NAN);
		number(f, t->done ? t->ratio_ci.hi : NAN);
		number(f, t->done ? t->u : NAN);
		number(f, t->done ? t->p : NAN);
		boolean(f, t->done, t->p_exact);
		number(f, t->decided ? t->p_holm : NAN);
		number(f, t->done ? t->cliffs_delta : NAN);
		text(f, t->done ? t->effect : "");
		text(f, kb_verdict_name(t->verdict));
		for (size_t k = 0; k < r->n_outlier_boots; k++)
			fprintf(f, "%s%lld", k ? " " : "", r->outlier_boots[k]);
		fputc(',', f);
		number(f, (double)r->outlier_samples);
		number(f, c ? c->rho : NAN);
		number(f, c ? c->p : NAN);
		boolean(f, c != NULL, c && c->smallest_is_fastest);
		for (size_t k = 0; k < r->boots; k++)
			fprintf(f, "%s%.15g", k ? " " : "", r->boot_medians[k]);
		fputc(',', f);
		number(f, t->done ? t->difference : NAN);
		number(f, t->done ? t->superiority : NAN);
		number(f, r->by_layout ? (double)r->layouts : NAN);
		for (size_t k = 0; r->by_layout && k < r->layouts; k++)
			fprintf(f, "%s%.15g", k ? " " : "", r->layout_medians[k]);
		fputc(',', f);
		number(f, r->by_layout ? (double)r->builds : NAN);
		for (size_t k = 0; r->by_layout && k < r->builds; k++)
			fprintf(f, "%s%.15g", k ? " " : "", r->build_medians[k]);
		fputc(',', f);
		number(f, t->done ? t->verdict_ci.lo : NAN);
		number(f, t->done ? t->verdict_ci.hi : NAN);
		fprintf(f, "%s\n", t->done ? kb_unit_name(t->unit) : "");
	}
}

static int write_csv(FILE *f, const struct kb_report_ctx *ctx)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(columns); i++)
		fprintf(f, "%s%c", columns[i], i + 1 < KB_ARRAY_SIZE(columns) ? ',' : '\n');
	rows(f, ctx->model);
	rows(f, ctx->model->boot_timing);
	return 0;
}

const struct kb_report_writer kb_report_csv = { "CSV summary", "summary.csv", write_csv };

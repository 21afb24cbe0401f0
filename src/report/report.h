/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_REPORT_H
#define KB_REPORT_H

/*
 * The report of a run directory, from its result model (model.h): the
 * sections are built once as a document (report-sections.c,
 * report-plots.c) and rendered as report.md and report.html by the
 * document's emitters (doc.h); summary.json, summary.csv and each
 * variants/<name>/bloat-vs-<baseline>.txt are written from the model.
 */

#include <stdio.h>

#include "doc.h"
#include "model.h"

/* --confidence LEVEL: for the intervals, and 1 - LEVEL for the verdicts. */
int kb_report_parse_confidence(const char *arg, struct kb_model_opts *o);

struct kb_explain;

/* What every writer reads, all borrowed. */
struct kb_report_ctx {
	const char *run_dir;
	const struct kb_model *model;
	const struct kb_doc *doc;	/* the sections, for report.md and report.html */
	const struct kb_explain *explain;	/* kbench explain's figures (explain.h), or NULL */
};

/* One output format: one file in the run directory, written from the
 * context into f (a memory stream; the caller writes it atomically).
 * Returns 0, or -1 after a message. */
struct kb_report_writer {
	const char *name;
	const char *file;
	int (*write)(FILE *f, const struct kb_report_ctx *ctx);
};

extern const struct kb_report_writer kb_report_md, kb_report_html, kb_report_json, kb_report_csv;

/* The document of ctx as Markdown, as HTML: the writes of kb_report_md and
 * kb_report_html, for any other document's writers too (explain.md). */
int kb_report_doc_md(FILE *f, const struct kb_report_ctx *ctx);
int kb_report_doc_html(FILE *f, const struct kb_report_ctx *ctx);
/* Each of the n writers' files into ctx->run_dir, atomically; one not
 * written is said and does not stop the others.  0, or -1. */
int kb_report_write_files(const struct kb_report_writer *const *w, size_t n,
			  const struct kb_report_ctx *ctx);

/* A table row for a terminal: one case of one variant (borrowed). */
struct kb_term_row {
	const char *cas, *variant;
	double text_change;		/* NAN: not known */
	const struct kb_test *t;
	const char *models;		/* the verdict under the other cycle models
					 * ("same", "flips"): a column where a row
					 * has it; NULL: none */
};

/*
 * The verdict table for a terminal (report-term.c): title, a head, then
 * case, variant, text change, the ratio with the verdict's interval, and
 * the verdict, aligned; the verdict in colour where color is set.  Strings
 * are shown with their control characters as '?'.
 */
void kb_report_term_table(FILE *f, const char *title, const struct kb_term_row *rows, size_t n, int color);
/* That table for a run: the primary metric, each variant against the baseline. */
void kb_report_term(FILE *f, const struct kb_model *m, int color);
/* The answer in one line per variant off the baseline (kb_claim.line), in
 * bold where color is set: what kbench run and kbench report print last. */
void kb_report_term_answer(FILE *f, const struct kb_model *m, int color);
/* --no-color: no colour in this process. */
void kb_report_term_no_color(void);
/* Whether to colour what goes to f: a terminal, no --no-color, NO_COLOR unset or empty. */
int kb_report_term_color(FILE *f);
/* Write every file of the report into run_dir (each atomically), with the
 * statistics' options o (kbench report --confidence), then the verdict
 * table on term (NULL: none; coloured where kb_report_term_color(term)
 * says) whether or not the files could be written, the path of report.md
 * where they were, and last the answer lines.  0, or -1 after a message. */
int kb_report_write_term(const char *run_dir, const struct kb_model_opts *o, FILE *term);

/* Every section of the report, in order, into d (report-sections.c). */
void kb_report_document(struct kb_doc *d, const struct kb_model *m);
/* The functions whose modeled cycles grow while their instructions do not
 * (report-cycles.c): a section of Details, after the miss-o-meter's, where
 * present says the run has it (a sim run's miss-o-meter). */
int kb_report_cycles_present(const struct kb_model *m);
void kb_report_cycles_section(struct kb_doc *d, const struct kb_model *m);
/* The plots, figures that only report.html shows (report-plots.c). */
void kb_report_plot_size(struct kb_doc *d, const struct kb_model *m);
void kb_report_plot_cost(struct kb_doc *d, const struct kb_model *m);
void kb_report_plot_sweeps(struct kb_doc *d, const struct kb_model *m);
void kb_report_plot_size_cost(struct kb_doc *d, const struct kb_model *m);
/* The forest plot of the first screen: per case, the primary metric's
 * ratio to the baseline with its interval and the layouts' range, marked
 * by verdict; one panel per variant. */
void kb_report_plot_forest(struct kb_doc *d, const struct kb_model *m);

/* Figures as the report writes them, for kb_doc_fmt("%s", x.s). */
struct kb_num {
	char s[64];
};
/* %.1f at 100 and above, else 4 significant digits; "n/a" when undefined. */
struct kb_num kb_report_fig(double v);
/* "-34.2%", "n/a" when undefined. */
struct kb_num kb_report_pct(double fraction);
/* 3 decimals, or scientific below 0.001; "n/a" when undefined. */
struct kb_num kb_report_p(double p);
/* A test's Holm-adjusted p, "deterministic" where there is no test (the
 * identical counts of one layout), "n/a" where there is no figure. */
struct kb_num kb_report_test_p(const struct kb_test *t);
/* Cliff's delta: "+0.22", "-1.00". */
struct kb_num kb_report_delta(double d);
/* "0.820 [0.790, 0.860]": a test's ratio and its interval; "n/a". */
struct kb_num kb_report_ratio_ci(const struct kb_test *t);
/* The interval the verdict reads (at its family's level): "[lo, hi] (99.74%)". */
struct kb_num kb_report_verdict_ci(const struct kb_test *t);

#endif

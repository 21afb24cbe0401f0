// SPDX-License-Identifier: GPL-2.0-or-later
/* The report of a run directory, from what the directory holds: the model
 * is built once from its files, the sections once from the model, and each
 * writer writes one file from them, so the report can always be written
 * again (kbench report RUN_DIR) and never depends on memory. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

int kb_report_doc_md(FILE *f, const struct kb_report_ctx *ctx)
{
	kb_doc_emit(f, ctx->doc, &kb_doc_markdown);
	return 0;
}

int kb_report_doc_html(FILE *f, const struct kb_report_ctx *ctx)
{
	kb_doc_emit(f, ctx->doc, &kb_doc_html);
	return 0;
}

const struct kb_report_writer kb_report_md = { "markdown report", "report.md", kb_report_doc_md };
const struct kb_report_writer kb_report_html = { "HTML report", "report.html", kb_report_doc_html };

static const struct kb_report_writer *const writers[] = {
	&kb_report_md, &kb_report_json, &kb_report_csv, &kb_report_html,
};

/* variants/<name>/bloat-vs-<baseline>.txt: bloat-o-meter's whole output for
 * each variant, which the report links.  A file that cannot be written is
 * an error (-1; the report itself is still written): the report would link
 * a file that is not there. */
static int write_bloat_lists(const struct kb_report_ctx *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < ctx->model->nbloat; i++) {
		const struct kb_bloat_figures *b = &ctx->model->bloat[i];
		char *path;

		if (!b->full_path)
			continue;
		path = kb_xasprintf("%s/%s", ctx->run_dir, b->full_path);
		if (kb_write_file_atomic(path, b->full_text, strlen(b->full_text)) < 0) {
			kb_error("%s: bloat-o-meter's list not written", path);
			ret = -1;
		}
		free(path);
	}
	return ret;
}

int kb_report_write_files(const struct kb_report_writer *const *w, size_t n,
			  const struct kb_report_ctx *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		char *text = NULL, *path = kb_xasprintf("%s/%s", ctx->run_dir, w[i]->file);
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		int r;

		if (!f)
			abort();
		r = w[i]->write(f, ctx);
		fclose(f);
		if (r == 0)
			r = kb_write_file_atomic(path, text, len);
		if (r < 0) {
			kb_error("%s: %s not written", path, w[i]->name);
			ret = -1;
		}
		free(text);
		free(path);
	}
	return ret;
}

/* The report's files, then the terminal's table on term (NULL: none). */
static int write_all(const char *run_dir, const struct kb_model_opts *o, FILE *term)
{
	struct kb_model *m = kb_model_load(run_dir, o);
	struct kb_report_ctx ctx = { run_dir, m, NULL, NULL };
	struct kb_doc doc;
	int ret = 0;

	if (!m)
		return -1;
	kb_doc_init(&doc, kb_pool_printf(&m->pool, "kbench report %s", m->run_id));
	kb_report_document(&doc, m);
	ctx.doc = &doc;
	ret = write_bloat_lists(&ctx);
	if (kb_report_write_files(writers, KB_ARRAY_SIZE(writers), &ctx) < 0)
		ret = -1;
	kb_doc_release(&doc);
	if (term) {
		kb_report_term(term, m, kb_report_term_color(term));
		if (ret == 0)
			fprintf(term, "%s/report.md\n", run_dir);
		/* last, as hyperfine's Summary: the answer in one line */
		kb_report_term_answer(term, m, kb_report_term_color(term));
	}
	kb_model_free(m);
	return ret;
}

int kb_report_write_term(const char *run_dir, const struct kb_model_opts *o, FILE *term)
{
	return write_all(run_dir, o, term);
}

int kb_report_parse_confidence(const char *arg, struct kb_model_opts *o)
{
	char *end;
	double c = strtod(arg, &end);

	if (!*arg || *end || !(c >= 0.5 && c < 1)) {
		kb_error("--confidence '%s': want a level between 0.5 and 1, e.g. 0.95", arg);
		return -1;
	}
	o->level = c;
	o->alpha = 1 - c;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.csv: one row per case, metric and variant, with every figure the
 * report shows for it (size, interval, ratio, test, correlation) and the
 * per-boot medians, for spreadsheets and R. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "report.h"
#include "summary.h"
#include "util.h"

#define str kb_report_str

/* RFC 4180 quoting; a text cell that a spreadsheet would take for a
 * formula gets a leading apostrophe (it came from the config or guest). */
static void text(FILE *f, const char *s, int last)
{
	fputc('"', f);
	if (strchr("=+-@\t\r", *s) && *s)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
	fputc(last ? '\n' : ',', f);
}

static void number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	fputc(',', f);
}

static double elem(json_t *arr, size_t i)
{
	json_t *x = json_array_get(arr, i);

	return json_is_number(x) ? json_number_value(x) : NAN;
}

static const char *const columns[] = {
	"case", "metric", "unit", "source", "variant", "text", "text_change", "boots", "samples",
	"median", "ci_lo", "ci_hi", "ratio", "ratio_lo", "ratio_hi", "u", "p", "p_exact", "p_holm",
	"cliffs_delta", "effect", "verdict", "outlier_boots", "outlier_samples", "spearman_rho",
	"spearman_p", "smallest_is_cheapest", "boot_medians",
};

static json_t *correlation_of(json_t *model, json_t *r)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(model, "correlation"), i, c)
		if (!strcmp(str(c, "case"), str(r, "case")) && !strcmp(str(c, "metric"), str(r, "metric")))
			return c;
	return NULL;
}

/* One row per result of a model (the run's, or its boot_timing). */
static void rows(FILE *f, json_t *model)
{
	json_t *r, *x;
	size_t i, k;

	json_array_foreach(json_object_get(model, "results"), i, r) {
		json_t *m = kb_summary_metric(model, str(r, "metric")), *v = NULL, *c;
		json_t *ci = json_object_get(r, "ci"), *rci = json_object_get(r, "ratio_ci");
		char *list = kb_xstrdup(""), *outl = kb_xstrdup("");

		json_array_foreach(json_object_get(model, "variants"), k, x)
			if (!strcmp(str(x, "name"), str(r, "variant")))
				v = x;
		text(f, str(r, "case"), 0);
		text(f, str(r, "metric"), 0);
		text(f, str(m, "unit"), 0);
		text(f, str(m, "source"), 0);
		text(f, str(r, "variant"), 0);
		number(f, kb_summary_num(v, "text"));
		number(f, kb_summary_num(v, "text_change"));
		number(f, kb_summary_num(r, "boots"));
		number(f, kb_summary_num(r, "samples"));
		number(f, kb_summary_num(r, "median"));
		number(f, elem(ci, 0));
		number(f, elem(ci, 1));
		number(f, kb_summary_num(r, "ratio"));
		number(f, elem(rci, 0));
		number(f, elem(rci, 1));
		number(f, kb_summary_num(r, "u"));
		number(f, kb_summary_num(r, "p"));
		fprintf(f, "%s,", json_is_boolean(json_object_get(r, "p_exact")) ?
			(json_is_true(json_object_get(r, "p_exact")) ? "true" : "false") : "");
		number(f, kb_summary_num(r, "p_holm"));
		number(f, kb_summary_num(r, "cliffs_delta"));
		text(f, str(r, "effect"), 0);
		text(f, str(r, "verdict"), 0);
		json_array_foreach(json_object_get(r, "outlier_boots"), k, x) {
			char *n = kb_xasprintf("%s%s%lld", outl, k ? " " : "", (long long)json_integer_value(x));

			free(outl);
			outl = n;
		}
		fprintf(f, "%s,", outl);
		number(f, kb_summary_num(r, "outlier_samples"));
		c = correlation_of(model, r);
		number(f, kb_summary_num(c, "rho"));
		number(f, kb_summary_num(c, "p"));
		fprintf(f, "%s,", c ? (json_is_true(json_object_get(c, "smallest_is_fastest")) ? "true" : "false") : "");
		json_array_foreach(json_object_get(r, "boot_medians"), k, x) {
			char *n = kb_xasprintf("%s%s%.15g", list, k ? " " : "", json_number_value(x));

			free(list);
			list = n;
		}
		fprintf(f, "%s\n", list);
		free(list);
		free(outl);
	}
}

static int write_csv(FILE *f, const struct kb_report_ctx *ctx)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(columns); i++)
		fprintf(f, "%s%c", columns[i], i + 1 < KB_ARRAY_SIZE(columns) ? ',' : '\n');
	rows(f, ctx->model);
	rows(f, json_object_get(ctx->model, "boot_timing"));
	return 0;
}

const struct kb_report_writer kb_report_csv = { "CSV summary", "summary.csv", write_csv };

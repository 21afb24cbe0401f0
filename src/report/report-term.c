// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict table for a terminal (hyperfine's ending): what kbench run,
 * kbench report and kbench compare print before the report's path, one
 * aligned row per case and variant, the verdict coloured only where stdout
 * is a terminal and neither --no-color nor NO_COLOR (no-color.org) says
 * otherwise.  Every string from a run directory is shown with its control
 * characters as '?', as kb_print_tail shows a guest's serial log. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

static int no_color;

void kb_report_term_no_color(void)
{
	no_color = 1;
}

int kb_report_term_color(FILE *f)
{
	const char *e = getenv("NO_COLOR");

	return !no_color && !(e && *e) && isatty(fileno(f));
}


/* "0.902 [0.871, 0.934]": the ratio with the interval the verdict reads. */
static struct kb_num ratio_ci(const struct kb_test *t)
{
	struct kb_num n;

	if (!t->done || isnan(t->ratio))
		snprintf(n.s, sizeof(n.s), "n/a");
	else if (isinf(t->ratio))
		snprintf(n.s, sizeof(n.s), "%sinf", t->ratio < 0 ? "-" : "");
	else if (isfinite(t->verdict_ci.lo) && isfinite(t->verdict_ci.hi) && t->verdict_ci.hi > t->verdict_ci.lo)
		snprintf(n.s, sizeof(n.s), "%.3f [%.3f, %.3f]", t->ratio, t->verdict_ci.lo, t->verdict_ci.hi);
	else
		snprintf(n.s, sizeof(n.s), "%.3f", t->ratio);
	return n;
}

/* SGR colours: green faster, red slower, yellow undecided; the rest plain */
static const char *verdict_color(enum kb_verdict v)
{
	switch (v) {
	case KB_VERDICT_FASTER:
		return "\033[32m";
	case KB_VERDICT_SLOWER:
		return "\033[31m";
	case KB_VERDICT_UNDECIDED:
	case KB_VERDICT_ONE_LAYOUT:
		return "\033[33m";
	default:
		return NULL;
	}
}

#define NAME_MAX_SHOWN 65	/* a variant name's 64, or a case's, and the NUL */

struct cells {
	char cas[NAME_MAX_SHOWN], variant[NAME_MAX_SHOWN];
	struct kb_num text, ratio;
};

static void widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

void kb_report_term_table(FILE *f, const char *title, const struct kb_term_row *rows, size_t n, int color)
{
	static const char *const heads[] = { "case", "variant", "text", "ratio [CI]", "verdict", "models" };
	struct cells *c = kb_xcalloc(n ? n : 1, sizeof(*c));
	int w[5], models = 0;
	char buf[256];

	for (size_t k = 0; k < KB_ARRAY_SIZE(w); k++)
		w[k] = (int)strlen(heads[k]);
	for (size_t i = 0; i < n; i++) {
		models |= rows[i].models != NULL;
		if (rows[i].t->verdict == KB_VERDICT_NONE)
			widen(&w[4], "no data");
		else
			widen(&w[4], kb_verdict_name(rows[i].t->verdict));
		kb_term_inert(c[i].cas, sizeof(c[i].cas), rows[i].cas);
		kb_term_inert(c[i].variant, sizeof(c[i].variant), rows[i].variant);
		c[i].text = kb_report_pct(rows[i].text_change);
		c[i].ratio = ratio_ci(rows[i].t);
		widen(&w[0], c[i].cas);
		widen(&w[1], c[i].variant);
		widen(&w[2], c[i].text.s);
		widen(&w[3], c[i].ratio.s);
	}
	fprintf(f, "%s\n", kb_term_inert(buf, sizeof(buf), title));
	fprintf(f, "%-*s  %-*s  %*s  %-*s  %s", w[0], heads[0], w[1], heads[1], w[2], heads[2], w[3], heads[3],
		heads[4]);
	if (models)	/* the verdict's column padded only where one follows */
		fprintf(f, "%*s  %s", w[4] - (int)strlen(heads[4]), "", heads[5]);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		enum kb_verdict v = rows[i].t->verdict;
		const char *on = color ? verdict_color(v) : NULL, *vn = v == KB_VERDICT_NONE ? "no data" : kb_verdict_name(v);

		fprintf(f, "%-*s  %-*s  %*s  %-*s  %s%s%s", w[0], c[i].cas, w[1], c[i].variant, w[2], c[i].text.s,
			w[3], c[i].ratio.s, on ? on : "", vn, on ? "\033[0m" : "");
		if (models)
			fprintf(f, "%*s  %s", w[4] - (int)strlen(vn), "", rows[i].models ? rows[i].models : "");
		fputc('\n', f);
	}
	free(c);
}

/* The level the verdicts' intervals are at, where every tested row's is
 * the same; 0 where they differ or none is tested. */
static double one_level(const struct kb_model *m)
{
	double level = 0;

	for (size_t i = 0; i < m->nrows; i++) {
		const struct kb_test *t = &m->rows[i].t;

		if (m->rows[i].metric != m->primary || !t->decided)
			continue;
		if (level && t->family_level != level)
			return 0;
		level = t->family_level;
	}
	return level;
}

static void term_counts(FILE *f, const size_t n[KB_VERDICT_N])
{
	for (size_t i = 0; i < KB_VERDICTS_SAID; i++)
		if (i < KB_VERDICTS_ALWAYS || n[kb_verdicts_said[i]])
			fprintf(f, "%s%s %zu", i ? ", " : "", kb_verdict_name(kb_verdicts_said[i]),
				n[kb_verdicts_said[i]]);
}

/* Per ordered variant, a line: its verdicts on the cases its order's
 * profile did not run (held out), then on those it did (trained). */
static void term_order_split(FILE *f, const struct kb_model *m)
{
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *mv = &m->variants[v];
		size_t held[KB_VERDICT_N], trained[KB_VERDICT_N], nheld, ntrained;
		char name[NAME_MAX_SHOWN];

		if (!mv->order || v == m->baseline)
			continue;
		kb_term_inert(name, sizeof(name), mv->name);
		if (kb_model_order_split(m, v, held, &nheld, trained, &ntrained) < 0) {
			fprintf(f, "%s is ordered; its order does not say which cases trained it: no case "
				"is held out\n", name);
			continue;
		}
		fprintf(f, "%s is ordered: on the %zu held-out case%s (its order's profile did not run "
			"them): ", name, nheld, nheld == 1 ? "" : "s");
		term_counts(f, held);
		fprintf(f, "; on the %zu it trained on: ", ntrained);
		term_counts(f, trained);
		fputc('\n', f);
	}
}

void kb_report_term(FILE *f, const struct kb_model *m, int color)
{
	const struct kb_metric *mt;
	struct kb_term_row *rows;
	size_t n = 0;
	double level;
	char *title, base[NAME_MAX_SHOWN], at[32];

	kb_term_inert(base, sizeof(base), m->baseline_name);
	if (!m->nm || !m->nc || m->baseline >= m->nv || m->nv < 2) {
		fprintf(f, "no variant to compare with the baseline '%s'\n", base);
		return;
	}
	mt = &m->metrics[m->primary];
	rows = kb_xcalloc(m->nc * m->nv, sizeof(*rows));
	for (size_t v = 0; v < m->nv; v++)
		for (size_t c = 0; c < m->nc; c++) {
			const struct kb_row *r = kb_model_row(m, c, m->primary, v);

			if (v == m->baseline || !r)
				continue;
			rows[n++] = (struct kb_term_row){ m->cases[c], m->variants[v].name,
							 m->variants[v].text_change, &r->t,
							 !m->nrobust ? NULL : r->robust == KB_ROBUST_SAME ? "same" :
							 r->robust == KB_ROBUST_FLIPS ? "flips" : "n/a" };
		}
	level = one_level(m);
	if (level)
		snprintf(at, sizeof(at), "%.4g%%", 100 * level);
	else
		snprintf(at, sizeof(at), "family's");
	/* "mca_cycles/op (modeled, LLVM skylake)": the machine model beside the kind */
	title = kb_xasprintf("%s (%s%s%s) and text against %s, ratio [the verdict's %s interval]%s:",
			     mt->bare_unit, kb_figure_kind_name(mt->source), *mt->model ? ", " : "", mt->model,
			     base, at, m->nrobust ? "; models: the verdict under the other models of cycles" : "");
	kb_report_term_table(f, title, rows, n, color);
	free(title);
	free(rows);
	term_order_split(f, m);
}

void kb_report_term_answer(FILE *f, const struct kb_model *m, int color)
{
	for (size_t i = 0; i < m->nclaims; i++) {
		size_t len = strlen(m->claims[i].line) + 1;
		char *s = kb_xmalloc(len);

		fprintf(f, "%s%s%s\n", color ? "\033[1m" : "", kb_term_inert(s, len, m->claims[i].line),
			color ? "\033[0m" : "");
		free(s);
	}
}

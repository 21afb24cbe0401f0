// SPDX-License-Identifier: GPL-2.0-or-later
/* --fail-on LIST (fail-on.h): which verdicts fail a run or a comparison,
 * and the line naming each case that does. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail-on.h"
#include "util.h"

enum { W_SLOWER, W_FASTER, W_UNDECIDED, W_ONE_LAYOUT, W_NOT_EQUIVALENT };

static const char *const words[] = {
	[W_SLOWER] = "slower",
	[W_FASTER] = "faster",
	[W_UNDECIDED] = "not-distinguishable",
	[W_ONE_LAYOUT] = "this-layout-only",
	[W_NOT_EQUIVALENT] = "not-equivalent",
};

const char *const *kb_fail_on_words(size_t *n)
{
	*n = KB_ARRAY_SIZE(words);
	return words;
}

int kb_fail_on_parse(struct kb_fail_on *f, const char *list, char **bad)
{
	struct kb_fail_on x = { 0 };
	const char *p = list;

	*bad = NULL;
	for (;;) {
		size_t len = strcspn(p, ","), w;

		for (w = 0; w < KB_ARRAY_SIZE(words); w++)
			if (strlen(words[w]) == len && !strncmp(words[w], p, len))
				break;
		if (w == KB_ARRAY_SIZE(words)) {
			*bad = kb_xstrndup(p, len);
			return -1;
		}
		/* a word given twice matches as once */
		{
			size_t i;

			for (i = 0; i < x.n && x.word[i] != (int)w; i++)
				;
			if (i == x.n && x.n < KB_FAIL_ON_MAX)
				x.word[x.n++] = (int)w;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*f = x;
	return 0;
}

static int matches(int word, enum kb_verdict v)
{
	switch (word) {
	case W_SLOWER: return v == KB_VERDICT_SLOWER;
	case W_FASTER: return v == KB_VERDICT_FASTER;
	case W_UNDECIDED: return v == KB_VERDICT_UNDECIDED;
	case W_ONE_LAYOUT: return v == KB_VERDICT_ONE_LAYOUT;
	case W_NOT_EQUIVALENT:
		return v != KB_VERDICT_NONE && v != KB_VERDICT_EQUIVALENT && v != KB_VERDICT_SAME;
	}
	return 0;
}

/* "1.146 [1.115, 1.189]": the ratio with the interval the verdict reads, as
 * the verdict table above it prints it (report-term.c). */
static void ratio_text(char *s, size_t size, const struct kb_test *t)
{
	if (!t->done || isnan(t->ratio))
		snprintf(s, size, "n/a");
	else if (isinf(t->ratio))
		snprintf(s, size, "%sinf", t->ratio < 0 ? "-" : "");
	else if (isfinite(t->verdict_ci.lo) && isfinite(t->verdict_ci.hi) && t->verdict_ci.hi > t->verdict_ci.lo)
		snprintf(s, size, "%.3f [%.3f, %.3f]", t->ratio, t->verdict_ci.lo, t->verdict_ci.hi);
	else
		snprintf(s, size, "%.3f", t->ratio);
}

/* The line of a matching row; 1 where it matched, else 0. */
static size_t one(const struct kb_fail_on *f, const char *variant, const char *cas, const struct kb_test *t)
{
	for (size_t i = 0; i < f->n; i++)
		if (matches(f->word[i], t->verdict)) {
			char r[96];

			ratio_text(r, sizeof(r), t);
			kb_error("--fail-on %s: %s %s: %s (ratio %s)", words[f->word[i]], variant, cas,
				 kb_verdict_name(t->verdict), r);
			return 1;
		}
	return 0;
}

size_t kb_fail_on_model(const struct kb_fail_on *f, const struct kb_model *m)
{
	size_t hits = 0;

	if (!m->nm)
		return 0;
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++)
			if (v != m->baseline)
				hits += one(f, m->variants[v].name, m->cases[c],
					    &kb_model_row(m, c, m->primary, v)->t);
	return hits;
}

size_t kb_fail_on_compare(const struct kb_fail_on *f, const struct kb_compare *c)
{
	const struct kb_model *b = c->b;
	size_t hits = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_compare_row *r = &c->rows[i];

		if (r->mb == b && r->b->metric == b->primary)
			hits += one(f, b->variants[r->b->variant].name, b->cases[r->b->cas], &r->t);
	}
	return hits;
}

int kb_fail_on_dir(const struct kb_fail_on *f, const char *run_dir, const struct kb_model_opts *o, int ret)
{
	struct kb_model *m = kb_model_load(run_dir, o);
	size_t hits;

	if (!m)
		return ret;
	fflush(stdout);	/* the lines come after the output */
	hits = kb_fail_on_model(f, m);
	kb_model_free(m);
	return hits && ret == KB_EXIT_OK ? KB_EXIT_VERDICT : ret;
}

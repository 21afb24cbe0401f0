/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_COMPARE_H
#define KB_COMPARE_H

/*
 * kbench compare RUN_A RUN_B: the same variants measured twice (two hosts,
 * two compilers, two days), with the same tests as within a run: B against
 * A per variant, case and metric, on the two runs' result models.
 */

#include <jansson.h>
#include <stdio.h>

#include "model.h"

struct kb_compare_row {
	const struct kb_row *a, *b;	/* the same case, metric and variant */
	const struct kb_model *mb;	/* b's model (the run's or its boot_timing) */
	struct kb_test t;		/* b against a */
};

struct kb_compare {
	const struct kb_model *a, *b;
	const char *dir_a, *dir_b;
	struct kb_model_opts o;
	char *not_comparable;		/* why the runs measured different things, a line each; "" */
	int layouts_differ;		/* built layouts, or virtual ones, not as many in A as in B */
	const char **only_a, **only_b;	/* variants of one run only, not compared (the models') */
	size_t n_only_a, n_only_b;
	struct kb_compare_row *rows;
	size_t n;
};

/* B's rows against A's: every variant, case and metric both have boots of,
 * tested and Holm-corrected as one family per metric and variant; whole
 * boots (hyperfine) as families of their own, as in the report.  What is
 * not alike is said, not refused: layouts, and variants of one run only. */
void kb_compare_init(struct kb_compare *c, const struct kb_model *a, const struct kb_model *b,
		     const char *dir_a, const char *dir_b, const struct kb_model_opts *o);
void kb_compare_release(struct kb_compare *c);
/* The comparison as markdown, and as JSON (a new reference): kbench
 * compare --json's document, format "kbench-compare-1" (its layout is the
 * comment above kb_compare_json in compare.c, and results/README.md's). */
void kb_compare_md(FILE *f, const struct kb_compare *c);
json_t *kb_compare_json(const struct kb_compare *c);

#endif

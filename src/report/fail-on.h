/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_FAIL_ON_H
#define KB_FAIL_ON_H

/*
 * --fail-on LIST of kbench run, report and compare: the primary metric's
 * verdicts that make the command exit KB_EXIT_VERDICT (and nothing else
 * does), each matching case named on stderr after the normal output, so
 * that CI can fail on a regression and tell it from a broken run.
 */

#include <stddef.h>

#include "compare.h"
#include "model.h"

/* --fail-on's help, in kbench run's, report's and compare's tables */
#define KB_FAIL_ON_HELP \
	"exit 4 where a verdict of the primary metric (off the baseline;\n" \
	"compare: B against A) is one LIST names, comma-separated: slower,\n" \
	"faster, not-distinguishable, this-layout-only, not-equivalent\n" \
	"(any verdict but equivalent and same); each such case is named\n" \
	"on stderr after the output (exit 4 means that alone)"

/* LIST's words, in its order (the first that matches a verdict names it). */
#define KB_FAIL_ON_MAX 8
struct kb_fail_on {
	size_t n;
	int word[KB_FAIL_ON_MAX];	/* indexes into kb_fail_on_words() */
};

/* Every word LIST may hold, in the order --help lists them: slower, faster,
 * not-distinguishable, this-layout-only, not-equivalent (any verdict but
 * equivalent and same). */
const char *const *kb_fail_on_words(size_t *n);
/* LIST (comma-separated words) into f.  0; or -1 with *bad the first word
 * that is not one (to free; "" for an empty word), f unchanged. */
int kb_fail_on_parse(struct kb_fail_on *f, const char *list, char **bad);
/* "kbench: --fail-on WORD: VARIANT CASE: VERDICT (ratio R [LO, HI])" (the
 * interval the verdict reads, as the verdict table shows it) on
 * stderr for each non-baseline row of m's primary metric that LIST
 * matches; the number of them. */
size_t kb_fail_on_model(const struct kb_fail_on *f, const struct kb_model *m);
/* The same over a comparison's rows of B's primary metric (B against A). */
size_t kb_fail_on_compare(const struct kb_fail_on *f, const struct kb_compare *c);
/* The run directory's model (opts o) through kb_fail_on_model: ret, or
 * KB_EXIT_VERDICT where ret is KB_EXIT_OK and a row matched; a model that
 * does not load leaves ret (its message said why). */
int kb_fail_on_dir(const struct kb_fail_on *f, const char *run_dir, const struct kb_model_opts *o, int ret);

#endif

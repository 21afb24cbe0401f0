/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KB_PRED_H
#define KB_PRED_H

/*
 * What a claim predicts: the kinds kbench can check, one [claim] key each
 * (conf.c), kept by name in manifest.json and summary.json and judged by
 * the model (model-claim.c).  A leaf: it includes nothing of kbench's.
 */

#include <string.h>

enum kb_pred_kind {
	KB_PRED_SMALLER,	/* A's text is smaller than B's */
	KB_PRED_FASTER,		/* A costs less than B on the primary metric */
	KB_PRED_SLOWER,		/* A costs more */
	KB_PRED_NOT_FASTER,	/* A does not cost less (slower, equivalent or the same) */
	KB_PRED_LAYOUT,		/* A and B differ only in layout, and that moves the cost */
	KB_PRED_KINDS
};

/* "smaller", "faster", "slower", "not_faster", "layout_sensitive": the
 * [claim] keys and the records' "kind" */
static inline const char *kb_pred_kind_name(enum kb_pred_kind k)
{
	static const char *const names[] = { "smaller", "faster", "slower", "not_faster",
					      "layout_sensitive" };

	return (size_t)k < sizeof(names) / sizeof(names[0]) ? names[k] : "";
}

/* The kind named s, or KB_PRED_KINDS for NULL or a name of none. */
static inline enum kb_pred_kind kb_pred_kind_from_name(const char *s)
{
	enum kb_pred_kind k = KB_PRED_SMALLER;

	while (s && k < KB_PRED_KINDS && strcmp(s, kb_pred_kind_name(k)))
		k++;
	return s ? k : KB_PRED_KINDS;
}

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* Claim vs measured (model.h): each prediction of variants.conf's [claim],
 * as the manifest keeps it, judged by the model's own figures.  Sizes are
 * the manifest's (binutils size); speed predictions take the verdicts of
 * the rows where B is the baseline, and otherwise test A against B with
 * the same functions the rows use (kb_model_versus, Holm over the
 * prediction's cases by kb_model_decide).  The word is never stronger than
 * those verdicts: what they call not distinguishable, equivalent or the
 * same supports nothing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model-input.h"
#include "model.h"
#include "stats.h"
#include "util.h"

const char *kb_word_name(enum kb_word w)
{
	static const char *const names[] = { "not distinguishable", "supported", "contradicted" };

	return (size_t)w < KB_ARRAY_SIZE(names) ? names[w] : "";
}

static void smaller(struct kb_model *m, struct kb_pred *x)
{
	const struct kb_model_variant *a = x->va < m->nv ? &m->variants[x->va] : NULL;
	const struct kb_model_variant *b = x->vb < m->nv ? &m->variants[x->vb] : NULL;
	double tc;

	x->backend = "size";
	x->source = KB_FIG_MEASURED;
	x->text_change = NAN;
	x->has_size = a && b && a->has_size && b->has_size && b->text > 0;
	if (!x->has_size) {
		x->word = KB_WORD_UNDISTINGUISHED;
		x->why = "no text size for one of the two (a build that failed, or a variant the run lacks)";
		return;
	}
	x->text_a = a->text;
	x->text_b = b->text;
	tc = x->text_change = (double)a->text / (double)b->text - 1;
	/* exact figures, but a change under min_effect is called no change,
	 * as the speed verdicts call one */
	if (tc <= -m->o.min_effect) {
		x->word = KB_WORD_SUPPORTED;
		x->why = "smaller by min_effect or more";
	} else if (tc >= m->o.min_effect) {
		x->word = KB_WORD_CONTRADICTED;
		x->why = "larger by min_effect or more";
	} else {
		x->word = KB_WORD_UNDISTINGUISHED;
		x->why = tc == 0 ? "the same text size" : "a text size difference under min_effect";
	}
}

/* The model's cases a prediction asks for, each once, in the model's order:
 * "all", a case, or a workload (its cases, e.g. icache/k=...); what names
 * no case is counted missing. */
static void pick_cases(struct kb_model *m, struct kb_pred *x, unsigned char *want)
{
	for (size_t i = 0; i < x->nasked; i++) {
		const char *n = x->asked[i];
		size_t l = strlen(n), hits = 0;

		for (size_t c = 0; c < m->nc; c++) {
			int hit = !strcmp(n, "all") || !strcmp(m->cases[c], n) ||
				  (!strncmp(m->cases[c], n, l) && m->cases[c][l] == '/');

			want[c] |= hit;
			hits += hit;
		}
		x->missing += !hits;
	}
}

static void judge_speed(const struct kb_model *m, struct kb_pred *x)
{
	enum kb_pred_kind kind = x->kind;
	long long judged = x->faster + x->slower + x->same + x->undecided + x->equivalent;
	int fast = kind == KB_PRED_FASTER;
	long long good = fast ? x->faster : x->slower, bad = fast ? x->slower : x->faster;
	long long none = x->same + x->equivalent;

	x->word = KB_WORD_UNDISTINGUISHED;
	if (!judged) {
		x->why = "no case asked for has measurements of both";
		return;
	}
	/* a word rests on verdicts made under layout control only: builds,
	 * or virtual layouts of the metric */
	if (m->nlayouts < 2 && !m->metrics[x->metric].virtual_layouts) {
		x->why = "one layout per variant and no virtual layouts: where the code lands, not the "
			 "flags, may make any difference ([run] layouts of 2 or more, or "
			 "sim_virtual_layouts, tell them apart)";
		return;
	}
	if (kind == KB_PRED_LAYOUT) {
		if (x->faster + x->slower && m->nlayouts >= 2) {
			x->word = KB_WORD_SUPPORTED;
			x->why = "faster or slower in at least one case, over builds and beyond min_effect";
		} else if (x->faster + x->slower) {
			x->why = "one build per variant: a difference there cannot be told from a move of "
				 "code ([run] layouts of 2 or more tell them apart)";
		} else if (none == judged) {
			x->word = KB_WORD_CONTRADICTED;
			x->why = "no case differs by min_effect or more";
		} else {
			x->why = "no case is faster or slower under layout control, and not every case is equivalent";
		}
		return;
	}
	if (kind == KB_PRED_NOT_FASTER) {
		if (x->faster) {
			x->word = KB_WORD_CONTRADICTED;
			x->why = "faster in at least one case";
		} else if (x->slower + none == judged && !x->missing) {
			x->word = KB_WORD_SUPPORTED;
			x->why = "slower, equivalent or the same in every case";
		} else {
			x->why = "not faster in any case, but not distinguishable in some";
		}
		return;
	}
	if (bad) {
		x->word = KB_WORD_CONTRADICTED;
		x->why = kind == KB_PRED_FASTER ? "slower in at least one case" : "faster in at least one case";
	} else if (good == judged && !x->missing) {
		x->word = KB_WORD_SUPPORTED;
		x->why = kind == KB_PRED_FASTER ? "faster in every case" : "slower in every case";
	} else if (none == judged) {
		x->word = KB_WORD_CONTRADICTED;
		x->why = "no case differs by min_effect or more";
	} else {
		x->why = kind == KB_PRED_FASTER ? "not faster in every case, slower in none"
					: "not slower in every case, faster in none";
	}
}

/* The prediction judged on metric k. */
static void speed_on(struct kb_model *m, struct kb_pred *x, gsl_rng *rng, size_t k)
{
	unsigned char *want = kb_xcalloc(m->nc + 1, 1);
	struct kb_test **tests;
	size_t *family;

	x->backend = m->backend;
	x->metric = k;
	x->source = m->nm ? m->metrics[k].source : KB_FIG_MEASURED;
	x->own_tests = x->vb != m->baseline;
	pick_cases(m, x, want);
	x->per_case = kb_pool_array(&m->pool, m->nc + 1, sizeof(*x->per_case));
	for (size_t c = 0; c < m->nc; c++) {
		const struct kb_row *ra = kb_model_row(m, c, k, x->va);
		const struct kb_row *rb = kb_model_row(m, c, k, x->vb);
		struct kb_pred_case *pc;

		if (!want[c])
			continue;
		if (!ra || !rb || !ra->boots || !rb->boots) {
			x->missing++;
			continue;
		}
		pc = &x->per_case[x->ncases++];
		pc->cas = c;
		if (!x->own_tests) {
			pc->t = ra->t;
			continue;
		}
		pc->t.deterministic = ra->t.deterministic && rb->t.deterministic;
		pc->t.moves_with_layout = m->metrics[k].moves_with_layout;
		gsl_rng_set(rng, kb_stats_seed(m->seed + 2, m->cases[c], x->a, x->b));
		kb_model_versus(&pc->t, ra, rb, rng, &m->o);
	}
	if (x->own_tests) {
		tests = kb_xcalloc(x->ncases + 1, sizeof(*tests));
		family = kb_xcalloc(x->ncases + 1, sizeof(*family));
		for (size_t i = 0; i < x->ncases; i++)
			tests[i] = &x->per_case[i].t;
		kb_model_decide(tests, family, x->ncases, &m->o);
		free(tests);
		free(family);
	}
	for (size_t i = 0; i < x->ncases; i++) {
		enum kb_verdict v = x->per_case[i].t.verdict;

		x->faster += v == KB_VERDICT_FASTER;
		x->slower += v == KB_VERDICT_SLOWER;
		x->same += v == KB_VERDICT_SAME;
		x->undecided += v == KB_VERDICT_UNDECIDED || v == KB_VERDICT_ONE_LAYOUT;
		x->equivalent += v == KB_VERDICT_EQUIVALENT;
	}
	free(want);
	judge_speed(m, x);
}

/* On the primary metric, and where the run has two or more cycle models
 * on each of them: supported or contradicted only where every one says
 * so (a word that depends on the model of cycles is none). */
static void speed(struct kb_model *m, struct kb_pred *x, gsl_rng *rng)
{
	const char *first = NULL;

	speed_on(m, x, rng, m->primary);
	if (m->nrobust < 2)
		return;
	x->nby_model = m->nrobust;
	x->by_model = kb_pool_array(&m->pool, m->nrobust, sizeof(*x->by_model));
	x->by_model[0] = x->word;
	for (size_t i = 1; i < m->nrobust; i++) {
		struct kb_pred y = { .kind = x->kind, .a = x->a, .b = x->b, .va = x->va, .vb = x->vb,
				     .asked = x->asked, .nasked = x->nasked };

		speed_on(m, &y, rng, m->robust[i]);
		x->by_model[i] = y.word;
		if (y.word != x->word && !first)
			first = kb_pool_printf(&m->pool, "%s on %s", kb_word_name(y.word),
					       m->metrics[m->robust[i]].unit);
	}
	if (!first)
		return;
	x->why = kb_pool_printf(&m->pool, "%s on %s (%s), but %s: the word depends on the model of cycles",
				kb_word_name(x->word), m->metrics[m->primary].unit, x->why, first);
	x->word = KB_WORD_UNDISTINGUISHED;
}

static const char *pstr(struct kb_model *m, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? kb_pool_strdup(&m->pool, s) : NULL;
}

void kb_model_claim(struct kb_model *m, json_t *manifest)
{
	json_t *cl = json_object_get(manifest, "claim"), *preds, *p;
	struct kb_claim_check *out = &m->stated;
	gsl_rng *rng;
	size_t i;

	if (!json_is_object(cl) || !json_is_string(json_object_get(cl, "text")))
		return;
	/* seeded again before each use (speed): its state before is no matter */
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	out->text = pstr(m, cl, "text");
	out->source = pstr(m, cl, "source");
	out->date = pstr(m, cl, "date");
	preds = json_object_get(cl, "predictions");
	out->preds = kb_pool_array(&m->pool, json_array_size(preds) + 1, sizeof(*out->preds));
	json_array_foreach(preds, i, p) {
		struct kb_pred *x = &out->preds[out->npreds];
		const char *name = json_string_value(json_object_get(p, "kind"));
		enum kb_pred_kind kind = kb_pred_kind_from_name(name);
		const char *a = json_string_value(json_object_get(p, "a"));
		const char *b = json_string_value(json_object_get(p, "b"));
		json_t *cases = json_object_get(p, "cases"), *c;
		size_t j;

		/* names become markup and paths: plain ones only, as elsewhere */
		if (kind == KB_PRED_KINDS || !a || !b || !kb_model_name_ok(KB_NAME_VARIANT, a) ||
		    !kb_model_name_ok(KB_NAME_VARIANT, b)) {
			m->dropped.names.manifest++;
			continue;
		}
		x->kind = kind;
		x->a = kb_pool_strdup(&m->pool, a);
		x->b = kb_pool_strdup(&m->pool, b);
		x->va = kb_model_variant(m, a);
		x->vb = kb_model_variant(m, b);
		x->asked = kb_pool_array(&m->pool, json_array_size(cases) + 1, sizeof(*x->asked));
		json_array_foreach(cases, j, c) {
			const char *s = json_string_value(c);

			if (s && (!strcmp(s, "all") || kb_model_name_ok(KB_NAME_CASE, s)))
				x->asked[x->nasked++] = kb_pool_strdup(&m->pool, s);
			else
				m->dropped.names.manifest++;
		}
		if (!x->nasked)
			x->asked[x->nasked++] = "all";
		if (kind == KB_PRED_SMALLER)
			smaller(m, x);
		else
			speed(m, x, rng);
		out->npreds++;
	}
	gsl_rng_free(rng);
}

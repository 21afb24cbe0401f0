// SPDX-License-Identifier: GPL-2.0-or-later
/* The sections of the report, each defined once as document blocks (doc.h)
 * from the result model (model.h), in the table at the end: report.md and
 * report.html are the same sections through two emitters.  A section only
 * formats: every figure, difference and median is the model's. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "miss-o-meter.h"
#include "report.h"
#include "size.h"
#include "store.h"
#include "util.h"

/* ---- figures as text ---- */

/* A figure by fmt, or "n/a" where it does not exist (ok 0). */
static struct kb_num num(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static struct kb_num num(int ok, const char *fmt, ...)
{
	struct kb_num n;
	va_list ap;

	va_start(ap, fmt);
	if (ok)
		vsnprintf(n.s, sizeof(n.s), fmt, ap);
	else
		snprintf(n.s, sizeof(n.s), "n/a");
	va_end(ap);
	return n;
}

struct kb_num kb_report_fig(double v)
{
	return num(isfinite(v), fabs(v) >= 100 ? "%.1f" : "%.4g", v);
}

struct kb_num kb_report_pct(double fraction)
{
	return num(isfinite(fraction), "%+.1f%%", 100 * fraction);
}

struct kb_num kb_report_test_p(const struct kb_test *t)
{
	if (t->done && !isfinite(t->p))
		return num(1, "deterministic");
	return kb_report_p(t->decided ? t->p_holm : NAN);
}

struct kb_num kb_report_p(double p)
{
	return num(isfinite(p), p < 0.001 ? "%.1e" : "%.3f", p);
}

struct kb_num kb_report_delta(double d)
{
	return num(isfinite(d), "%+.2f", d);
}

struct kb_num kb_report_ratio_ci(const struct kb_test *t)
{
	/* against a reference of 0: the ratio is infinite, the difference says how much */
	if (isinf(t->ratio) && t->done)
		return num(1, "%sinf (%+.4g)", t->ratio < 0 ? "-" : "", t->difference);
	/* an interval of one point (identical counts) adds nothing */
	if (isfinite(t->ratio) && t->done && isfinite(t->ratio_ci.lo) && t->ratio_ci.hi > t->ratio_ci.lo)
		return num(1, "%.3f [%.3f, %.3f]", t->ratio, t->ratio_ci.lo, t->ratio_ci.hi);
	return num(isfinite(t->ratio), "%.3f", t->ratio);
}

struct kb_num kb_report_verdict_ci(const struct kb_test *t)
{
	if (!t->done || !isfinite(t->verdict_ci.lo) || !isfinite(t->verdict_ci.hi))
		return num(0, "%s", "");
	if (!(t->verdict_ci.hi > t->verdict_ci.lo))
		return num(1, "%.3f", t->verdict_ci.lo);
	return num(1, "[%.3f, %.3f] (%.4g%%)", t->verdict_ci.lo, t->verdict_ci.hi, 100 * t->family_level);
}

/* "[lo, hi]" of a median (ratio 0) or of a ratio; "n/a" without one. */
static struct kb_num interval(struct kb_interval ci, int ratio)
{
	if (ratio)
		return num(isfinite(ci.lo), "[%.3f, %.3f]", ci.lo, ci.hi);
	return num(isfinite(ci.lo), "[%.28s, %.28s]", kb_report_fig(ci.lo).s, kb_report_fig(ci.hi).s);
}

/* A whole boot's median and interval, in seconds: "1.234 [1.200, 1.300]". */
static struct kb_num seconds_ci(const struct kb_row *r)
{
	if (isfinite(r->ci.lo))
		return num(1, "%.3f [%.3f, %.3f]", r->median / 1e9, r->ci.lo / 1e9, r->ci.hi / 1e9);
	return num(1, "%.3f", r->median / 1e9);
}

/* ---- table helpers ---- */

/* The words a table header names: {0} the baseline, {1} a unit or a
 * variant, {2} the confidence in per cent. */
#define WORDS(d, m, s1) ((const char *const[]){ (m)->baseline_name, (s1) ? (s1) : "", \
					      kb_pool_printf(&(d)->pool, "%.0f", 100 * (m)->o.level) })

/* A cell of kbench's own words or figures. */
static struct kb_inline *td(struct kb_doc_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static struct kb_inline *td(struct kb_doc_table *t, const char *fmt, ...)
{
	struct kb_inline *in = kb_doc_td(t);
	va_list ap;

	va_start(ap, fmt);
	kb_doc_vfmt(in, fmt, ap);
	va_end(ap);
	return in;
}

/* A cell holding a string from the run. */
static void td_str(struct kb_doc_table *t, const char *s)
{
	kb_doc_str(kb_doc_td(t), s);
}

static struct kb_inline *verdict_cell(struct kb_doc_table *t, enum kb_verdict v, const char *none)
{
	struct kb_inline *in = td(t, "%s", v == KB_VERDICT_NONE ? none : kb_verdict_name(v));

	in->cls = v == KB_VERDICT_FASTER ? "faster" : v == KB_VERDICT_SLOWER ? "slower" : NULL;
	return in;
}

/* "builds", "virtual layouts", "boots" */
static const char *units(enum kb_unit u)
{
	return u == KB_UNIT_BUILD ? "builds" : u == KB_UNIT_VLAYOUT ? "virtual layouts" : "boots";
}

/* A test's verdict, with why a difference the rank test found is no
 * verdict (its interval reaches into the margin) and what would decide it. */
static struct kb_inline *test_verdict_cell(struct kb_doc_table *t, const struct kb_test *x,
					   const struct kb_model_opts *o, const char *none)
{
	struct kb_inline *in = verdict_cell(t, x->verdict, none);

	if (x->verdict != KB_VERDICT_UNDECIDED)
		return in;
	if (x->decided && x->p_holm < o->alpha)
		kb_doc_fmt(in, " (Holm's p under %g, but the interval reaches into 1 +- %g%%)", o->alpha,
			   100 * o->min_effect);
	if (x->needed > 0)
		kb_doc_fmt(in, " (about %lld %s a side would show it %s)", x->needed, units(x->unit),
			   kb_verdict_name(x->needed_for));
	else if (x->needed == 0)
		kb_doc_fmt(in, " (no number of %s would decide it at the effect and spread seen)", units(x->unit));
	return in;
}

/* A metric's kind and what it is: "measured: wall time in the guest". */
static void source_note(struct kb_inline *in, const struct kb_metric *mt, const char *sep)
{
	kb_doc_fmt(in, "%s", kb_figure_kind_name(mt->source));
	if (*mt->note) {
		kb_doc_fmt(in, "%s", sep);
		kb_doc_str(in, mt->note);
	}
}

/* The model's caveats but one (skip: an id, or -1 for none). */
static void caveat_list(struct kb_doc *d, const struct kb_model *m, int skip)
{
	struct kb_block *l = NULL;

	for (size_t i = 0; i < m->ncaveats; i++) {
		struct kb_inline *it;

		if ((int)m->caveats[i].id == skip)
			continue;
		if (!l)
			l = kb_doc_list(d);
		it = kb_doc_item(l);

		it->cls = "caveat";
		kb_doc_str(it, m->caveats[i].text);
	}
}

/* A section's heading and its opening paragraph, to fill. */
static struct kb_inline *opening(struct kb_doc *d, int level, const char *heading)
{
	kb_doc_fmt(kb_doc_heading(d, level), "%s", heading);
	return kb_doc_para(d);
}

static double confidence(const struct kb_model *m)
{
	return 100 * m->o.level;
}

/* Built layouts of the run (1 without replicas). */
static size_t built_layouts(const struct kb_model *m)
{
	return m->nlayouts ? m->nlayouts : 1;
}

/* How many layouts a variant's verdicts on metric k rest on: built x (K + 1). */
static size_t layouts_per_variant(const struct kb_model *m, size_t k)
{
	return built_layouts(m) * (m->metrics[k].virtual_layouts + 1);
}

/* " (N built x (K virtual + the built addresses))" where metric k has
 * virtual layouts; nothing where it has none. */
static void layouts_made_of(struct kb_inline *in, const struct kb_model *m, size_t k)
{
	if (m->metrics[k].virtual_layouts)
		kb_doc_fmt(in, " = %zu built x (%zu virtual + the built addresses)", built_layouts(m),
			   m->metrics[k].virtual_layouts);
}

static void size_table(struct kb_doc *d, const struct kb_model *m, int replicas);

/* ---- the sections ---- */

/* The sample lines used in no figure, by why, in one sentence. */
static void ignored(struct kb_doc *d, const struct kb_model *m)
{
	static const char *const why[KB_IGNORED_N] = {
		[KB_IGNORED_VARIANT] = "of a variant the manifest does not list",
		[KB_IGNORED_LAYOUT] = "of a layout (built or virtual) the manifest does not list",
		[KB_IGNORED_TYPE] = "with a value of the wrong type (a count as a string, say)",
		[KB_IGNORED_ITERATIONS] = "with zero iterations",
		[KB_IGNORED_NEGATIVE] = "with a negative count or time",
		[KB_IGNORED_FRACTION] = "with a count that is not an integer",
	};
	const char *sep = ":";
	struct kb_inline *in;
	char *text = NULL;
	size_t len = 0;
	long n = 0;
	FILE *f;

	for (size_t i = 0; i < KB_IGNORED_N; i++)
		n += m->ignored[i];
	if (!n)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	fprintf(f, "%ld sample line%s of samples.jsonl %s ignored and used in no figure", n, n == 1 ? "" : "s",
		n == 1 ? "was" : "were");
	for (size_t i = 0; i < KB_IGNORED_N; i++)
		if (m->ignored[i]) {
			fprintf(f, "%s %ld %s", sep, m->ignored[i], why[i]);
			sep = ",";
		}
	fputc('.', f);
	fclose(f);
	in = kb_doc_para(d);
	in->cls = "caveat";
	kb_doc_strong(in, kb_pool_strdup(&d->pool, text));
	free(text);
}

/* What the model left out of the run directory, said where the report
 * starts: torn or refused lines, sample lines ignored, duplicate samples,
 * names that are not plain ones. */
static void dropped(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_model_dropped *x = &m->dropped;
	long torn = m->torn.samples + m->torn.boots + m->torn.timing + m->torn.sim;
	long names = x->names.samples + x->names.boots + x->names.timing + x->names.sim;
	struct kb_inline *in;

	if (torn) {
		in = kb_doc_para(d);
		in->cls = "caveat";
		kb_doc_strong(in, kb_pool_printf(&d->pool, "%ld torn or invalid lines were skipped (cut short, "
						 "longer than %d bytes, holding a NUL byte, or not a JSON "
						 "object): %ld in samples.jsonl, %ld in boots.jsonl, %ld in "
						 "timing.jsonl, %ld in sim.jsonl.", torn, KB_STORE_MAX_LINE,
						 m->torn.samples, m->torn.boots, m->torn.timing, m->torn.sim));
	}
	ignored(d, m);
	if (x->duplicates) {
		in = kb_doc_para(d);
		in->cls = "caveat";
		kb_doc_strong(in, kb_pool_printf(&d->pool, "%ld duplicate sample line%s dropped: the same "
						 "boot, case and rep as an earlier line, which is the one "
						 "used.", x->duplicates, x->duplicates > 1 ? "s were" : " was"));
	}
	if (names || x->names.manifest) {
		in = kb_doc_para(d);
		in->cls = "caveat";
		kb_doc_strong(in, kb_pool_printf(&d->pool, "%ld line%s dropped for a variant, case, workload, "
						 "field or backend name that is not a plain name: %ld in "
						 "samples.jsonl, %ld in boots.jsonl, %ld in timing.jsonl, %ld "
						 "in sim.jsonl; and %ld variant%s or workload%s of "
						 "manifest.json.", names, names == 1 ? " was" : "s were",
						 x->names.samples, x->names.boots, x->names.timing,
						 x->names.sim, x->names.manifest,
						 x->names.manifest == 1 ? "" : "s", x->names.manifest == 1 ? "" : "s"));
	}
}

/* The largest family of the primary metric's tests (its cases with a p). */
static size_t primary_family(const struct kb_model *m)
{
	size_t fam = 0;

	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].metric == m->primary && m->rows[i].t.decided && m->rows[i].t.family > fam)
			fam = m->rows[i].t.family;
	return fam;
}

/* The report's first sentence: how many verdicts survive layout control,
 * the layout (where code lands) being what a flag change moves besides the
 * code itself. */
static void layout_control(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	long long cases = 0, decisive = 0, one_layout = 0;
	size_t fam = primary_family(m);
	struct kb_inline *in;

	for (size_t i = 0; i < m->nclaims; i++) {
		cases += m->claims[i].cases;
		decisive += m->claims[i].faster + m->claims[i].slower;
	}
	for (size_t i = 0; i < m->nrows; i++)
		one_layout += m->rows[i].metric == m->primary && m->rows[i].t.verdict == KB_VERDICT_ONE_LAYOUT;
	if (!cases)
		return;
	in = kb_doc_para(d);
	if (m->seed_drawn && (mt->by_layout || m->nlayouts >= 2))
		kb_doc_fmt(in, "This run's layouts were drawn at random ([run] seed = 0; the seed drawn was %llu): "
			   "another run of the same kernels draws others, and a case near the margin may come "
			   "out otherwise; set seed to repeat it exactly. ", m->seed);
	if (mt->by_layout) {
		int one = m->nlayouts < 2;

		kb_doc_strong(in, kb_pool_printf(&d->pool, "%lld of %lld verdicts survive layout control%s", decisive,
						 cases, one ? ", under simulated layouts of one build" : ""));
		if (one)
			kb_doc_fmt(in, " (1 build per variant in %zu layouts: its own addresses and %zu virtual "
				   "ones, the unit of replication; no other build was made, so what a build "
				   "changes besides addresses is not in them)", mt->virtual_layouts + 1,
				   mt->virtual_layouts);
		else if (mt->virtual_layouts)
			kb_doc_fmt(in, " (%zu builds per variant, each in %zu layouts: its own addresses and %zu "
				   "virtual ones; the build the unit of replication)", built_layouts(m),
				   mt->virtual_layouts + 1, mt->virtual_layouts);
		else
			kb_doc_fmt(in, " (%zu builds per variant, the build the unit of replication)",
				   built_layouts(m));
		kb_doc_fmt(in, ": on ");
		kb_doc_str(in, mt->label);
		kb_doc_fmt(in, ", %lld cases are faster or slower, with Holm's p under %g and the ratio's "
			   "interval", decisive, m->o.alpha);
		if (fam > 1)
			kb_doc_fmt(in, " (%.2f%%, adjusted over %zu cases)", 100 * (1 - m->o.alpha / (double)fam), fam);
		kb_doc_fmt(in, " beyond 1 +- %g%%; the other %lld are not distinguishable, equivalent or the "
			   "same.", 100 * m->o.min_effect, cases - decisive);
		return;
	}
	kb_doc_strong(in, kb_pool_printf(&d->pool, "0 of %lld verdicts survive layout control", cases));
	kb_doc_fmt(in, ": each variant was measured in one layout, so ");
	if (one_layout)
		kb_doc_fmt(in, "%lld cases of ", one_layout);
	else
		kb_doc_fmt(in, "the %lld faster or slower verdicts on ", decisive);
	kb_doc_str(in, mt->label);
	if (one_layout)
		kb_doc_fmt(in, ", a figure that moves with where code lands, are \"this layout only\"%s",
			   decisive ? kb_pool_printf(&d->pool, " and %lld faster or slower hold for these builds "
						     "only", decisive) : "");
	else
		kb_doc_fmt(in, " below hold for these builds only");
	kb_doc_fmt(in, "; a change of where code lands, not the flags, can make such a difference. Build "
		   "layout replicas, or simulate virtual layouts, to test it.");
}

/* The title block: the answer in one line per variant (report.md's first
 * lines, the terminal's last: kb_claim.line), then the heading. */
static void title(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in;

	kb_doc_box(d, "title");
	for (size_t i = 0; i < m->nclaims; i++)
		kb_doc_fmt(kb_doc_para(d), "%s", m->claims[i].line);
	in = kb_doc_heading(d, 1);
	kb_doc_fmt(in, "kbench report ");
	kb_doc_str(in, m->run_id);
	kb_doc_box_end(d);
}

/* A prediction's key in words: "layout sensitive" */
static const char *kind_words(const struct kb_pred *x)
{
	return x->kind == KB_PRED_LAYOUT ? "layout sensitive" :
	       x->kind == KB_PRED_NOT_FASTER ? "not faster" : kb_pred_kind_name(x->kind);
}

/* "faster: `Os` vs `O2` on getppid, syscall_mix" */
static void prediction_name(struct kb_inline *in, const struct kb_pred *x)
{
	kb_doc_fmt(in, "%s: ", kind_words(x));
	kb_doc_code(in, x->a);
	kb_doc_fmt(in, " vs ");
	kb_doc_code(in, x->b);
	if (x->kind == KB_PRED_SMALLER)
		return;
	kb_doc_fmt(in, " on ");
	for (size_t i = 0; i < x->nasked; i++) {
		if (i)
			kb_doc_fmt(in, ", ");
		if (!strcmp(x->asked[i], "all"))
			kb_doc_fmt(in, "all cases");
		else
			kb_doc_str(in, x->asked[i]);
	}
}

/* What was measured for one prediction, in figures. */
static void prediction_measured(struct kb_inline *in, const struct kb_model *m, const struct kb_pred *x)
{
	const char *const counts[] = { "faster", "slower", "equivalent", "not distinguishable", "the same" };
	long long n[] = { x->faster, x->slower, x->equivalent, x->undecided, x->same };
	long long judged = x->faster + x->slower + x->same + x->undecided + x->equivalent;
	int first = 1;

	if (x->kind == KB_PRED_SMALLER) {
		if (x->has_size)
			kb_doc_fmt(in, "text %lld vs %lld bytes (%s)", x->text_a, x->text_b,
				   kb_report_pct(x->text_change).s);
		else
			kb_doc_fmt(in, "no text size");
		return;
	}
	kb_doc_str(in, m->metrics[x->metric].label);
	kb_doc_fmt(in, ": ");
	if (!judged)
		kb_doc_fmt(in, "no case measured");
	for (size_t i = 0; i < KB_ARRAY_SIZE(counts); i++) {
		if (!n[i])
			continue;
		if (first)
			kb_doc_fmt(in, "%s in %lld of %lld case%s", counts[i], n[i], judged, judged > 1 ? "s" : "");
		else
			kb_doc_fmt(in, ", %s in %lld", counts[i], n[i]);
		first = 0;
	}
	if (x->ncases == 1)
		kb_doc_fmt(in, " (ratio %s)", kb_report_ratio_ci(&x->per_case[0].t).s);
	if (x->missing)
		kb_doc_fmt(in, "; %lld asked for without measurements of both", x->missing);
	if (x->kind == KB_PRED_LAYOUT)
		kb_doc_fmt(in, "; %zu layout%s per variant", m->nlayouts >= 2 ? m->nlayouts : 1,
			   m->nlayouts >= 2 ? "s" : "");
}

/* The report opens with the claim of variants.conf's [claim], each
 * prediction beside what was measured and one word for it. */
static void claim_vs_measured(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_claim_check *c = &m->stated;
	struct kb_doc_table *t;
	struct kb_inline *in;
	int any_speed = 0;

	if (!c->text)
		return;
	in = opening(d, 2, "Claim vs measured");
	kb_doc_fmt(in, "The claim: \"");
	kb_doc_str(in, c->text);
	kb_doc_fmt(in, "\"");
	if (c->source || c->date) {
		kb_doc_fmt(in, " (");
		if (c->source)
			kb_doc_str(in, c->source);
		if (c->source && c->date)
			kb_doc_fmt(in, ", ");
		if (c->date)
			kb_doc_str(in, c->date);
		kb_doc_fmt(in, ")");
	}
	kb_doc_fmt(in, ".");
	t = kb_doc_table_heads(d, "prediction|measured|backend|figures|word", NULL);
	for (size_t i = 0; i < c->npreds; i++) {
		const struct kb_pred *x = &c->preds[i];

		prediction_name(kb_doc_td(t), x);
		prediction_measured(kb_doc_td(t), m, x);
		if (!strcmp(x->backend, "size"))
			td(t, "size (binutils)");
		else
			td_str(t, x->backend);
		td(t, "%s", kb_figure_kind_name(x->source));
		in = kb_doc_td(t);
		kb_doc_strong(in, kb_word_name(x->word));
		in->cls = x->word == KB_WORD_SUPPORTED ? "faster" : x->word == KB_WORD_CONTRADICTED ? "slower" : NULL;
		kb_doc_fmt(in, " (%s)", x->why);
		any_speed |= x->ncases > 0;
	}
	if (!any_speed)
		return;
	t = kb_doc_table_heads(d, "prediction|case|>ratio A/B [CI]|>p (Holm)|verdict of A", NULL);
	for (size_t i = 0; i < c->npreds; i++) {
		const struct kb_pred *x = &c->preds[i];

		for (size_t k = 0; k < x->ncases; k++) {
			const struct kb_pred_case *pc = &x->per_case[k];

			in = kb_doc_td(t);
			kb_doc_fmt(in, "%zu. %s ", i + 1, kind_words(x));
			kb_doc_code(in, x->a);
			kb_doc_fmt(in, " vs ");
			kb_doc_code(in, x->b);
			td_str(t, m->cases[pc->cas]);
			td(t, "%s", kb_report_ratio_ci(&pc->t).s);
			td(t, "%s", kb_report_test_p(&pc->t).s);
			test_verdict_cell(t, &pc->t, &m->o, "n/a");
		}
	}
}

/* How the claim's words are given (in "How these figures were made"). */
static void claim_notes(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in;

	if (!m->stated.text)
		return;
	in = kb_doc_para(d);
	kb_doc_fmt(in, "Claim vs measured: a word is never stronger than the verdicts below it: a size "
		   "difference under min_effect (%g%%), or a speed difference whose interval reaches into 1 +- "
		   "min_effect, is not distinguishable, and supports nothing; a speed word rests only on "
		   "verdicts made under layout control (builds, or virtual layouts).", 100 * m->o.min_effect);
	if (m->nlayouts < 2 && !m->virtual_layouts)
		kb_doc_fmt(in, " Each variant was measured in one layout and no virtual one: no speed word "
			   "can be given, and layout sensitivity cannot be supported.");
	else if (m->nlayouts < 2)
		kb_doc_fmt(in, " One build per variant: layout sensitivity cannot be supported.");
	kb_doc_fmt(in, " Ratios and verdicts per case are those of the verdict table where B is the baseline; "
		   "otherwise the same tests of A against B, Holm over the prediction's cases.");
}

/* The report's first lines: how many verdicts survive, then what the
 * model left out of the run directory. */
static void headline(struct kb_doc *d, const struct kb_model *m)
{
	layout_control(d, m);
	dropped(d, m);
}

/* What was measured where: kernel, accelerator, backend, host. */
static void provenance(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in = kb_doc_para(d);

	kb_doc_fmt(in, "Kernel ");
	kb_doc_str(in, m->kernel.version);
	kb_doc_fmt(in, " (");
	kb_doc_str(in, m->kernel.arch);
	if (m->kernel.allocator) {
		/* what each allocator is to a lab (mm/Kconfig, and the releases
		 * that removed SLOB and SLAB) */
		static const char *const about[][2] = {
			{ "SLUB", "the only one from Linux 6.8 on, and what the labs run" },
			{ "SLUB_TINY", "SLUB cut down for the smallest systems, tinyconfig's from 6.4 on; "
				       "configs/slub.config asks for SLUB" },
			{ "SLOB", "tinyconfig's up to 6.3, removed in 6.4" },
			{ "SLAB", "removed in 6.8" },
		};

		kb_doc_fmt(in, ", slab allocator ");
		kb_doc_str(in, m->kernel.allocator);
		for (size_t i = 0; i < KB_ARRAY_SIZE(about); i++)
			if (!strcmp(m->kernel.allocator, about[i][0])) {
				kb_doc_fmt(in, ": ");
				kb_doc_str(in, about[i][1]);
			}
	}
	kb_doc_fmt(in, "), %zu variants, baseline ", m->nv_manifest);
	kb_doc_code(in, m->baseline_name);
	kb_doc_fmt(in, ". Accelerator: ");
	kb_doc_str(in, m->accel);
	kb_doc_fmt(in, " (");
	kb_doc_str(in, m->accel_why);
	kb_doc_fmt(in, "). Backend: ");
	kb_doc_str(in, m->backend);
	kb_doc_fmt(in, ". Host: ");
	kb_doc_str(in, m->host_cpu);
	kb_doc_fmt(in, ".");
}

/* The whole-boot figure of a variant, after its claim: said apart, being
 * another kind of figure (one boot, not one operation). */
static int emulated(const struct kb_model *bt)
{
	for (size_t i = 0; bt && i < bt->ncaveats; i++)
		if (bt->caveats[i].id == KB_CAVEAT_EMULATED_TIME)
			return 1;
	for (size_t i = 0; bt && i < bt->ntiming; i++)
		if (!strcmp(bt->timing[i].accel, "tcg"))
			return 1;
	return 0;
}

static void boot_claim(struct kb_inline *in, const struct kb_model *m, size_t v)
{
	const struct kb_model *bt = m->boot_timing;
	const struct kb_row *r = kb_model_find(bt, "boot", "ns_per_op", m->variants[v].name);
	const struct kb_row *b = kb_model_find(bt, "boot", "ns_per_op", m->baseline_name);

	/* time under TCG is QEMU's translation on this host, and it moves with
	 * the host's load: Details only */
	if (!r || !b || !r->boots || !b->boots || emulated(bt))
		return;
	kb_doc_fmt(in, " Whole boot, QEMU start to guest exit, timed by hyperfine (");
	kb_doc_str(in, bt->metrics[0].note);
	kb_doc_fmt(in, "): %.3f s against %.3f s, ratio %s, p = %s: %s.", r->median / 1e9, b->median / 1e9,
		   kb_report_ratio_ci(&r->t).s, kb_report_p(r->t.p).s, kb_verdict_name(r->t.verdict));
}

/* Each answer (enum kb_answer) as the report says it. */
static const char *const answers[] = {
	"It has no measurement to judge.",
	"Its size does not differ, so it says nothing on the claim.",
	"Yes: this smaller kernel is also faster in every case.",
	"This larger kernel is faster in every case: smaller is not faster here.",
	"No: this smaller kernel is slower in every case.",
	"This larger kernel is slower in every case: smaller is faster here.",
	"Not distinguishable: the measurements do not tell the two apart.",
	"Mixed: it depends on the case.",
	"Equivalent: no case differs by the minimum effect or more.",
	"No: where the two differ, this smaller kernel is slower, and it is faster in no case.",
	"Where the two differ, this larger kernel is slower, and it is faster in no case: smaller is faster here.",
	"Yes, where the two differ: this smaller kernel is faster there, and slower in no case.",
	"Where the two differ, this larger kernel is faster, and it is slower in no case: smaller is not faster here.",
};
_Static_assert(KB_ARRAY_SIZE(answers) == KB_ANSWER_LARGER_FASTER_WHERE + 1, "a sentence for every answer");

/* How many of a variant's verdicts each other model of cycles gives too,
 * and the cases where one does not. */
static void robust_claim(struct kb_inline *in, const struct kb_model *m, size_t v)
{
	size_t judged = 0, flips = 0, shown = 0;

	if (!m->nrobust)
		return;
	for (size_t c = 0; c < m->nc; c++) {
		enum kb_robust rb = kb_model_row(m, c, m->primary, v)->robust;

		judged += rb != KB_ROBUST_UNJUDGED;
		flips += rb == KB_ROBUST_FLIPS;
	}
	kb_doc_fmt(in, " Under the other models of cycles (");
	for (size_t i = 1; i < m->nrobust; i++) {
		kb_doc_fmt(in, "%s", i > 1 ? ", " : "");
		kb_doc_str(in, m->metrics[m->robust[i]].unit);
	}
	kb_doc_fmt(in, "), %zu of %zu verdicts are the same", judged - flips, judged);
	if (!flips) {
		kb_doc_fmt(in, ".");
		return;
	}
	kb_doc_fmt(in, "; %zu flip with the model (", flips);
	for (size_t c = 0; c < m->nc; c++)
		if (kb_model_row(m, c, m->primary, v)->robust == KB_ROBUST_FLIPS) {
			kb_doc_fmt(in, "%s", shown++ ? ", " : "");
			kb_doc_str(in, m->cases[c]);
		}
	kb_doc_fmt(in, ").");
}

/* The answer for one variant: its size against the baseline's, its
 * verdicts on the primary metric, and what that says about the claim. */
static void claim(struct kb_doc *d, const struct kb_model *m, const struct kb_claim *c)
{
	const struct kb_model_variant *v = &m->variants[c->variant];
	const struct kb_metric *mt = &m->metrics[m->primary];
	double tc = c->text_change;
	struct kb_inline *in = kb_doc_para(d);

	kb_doc_code(in, v->name);
	if (tc == 0)
		kb_doc_fmt(in, " has the same text size as ");
	else if (isfinite(tc))
		kb_doc_fmt(in, " has %.1f%% %s text than ", fabs(100 * tc), tc < 0 ? "less" : "more");
	else
		kb_doc_fmt(in, " has no size measurement to set against ");
	kb_doc_code(in, m->baseline_name);
	if (isfinite(tc) && tc != 0)
		kb_doc_fmt(in, " (%lld vs %lld bytes)", v->text, m->variants[m->baseline].text);
	kb_doc_fmt(in, ". On ");
	kb_doc_str(in, mt->label);
	kb_doc_fmt(in, " (");
	source_note(in, mt, ", ");
	kb_doc_fmt(in, "), at %.0f%% confidence, it is faster in %lld of %lld cases, slower in %lld",
		   confidence(m), c->faster, c->cases, c->slower);
	if (c->same)
		kb_doc_fmt(in, ", the same in %lld (identical deterministic counts)", c->same);
	if (c->equivalent)
		kb_doc_fmt(in, ", equivalent in %lld (within %g%%)", c->equivalent, 100 * m->o.min_effect);
	kb_doc_fmt(in, " and not distinguishable in %lld. ", c->undecided);
	if (c->answer == KB_ANSWER_NO_DATA || c->answer == KB_ANSWER_SAME_SIZE)
		kb_doc_fmt(in, "%s", answers[c->answer]);
	else
		kb_doc_strong(in, answers[c->answer]);
	robust_claim(in, m, c->variant);
	boot_claim(in, m, c->variant);
}

/* The metrics whose figures move with where code lands, and those that
 * do not (and rest on the built layouts alone), where the run has virtual
 * layouts. */
static void replicates(struct kb_inline *in, const struct kb_model *m)
{
	size_t shown = 0;

	if (!m->virtual_layouts)
		return;
	kb_doc_fmt(in, " Virtual layouts move ");
	for (size_t k = 0; k < m->nm; k++) {
		if (!m->metrics[k].virtual_layouts)
			continue;
		kb_doc_fmt(in, "%s", shown++ ? ", " : "");
		kb_doc_str(in, m->metrics[k].unit);
	}
	kb_doc_fmt(in, "; ");
	shown = 0;
	for (size_t k = 0; k < m->nm; k++) {
		if (m->metrics[k].virtual_layouts)
			continue;
		kb_doc_fmt(in, "%s", shown++ ? ", " : "");
		kb_doc_str(in, m->metrics[k].unit);
	}
	kb_doc_fmt(in, " do not change with where the code lands in the simulation and rest on the %zu built "
		   "layout%s%s.", built_layouts(m), built_layouts(m) == 1 ? "" : "s",
		   m->nlayouts >= 2 ? "" : " (their boots the replicates)");
}

/* How the verdicts are made, in three sentences (replicates, test,
 * verdict), with the run's own numbers. */
static void method(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	enum kb_unit unit = kb_model_unit(m, m->primary);
	size_t fam = primary_family(m), untested = 0;
	struct kb_inline *in = kb_doc_para(d);

	for (size_t i = 0; i < m->nrows; i++)
		untested += m->rows[i].metric == m->primary && m->rows[i].t.done && !isfinite(m->rows[i].t.p);
	if (unit == KB_UNIT_BUILD)
		kb_doc_fmt(in, "Replicates: %zu builds of each variant with the same flags (seeded padding moves "
			   "the code)%s; a build's figure is the median over its layouts and samples, and the "
			   "build is the unit of replication.", built_layouts(m),
			   mt->virtual_layouts ? kb_pool_printf(&d->pool, ", each also simulated in %zu virtual "
								 "layouts (the same instructions, the code "
								 "placed elsewhere)", mt->virtual_layouts) : "");
	else if (unit == KB_UNIT_VLAYOUT)
		kb_doc_fmt(in, "Replicates: one build of each variant, simulated at its own addresses and in %zu "
			   "virtual layouts (the same instructions, the code placed elsewhere), each layout's "
			   "median over its samples one replicate: verdicts under simulated layouts of one "
			   "build.", mt->virtual_layouts);
	else
		kb_doc_fmt(in, "Replicates: boots, each its median over its samples (one layout per variant).");
	kb_doc_fmt(in, " Test: two-sided Mann-Whitney U (exact permutation distribution, ties included, up to "
		   "%d a side) of the %ss' figures against ", KB_MWU_EXACT_MAX, kb_unit_name(unit));
	kb_doc_code(in, m->baseline_name);
	if (fam)
		kb_doc_fmt(in, ", Holm-corrected over each variant's cases (%zu here)", fam);
	else
		kb_doc_fmt(in, ", Holm-corrected over each variant's cases (no case has a test here)");
	kb_doc_fmt(in, ", and the ratio of medians with a percentile bootstrap interval (%s%zu resamples, seed "
		   "%llu) at %.0f%%", unit == KB_UNIT_BUILD ? "two-stage: builds, then layouts within each; " : "",
		   m->o.resamples, m->seed, confidence(m));
	if (fam > 1)
		kb_doc_fmt(in, " and, for the verdict, at 1 - %g/%zu", m->o.alpha, fam);
	kb_doc_fmt(in, ".");
	kb_doc_fmt(in, " Verdict: faster or slower where Holm's p is under %g and that interval lies beyond "
		   "1 +- %g%% (min_effect), equivalent where it lies inside, else not distinguishable, with "
		   "the %ss a side that would decide it at the effect and spread seen; the range of the "
		   "layouts and the share of layout pairs in which a variant costs more describe the spread "
		   "and decide nothing.", m->o.alpha, 100 * m->o.min_effect, kb_unit_name(unit));
	replicates(in, m);
	if (untested)
		kb_doc_fmt(in, " %zu row%s of identical deterministic counts in one layout %s no test "
			   "(\"deterministic\"): the difference is the difference, for this layout only, and a "
			   "figure that moves with the layout gets no verdict but \"this layout only\".",
			   untested, untested > 1 ? "s" : "", untested > 1 ? "have" : "has");
}

/* Whether case c is build-sensitive for variant v or the baseline. */
static int build_sensitive(const struct kb_model *m, size_t c, size_t v)
{
	for (size_t i = 0; i < m->nsensitive; i++)
		if (m->sensitive[i].cas == c && (m->sensitive[i].variant == v || m->sensitive[i].variant == m->baseline))
			return 1;
	return 0;
}

/* The cases where what the kernel executes changes from build to build:
 * the range of the builds' figures that no layout moves. */
static void build_sensitive_table(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;

	if (!m->nsensitive)
		return;
	in = kb_doc_para(d);
	kb_doc_strong(in, "Build-sensitive cases.");
	kb_doc_fmt(in, " In these, a figure that does not depend on where the code lands differs between builds "
		   "of one variant by more than min_effect (%g%%): the kernel's state after boot (the slab "
		   "allocator's free lists, say) changes what the workload executes, so a build is a "
		   "replicate of its own and one build cannot speak for the variant. Their verdicts rest on "
		   "the builds (simulated counts per operation):", 100 * m->o.min_effect);
	t = kb_doc_table_heads(d, "case|variant|metric|>builds|>min|>max|>spread", NULL);
	for (size_t i = 0; i < m->nsensitive; i++) {
		const struct kb_build_sensitive *b = &m->sensitive[i];

		td_str(t, m->cases[b->cas]);
		td_str(t, m->variants[b->variant].name);
		td_str(t, m->metrics[b->row->metric].unit);
		td(t, "%zu", b->row->builds);
		td(t, "%s", kb_report_fig(b->row->lo).s);
		td(t, "%s", kb_report_fig(b->row->hi).s);
		td(t, "%.1f%%", 100 * b->spread);
	}
}


/* "faster in 1, slower in 0, equivalent in 13, not distinguishable in 4"
 * of counts by verdict (and "the same in", "this layout only in" where
 * there are such). */
static void verdict_counts(struct kb_inline *in, const size_t n[KB_VERDICT_N])
{
	for (size_t i = 0; i < KB_VERDICTS_SAID; i++)
		if (i < KB_VERDICTS_ALWAYS || n[kb_verdicts_said[i]])
			kb_doc_fmt(in, "%s%s in %zu", i ? ", " : "", kb_verdict_name(kb_verdicts_said[i]),
				   n[kb_verdicts_said[i]]);
}

/* Each ordered variant's verdicts on the cases its order's profile did
 * not run (held out) apart from those it did (trained): an order judged
 * on its own training cases flatters itself. */
static void order_split(struct kb_doc *d, const struct kb_model *m)
{
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *mv = &m->variants[v];
		size_t held[KB_VERDICT_N], trained[KB_VERDICT_N], nheld, ntrained;
		struct kb_inline *in;

		if (!mv->order || v == m->baseline)
			continue;
		in = kb_doc_para(d);
		kb_doc_strong(in, "Ordered variant");
		kb_doc_fmt(in, " ");
		kb_doc_code(in, mv->name);
		kb_doc_fmt(in, ": its kernel places the functions of ");
		kb_doc_code(in, mv->order);
		if (*mv->order_method) {
			kb_doc_fmt(in, " (kbench order, method ");
			kb_doc_str(in, mv->order_method);
			if (*mv->order_profile_variant) {
				kb_doc_fmt(in, ", from a profile of ");
				kb_doc_str(in, mv->order_profile_variant);
			}
			kb_doc_fmt(in, ")");
		}
		if (kb_model_order_split(m, v, held, &nheld, trained, &ntrained) < 0) {
			kb_doc_fmt(in, " first in its text. The order does not say which cases its profile "
				   "ran, so no case can be told held out: its verdicts above may be on its own "
				   "training data.");
			continue;
		}
		kb_doc_fmt(in, " first in its text. On the %zu case%s its order's profile did not run (held "
			   "out), against ", nheld, nheld == 1 ? "" : "s");
		kb_doc_str(in, m->baseline_name);
		kb_doc_fmt(in, ": ");
		verdict_counts(in, held);
		kb_doc_fmt(in, ". On the %zu it ran (trained", ntrained);
		if (mv->trained_all) {
			kb_doc_fmt(in, ": all of them");
		} else {
			for (size_t i = 0; i < mv->ntrained; i++) {
				kb_doc_fmt(in, "%s", i ? ", " : ": ");
				kb_doc_str(in, mv->trained[i]);
			}
		}
		kb_doc_fmt(in, "): ");
		verdict_counts(in, trained);
		kb_doc_fmt(in, ". The held-out verdicts are the order's; a trained one is the order judged on "
			   "the data that made it.");
	}
}

/* How far a prediction (p) is from what was built (b), as "0.998" or "n/a". */
static struct kb_num pred_ratio(double p, double b)
{
	return isfinite(p) && isfinite(b) && b > 0 ? kb_report_fig(p / b) : kb_report_fig(NAN);
}

/* [run] sim_virtual_placement = order:FILE: each unordered variant's
 * kernel where the order would put its code, against the ordered variant
 * built from the same flags. */
static void prediction(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;
	size_t compared = 0, close = 0;

	for (size_t i = 0; i < m->npred; i++) {
		const struct kb_pred_row *r = &m->pred[i];
		double q = r->pred[0] / r->ordered[0];

		if (r->built < 0 || !isfinite(q))
			continue;
		compared++;
		close += fabs(q - 1) <= 0.02;
	}
	in = kb_doc_para(d);
	kb_doc_fmt(in, "Each boot of a variant built without an order also simulated its kernel's code where "
		   "the build with ");
	kb_doc_code(in, m->pred_order);
	kb_doc_fmt(in, " would put it: kbench order --place --objects works that out from the boot's own "
		   "System.map and objects, before anything is built. Per case, medians over the variant's "
		   "samples, per operation: the kernel's L1i misses (simulated) as built, predicted, and as "
		   "the variant built with the order from the same configuration and flags has them, where "
		   "the run has one; then the same for ");
	kb_doc_code(in, m->pred_cycles);
	kb_doc_fmt(in, " (modeled). A prediction is another kernel's figure, not a layout of this one: it is "
		   "in no median, interval or verdict. It is not exact where a function's own inline "
		   "assembly aligns its code, for listed cold parts, and for code outside the main text; "
		   "and a built ordered kernel is another boot, whose timer interrupts fall elsewhere, so a "
		   "case of few misses differs by more than the placement.");
	if (m->nlayouts >= 2)
		kb_doc_fmt(in, " With layout replicas the medians are over each variant's own layouts, and "
			   "each variant's replicas are padded with draws of their own (its name seeds them): "
			   "the two medians carry the layout spread. Layout 0, the builds as configured, is "
			   "the same kernel but for the order: its columns are the prediction's own check.");
	if (compared)
		kb_doc_fmt(in, " Within 2%% of the built kernel's L1i misses: %zu of %zu cases%s.", close, compared,
			   m->nlayouts >= 2 ? " (medians over the layouts)" : "");
	t = kb_doc_table_heads(d, m->nlayouts >= 2 ?
			       "case|variant|>L1i misses as built|>predicted with the order|ordered build|"
			       ">its L1i misses|>predicted / built|>cycles predicted / built|"
			       ">layout 0: L1i misses predicted / built|>layout 0: cycles predicted / built" :
			       "case|variant|>L1i misses as built|>predicted with the order|ordered build|"
			       ">its L1i misses|>predicted / built|>cycles predicted / built", NULL);
	for (size_t i = 0; i < m->npred; i++) {
		const struct kb_pred_row *r = &m->pred[i];
		const struct kb_model_variant *b = r->built >= 0 ? &m->variants[r->built] : NULL;

		in = kb_doc_td(t);
		kb_doc_str(in, r->cas);
		if (b && kb_model_trained(b, r->cas) == 1)
			kb_doc_fmt(in, " (trained)");
		td_str(t, m->variants[r->variant].name);
		td(t, "%s", kb_report_fig(r->own[0]).s);
		td(t, "%s", kb_report_fig(r->pred[0]).s);
		if (b)
			td_str(t, b->name);
		else
			td(t, "none in the run");
		td(t, "%s", kb_report_fig(r->ordered[0]).s);
		td(t, "%s", pred_ratio(r->pred[0], r->ordered[0]).s);
		td(t, "%s", pred_ratio(r->pred[1], r->ordered[1]).s);
		if (m->nlayouts >= 2) {
			td(t, "%s", pred_ratio(r->pred0[0], r->ordered0[0]).s);
			td(t, "%s", pred_ratio(r->pred0[1], r->ordered0[1]).s);
		}
	}
}

static int has_prediction(const struct kb_model *m)
{
	return m->npred > 0;
}

/* ---- the verdict table: one column each, in one table ---- */

/* A column of the verdict table: its header (kb_doc_table_heads' syntax,
 * {0} the baseline, {1} the primary metric's unit and kind, {2} the
 * confidence) and its cell for case c of variant v. */
struct verdict_col {
	const char *head, *head_vlayout;	/* the second where the tests' unit is
						 * one build's layouts (NULL: the same) */
	void (*cell)(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r);
	int (*shown)(const struct kb_model *m);	/* NULL: always */
};

static void col_case(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)v, (void)r;
	td_str(t, m->cases[c]);
}

static void col_variant(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)c, (void)r;
	td_str(t, m->variants[v].name);
}

static void col_text(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)c, (void)r;
	td(t, "%s", kb_report_pct(m->variants[v].text_change).s);
}

static void col_ratio(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)m, (void)c, (void)v;
	td(t, "%s", kb_report_ratio_ci(&r->t).s);
}

static void col_verdict_ci(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)m, (void)c, (void)v;
	td(t, "%s", kb_report_verdict_ci(&r->t).s);
}

static void col_p(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	(void)m, (void)c, (void)v;
	td(t, "%s", kb_report_test_p(&r->t).s);
}

static void col_delta(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	struct kb_inline *in = td(t, "%s", kb_report_delta(r->t.done ? r->t.cliffs_delta : NAN).s);

	(void)m, (void)c, (void)v;
	if (r->t.done)
		kb_doc_fmt(in, " (%s)", r->t.effect);
}

static void col_verdict(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	struct kb_inline *in = test_verdict_cell(t, &r->t, &m->o, "no data");

	if (build_sensitive(m, c, v))
		kb_doc_fmt(in, " (build-sensitive)");
	if (kb_model_trained(&m->variants[v], m->cases[c]) == 1)
		kb_doc_fmt(in, " (trained: its order's profile ran this case)");
}

/* Whether the verdict is the same under the run's other cycle models,
 * and where not, what each says. */
static void col_robust(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t v, const struct kb_row *r)
{
	struct kb_inline *in;

	(void)c, (void)v;
	if (r->robust == KB_ROBUST_UNJUDGED) {
		td(t, "n/a");
		return;
	}
	if (r->robust == KB_ROBUST_SAME) {
		td(t, "same");
		return;
	}
	in = td(t, "flips:");
	in->cls = "caveat";
	for (size_t i = 1; i < m->nrobust; i++) {
		kb_doc_fmt(in, "%s ", i > 1 ? "," : "");
		kb_doc_str(in, m->metrics[m->robust[i]].unit);
		kb_doc_fmt(in, " %s", kb_verdict_name(kb_model_row(m, r->cas, m->robust[i], r->variant)->t.verdict));
	}
}

/* a run of two or more cycle models (sim's model_cycles and mca_cycles) */
static int robust_shown(const struct kb_model *m)
{
	return m->nrobust > 0;
}

/* The verdict table's columns, left to right: a new column is one line
 * here.  What every row's figures are (measured, simulated, modeled) is
 * said once, in the headers. */
static const struct verdict_col verdict_cols[] = {
	{ "case", NULL, col_case, NULL },
	{ "variant", NULL, col_variant, NULL },
	{ ">text vs {0} (measured)", NULL, col_text, NULL },
	{ ">{1} vs {0} [{2}% CI]", NULL, col_ratio, NULL },
	{ ">interval for the verdict", NULL, col_verdict_ci, NULL },
	{ ">p (Holm)", NULL, col_p, NULL },
	{ ">Cliff's delta", NULL, col_delta, NULL },
	{ "verdict", "verdict (under simulated layouts of one build)", col_verdict, NULL },
	{ "under the other cycle models", NULL, col_robust, robust_shown },
};

/* The primary metric's unit and kind, for headers: "model_cycles/op
 * (modeled)", "mca_cycles/op (modeled, LLVM skylake)". */
static const char *unit_kind(struct kb_doc *d, const struct kb_model *m, size_t k)
{
	const struct kb_metric *mt = &m->metrics[k];

	return kb_pool_printf(&d->pool, "%s (%s%s%s)", mt->bare_unit, kb_figure_kind_name(mt->source),
			      *mt->model ? ", " : "", mt->model);
}

static void verdict_table(struct kb_doc *d, const struct kb_model *m)
{
	int vl = kb_model_unit(m, m->primary) == KB_UNIT_VLAYOUT;
	struct kb_doc_table *t;
	char *heads = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&heads, &len);

	if (!f)
		abort();
	for (size_t i = 0; i < KB_ARRAY_SIZE(verdict_cols); i++)
		if (!verdict_cols[i].shown || verdict_cols[i].shown(m))
			fprintf(f, "%s%s", i ? "|" : "", vl && verdict_cols[i].head_vlayout ?
				verdict_cols[i].head_vlayout : verdict_cols[i].head);
	fclose(f);
	t = kb_doc_table_heads(d, heads, WORDS(d, m, unit_kind(d, m, m->primary)));
	free(heads);
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++) {
			const struct kb_row *r = kb_model_row(m, c, m->primary, v);

			if (v == m->baseline)
				continue;
			for (size_t i = 0; i < KB_ARRAY_SIZE(verdict_cols); i++)
				if (!verdict_cols[i].shown || verdict_cols[i].shown(m))
					verdict_cols[i].cell(t, m, c, v, r);
		}
	build_sensitive_table(d, m);
	order_split(d, m);
}

/* ---- the first screen: the answer, the forest plot, sizes, functions ---- */

/* binutils size's table for the variants, as the 2004 patch showed it,
 * and the text change of each against the baseline. */
static void size_summary(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in = kb_doc_para(d);

	kb_doc_strong(in, "Text size");
	kb_doc_fmt(in, " (measured: binutils ");
	kb_doc_code(in, "size");
	kb_doc_fmt(in, ", every build: ");
	kb_doc_anchor(in, "Text size", "text-size");
	kb_doc_fmt(in, ")");
	size_table(d, m, 0);
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *x = &m->variants[v];

		if (v == m->baseline || !x->has_size || m->baseline >= m->nv || !m->variants[m->baseline].has_size)
			continue;
		in = kb_doc_para(d);
		kb_doc_fmt(in, ".text %s by %lld bytes (%s): ", x->text_delta < 0 ? "shrinks" : "grows",
			   x->text_delta < 0 ? -x->text_delta : x->text_delta, kb_report_pct(x->text_change).s);
		kb_doc_code(in, x->name);
		kb_doc_fmt(in, " against ");
		kb_doc_code(in, m->baseline_name);
		kb_doc_fmt(in, ".");
	}
}

/* A function's change in one case of the figure the first screen ranks
 * by, and that change as a share of the case's kernel total of it. */
struct top_fn {
	const struct kb_miss_model *c;
	const struct kb_miss_row *r;
	double delta, share;
};

static int cmp_top(const void *a, const void *b)
{
	const struct top_fn *p = a, *q = b;
	double x = fabs(p->delta), y = fabs(q->delta);

	return x != y ? (x < y) - (x > y) : strcmp(p->r->name, q->r->name);
}

#define KB_TOP_FUNCTIONS 5

/* What the first screen ranks functions by: the verdicts' own metric,
 * where the miss-o-meter has it per function (modeled cycles of the
 * blocks, L1i misses, instructions), else instructions. */
enum top_by { TOP_INS, TOP_MISS, TOP_CYC };

static enum top_by top_basis(const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];

	if (mt->cycle_model && m->cycles_model)
		return TOP_CYC;
	if (mt->field && !strncmp(mt->field, "l1i", 3))
		return TOP_MISS;
	return TOP_INS;
}

static double top_delta(enum top_by by, const struct kb_miss_row *r)
{
	return by == TOP_CYC ? r->d_cyc : by == TOP_MISS ? r->d_miss : r->d_ins;
}

static double top_total(enum top_by by, const struct kb_miss_model *c)
{
	return by == TOP_CYC ? c->cyc_k[0] : by == TOP_MISS ? c->miss_k[0] : c->ins_k[0];
}

/* The miss-o-meter's largest: per variant, the functions whose figure per
 * operation (top_basis) changed most against the baseline, each once (its
 * largest case), with the case's share and the other figures beside. */
static void top_functions(struct kb_doc *d, const struct kb_model *m)
{
	enum top_by by = top_basis(m);
	const struct kb_metric *mt = &m->metrics[m->primary];

	for (size_t v = 0; v < m->nv; v++) {
		struct top_fn *all = kb_xcalloc(m->nmiss * KB_MISS_KEPT + 1, sizeof(*all));
		size_t n = 0, shown = 0;
		struct kb_doc_table *t;
		struct kb_inline *in;

		for (size_t i = 0; i < m->nmiss; i++) {
			const struct kb_miss_model *c = &m->miss[i];

			if (c->variant != v || !(top_total(by, c) > 0))
				continue;
			for (size_t k = 0; k < c->n; k++) {
				double dl = top_delta(by, &c->rows[k]);

				if (dl != 0 && !isnan(dl))
					all[n++] = (struct top_fn){ c, &c->rows[k], dl, dl / top_total(by, c) };
			}
		}
		if (!n) {
			free(all);
			continue;
		}
		qsort(all, n, sizeof(*all), cmp_top);
		in = kb_doc_para(d);
		kb_doc_strong(in, "Functions behind the difference");
		if (by == TOP_CYC) {
			kb_doc_fmt(in, " (ranked by the change of modeled cycles per operation, as the verdicts are "
				   "on ");
			kb_doc_str(in, mt->bare_unit);
			kb_doc_fmt(in, ": each function's blocks priced by ");
			kb_doc_str(in, m->cycles_model);
			kb_doc_fmt(in, ", no miss penalty; instructions and L1i misses simulated; every case: ");
		} else {
			kb_doc_fmt(in, " (simulated; ranked by the change of %s per operation%s; every case: ",
				   by == TOP_MISS ? "L1i misses" : "instructions",
				   by == TOP_INS && mt->cycle_model ? " (the run has no per-function cycles)" :
				   by == TOP_INS && mt->source == KB_FIG_MEASURED ?
				   " (the verdicts' metric has no per-function figures)" : "");
		}
		kb_doc_anchor(in, "miss-o-meter", "functions-behind-each-difference-miss-o-meter");
		kb_doc_fmt(in, ")");
		if (by == TOP_CYC)
			t = kb_doc_table_heads(d, "function|case|>cycles/op {0} → {1}|>Δ (share)|>instructions/op Δ|"
					       ">L1i misses/op Δ|>size Δ", WORDS(d, m, m->variants[v].name));
		else if (by == TOP_MISS)
			t = kb_doc_table_heads(d, "function|case|>instructions/op {0} → {1}|>Δ|"
					       ">L1i misses/op Δ (share)|>size Δ", WORDS(d, m, m->variants[v].name));
		else
			t = kb_doc_table_heads(d, "function|case|>instructions/op {0} → {1}|>Δ (share)|"
					       ">L1i misses/op Δ|>size Δ", WORDS(d, m, m->variants[v].name));
		for (size_t i = 0; i < n && shown < KB_TOP_FUNCTIONS; i++) {
			const struct kb_miss_row *r = all[i].r;
			int seen = 0;

			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(all[j].r->name, r->name);
			if (seen)
				continue;
			td_str(t, r->name);
			td_str(t, all[i].c->cas);
			if (by == TOP_CYC) {
				td(t, "%.1f → %.1f", r->cyc[0], r->cyc[1]);
				td(t, "%+.1f (%s)", r->d_cyc, kb_report_pct(all[i].share).s);
				td(t, "%+.1f", r->d_ins);
			} else {
				td(t, "%.1f → %.1f", r->ins[0], r->ins[1]);
				if (by == TOP_MISS)
					td(t, "%+.1f", r->d_ins);
				else
					td(t, "%+.1f (%s)", r->d_ins, kb_report_pct(all[i].share).s);
			}
			if (by == TOP_MISS)
				td(t, "%+.3f (%s)", r->d_miss, kb_report_pct(all[i].share).s);
			else
				td(t, "%+.3f", r->d_miss);
			if (r->size[0] >= 0 && r->size[1] >= 0)
				td(t, "%+lld", r->size[1] - r->size[0]);
			else
				td(t, "%s", r->size[0] < 0 ? "new" : "gone");
			shown++;
		}
		free(all);
	}
}

/* What fits in one screen: the forest plot beside the size table and the
 * functions behind the difference, then the verdicts. */
static void first_screen(struct kb_doc *d, const struct kb_model *m)
{
	kb_doc_box(d, "screen");
	kb_report_plot_forest(d, m);
	size_summary(d, m);
	top_functions(d, m);
	kb_doc_box_end(d);
	verdict_table(d, m);
}

/* The metrics the layout-noise table shows: the primary, instructions,
 * L1i misses and cycles (sim's ins_*, l1i_*, model_cycles; the guest
 * PMU's ins_*, l1i_*, cyc_*). */
static int noise_metric(const struct kb_model *m, size_t k)
{
	const char *f = m->metrics[k].field;

	return k == m->primary || (f && (!strncmp(f, "ins", 3) || !strncmp(f, "l1i", 3) ||
					 !strncmp(f, "cyc", 3) || strstr(f, "cycles")));
}

/* Per case, how far the layouts of one variant spread, beside how far the
 * variants differ: the noise a verdict is judged against.  Layouts: the
 * built ones and, where a metric has them, their virtual ones; a metric
 * the virtual layouts do not move (instructions) with one built layout has
 * no spread to show, and says so. */
/* One row of the layout-noise table: metric k of variant v in case c. */
static void noise_row(struct kb_doc_table *t, const struct kb_model *m, size_t c, size_t k, size_t v, int with_metric)
{
	const struct kb_metric *mt = &m->metrics[k];
	const struct kb_row *r = kb_model_row(m, c, k, v);
	int spread = r->by_layout && r->layouts;

	if (!r->boots)
		return;
	td_str(t, m->cases[c]);
	td_str(t, m->variants[v].name);
	if (with_metric)
		td_str(t, mt->unit);
	if (!spread)
		td(t, "1");
	else if (mt->virtual_layouts)
		td(t, "%zu = %zu x (%zu+1)", r->layouts, built_layouts(m), mt->virtual_layouts);
	else
		td(t, "%zu", r->layouts);
	td(t, "%s", kb_report_fig(spread ? r->lo : r->median).s);
	td(t, "%s", kb_report_fig(spread ? r->hi : r->median).s);
	if (!spread)
		td(t, "n/a");
	else if (r->median != 0 && isfinite(r->median))
		td(t, "%.2f%%", 100 * (r->hi - r->lo) / fabs(r->median));
	else
		td(t, "%s", r->hi > r->lo ? "n/a" : "0");
	if (v == m->baseline)
		td(t, "%s", "");
	else if (isinf(r->t.ratio))
		td(t, "%s", kb_report_ratio_ci(&r->t).s);
	else
		td(t, "%s", kb_report_pct(r->t.ratio - 1).s);
	if (v == m->baseline || !r->t.done || !isfinite(r->t.superiority))
		td(t, "%s", "");
	else
		td(t, "%.0f%%", 100 * r->t.superiority);
	test_verdict_cell(t, &r->t, &m->o, "");
}

/* Per case, how far the layouts of one variant spread, beside how far the
 * variants differ: the noise a verdict is judged against, in one table of
 * the primary metric (case x variant); the other metrics' in report.html
 * only (and in summary.csv).  Layouts: the built ones and, where a metric
 * has them, their virtual ones; a metric the virtual layouts do not move
 * (instructions) with one built layout has no spread to show, and says so. */
static void layout_noise(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;

	in = kb_doc_para(d);
	kb_doc_fmt(in, "What the layout alone moves: per case and variant, the range of the per-layout "
		   "medians of ");
	kb_doc_str(in, unit_kind(d, m, m->primary));
	kb_doc_fmt(in, " (each the median over that layout's boots and samples) and its spread (range over "
		   "median), beside the variant's effect against ");
	kb_doc_code(in, m->baseline_name);
	kb_doc_fmt(in, " (ratio of medians, minus 1), and the share of pairs of layouts, one of each, in "
		   "which the variant costs more. The range and that share describe the spread: they "
		   "decide nothing (a verdict reads the ratio's interval).");
	if (m->virtual_layouts)
		kb_doc_fmt(in, " Layouts \"N = B x (K+1)\": B built layouts, each at its own addresses and "
			   "in K virtual layouts (simulated misses, modeled cycles: the same instructions with "
			   "the kernel's functions elsewhere). Instructions do not move with a virtual layout: "
			   "with one built layout they have no layout spread (n/a).");
	t = kb_doc_table_heads(d, "case|variant|>layouts|>min|>max|>spread|>effect vs {0}|"
			       ">costs more than {0}|verdict", WORDS(d, m, NULL));
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++)
			noise_row(t, m, c, m->primary, v, 0);
	kb_doc_html_only(d, 1);
	kb_doc_fmt(kb_doc_para(d), "Every metric of the layout noise (instructions, L1i misses, cycles):");
	t = kb_doc_table_heads(d, "case|variant|metric|>layouts|>min|>max|>spread|>effect vs {0}|"
			       ">costs more than {0}|verdict", WORDS(d, m, NULL));
	for (size_t c = 0; c < m->nc; c++)
		for (size_t k = 0; k < m->nm; k++)
			for (size_t v = 0; v < m->nv && noise_metric(m, k) && k != m->primary; v++)
				noise_row(t, m, c, k, v, 1);
	kb_doc_html_only(d, 0);
}

/* Other processes' share of the machine's CPU above which timed boots are
 * said to have shared it (hostload.h: good to about a tick per CPU). */
#define KB_IDLE_SHARE 0.05

/* Whether the machine was otherwise idle while what ran: measured. */
static void host_load(struct kb_inline *in, const struct kb_host_other *h, const char *what)
{
	if (!h->n)
		return;
	kb_doc_fmt(in, " While %s ran, other processes used %.1f%% of the machine's CPU time (median "
		   "over %zu; at most %.1f%%; measured: /proc/stat less kbench's own CPU time): ", what,
		   100 * h->median, h->n, 100 * h->max);
	if (h->max <= KB_IDLE_SHARE)
		kb_doc_fmt(in, "the machine was otherwise idle.");
	else
		kb_doc_strong(in, kb_pool_printf(in->pool, "the machine was not idle (over %.0f%% "
						 "in some); the times include that interference.",
						 100 * KB_IDLE_SHARE));
}

/* Whole boots timed by hyperfine: their own model, their own table, never
 * mixed into the per-operation verdicts. */
static void boot_timing(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_model *bt = m->boot_timing;
	struct kb_doc_table *t;
	struct kb_inline *in;

	in = kb_doc_para(d);
	kb_doc_fmt(in, "hyperfine timed whole boots of each variant: ");
	kb_doc_code(in, "kbench boot-check");
	kb_doc_fmt(in, ", QEMU start to guest exit, the guest runner doing no workload; a boot counts only "
		   "when the guest said done. Figure: ");
	source_note(in, &bt->metrics[0], ", ");
	kb_doc_fmt(in, ". Each timed boot is one replicate: median with a %.0f%% bootstrap interval, ratio to ",
		   confidence(m));
	kb_doc_code(in, m->baseline_name);
	kb_doc_fmt(in, " with its interval, two-sided exact Mann-Whitney U (one test: no correction), "
		   "Cliff's delta. The boots are interleaved: after each variant's warm-up boots, every round "
		   "times one boot of each variant, in an order shuffled per round from the run's seed "
		   "(hyperfine --runs 1 per boot), so that a change in the host's load falls on every "
		   "variant alike.");
	host_load(in, &bt->host_other, "the timed boots");
	if (emulated(bt))
		kb_doc_strong(in, " These boots ran under TCG: the figures are emulation time (QEMU translating "
			      "the guest on this host, and moving with the host's load), not the guest's speed "
			      "on hardware, and are kept out of the answer above.");
	t = kb_doc_table_heads(d, "variant|text vs {0}|>boots timed|>failed|>median s [{2}% CI]|>vs {0} [{2}% CI]|"
			       ">p|>Cliff's delta|verdict|>outlier boots", WORDS(d, m, NULL));
	for (size_t i = 0; i < bt->nrows; i++) {
		const struct kb_row *r = &bt->rows[i];
		const struct kb_model_variant *v = &bt->variants[r->variant];
		const struct kb_timing *tm = kb_model_timing(bt, v->name);

		if (r->metric != 0)
			continue;
		td_str(t, v->name);
		td(t, "%s", kb_report_pct(v->text_change).s);
		td(t, "%zu", r->boots);
		td(t, "%lld", tm ? tm->failed : 0);
		td(t, "%s", r->boots ? seconds_ci(r).s : "");
		td(t, "%s", r->variant != bt->baseline ? kb_report_ratio_ci(&r->t).s : "");
		td(t, "%s", r->t.done ? kb_report_p(r->t.p).s : "");
		td(t, "%s", r->t.done ? kb_report_delta(r->t.cliffs_delta).s : "");
		verdict_cell(t, r->t.verdict, "");
		td(t, "%zu", r->n_outlier_boots);
	}
	caveat_list(d, bt, KB_CAVEAT_FEW_VARIANTS);	/* said once, in the verdict section */
}

/* A line of binutils size's Berkeley table (the header when s is NULL), as
 * size.c prints it, into the preformatted block. */
static void size_line(struct kb_block *pre, const struct kb_size *s, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	if (s)
		kb_size_print_row(f, s, name);
	else
		kb_size_print_header(f);
	fclose(f);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	kb_doc_pre_line(pre, text);
	free(text);
}

/* binutils size's Berkeley table of the variants' vmlinux files, each
 * followed by its layout replicas' with replicas, as a preformatted block. */
static void size_table(struct kb_doc *d, const struct kb_model *m, int replicas)
{
	struct kb_block *pre = kb_doc_pre(d);

	size_line(pre, NULL, NULL);
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *x = &m->variants[v];
		struct kb_size s = { (unsigned long long)x->text, (unsigned long long)x->data,
				     (unsigned long long)x->bss };

		if (x->has_size)
			size_line(pre, &s, x->vmlinux);
		for (size_t r = 0; replicas && r < x->nreplicas; r++) {
			const struct kb_model_replica *y = &x->replicas[r];
			struct kb_size ys = { (unsigned long long)y->text, (unsigned long long)y->data,
					      (unsigned long long)y->bss };

			if (y->layout > 0 && y->has_size)
				size_line(pre, &ys, y->vmlinux);
		}
	}
}

/* The layout replicas' builds: same flags, padding moves the code. */
static void layout_sizes(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t = NULL;
	struct kb_inline *in;

	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *x = &m->variants[v];

		for (size_t r = 0; r < x->nreplicas; r++) {
			const struct kb_model_replica *y = &x->replicas[r];

			if (x->nreplicas < 2)
				break;
			if (!t) {
				in = kb_doc_para(d);
				kb_doc_fmt(in, "Layout replicas: each variant built again with the same "
					   "flags and NOPs in its text (after the head and init objects, "
					   "and between mm/ and fs/), which move the code after them; "
					   "layout 0 has none (text measured, as binutils size):");
				t = kb_doc_table_heads(d, "variant|>layout|>seed|>padding (bytes)|>text|"
						       ">vs layout 0|status", NULL);
			}
			td_str(t, x->name);
			td(t, "%lld", y->layout);
			td(t, "%lld", y->seed);
			td(t, "%lld + %lld", y->pad[0], y->pad[1]);
			if (y->has_size)
				td(t, "%lld", y->text);
			else
				td_str(t, "n/a");
			if (y->has_size && x->has_size)
				td(t, "%+lld", y->text - x->text);
			else
				td_str(t, "n/a");
			td_str(t, y->status);
		}
	}
}

static void text_size_table(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;

	in = kb_doc_para(d);
	kb_doc_fmt(in, "Berkeley format, as binutils ");
	kb_doc_code(in, "size");
	kb_doc_fmt(in, " prints it (run directory relative paths):");
	size_table(d, m, 1);
	kb_doc_html_only(d, 1);	/* the padding of each: report.html only */
	layout_sizes(d, m);
	kb_doc_html_only(d, 0);
	if (m->baseline >= m->nv || !m->variants[m->baseline].has_size)
		return;
	t = kb_doc_table_heads(d, "variant|>text|>change vs {0}|flags|description", WORDS(d, m, NULL));
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *x = &m->variants[v];

		if (!x->has_size)
			continue;
		td_str(t, x->name);
		td(t, "%lld", x->text);
		td(t, "%+lld (%s)", x->text_delta, kb_report_pct(x->text_change).s);
		td_str(t, x->flags);
		td_str(t, x->description);
	}
	kb_report_plot_size(d, m);
}

static void symbols(struct kb_doc *d, const struct kb_model *m);
static void executed_text(struct kb_doc *d, const struct kb_model *m);

/* Sizes: binutils size's table of every build, the symbols against the
 * baseline, and the text that ran. */
static void text_size(struct kb_doc *d, const struct kb_model *m)
{
	text_size_table(d, m);
	symbols(d, m);
	executed_text(d, m);
}

/* The symbol-level part of the size section: bloat-o-meter's counts
 * against the baseline, the full list, and (report.html) the top growers
 * and shrinkers. */
static void symbols(struct kb_doc *d, const struct kb_model *m)
{
	const char *base = m->baseline_name;
	struct kb_doc_table *t;
	struct kb_inline *in;

	if (!m->nbloat)
		return;
	in = kb_doc_heading(d, 4);
	kb_doc_fmt(in, "Symbols against ");
	kb_doc_str(in, base);
	in = kb_doc_para(d);
	kb_doc_fmt(in, "Per-symbol changes counted as the kernel's ");
	kb_doc_code(in, "scripts/bloat-o-meter");
	kb_doc_fmt(in, " counts them (");
	kb_doc_code(in, "kbench bloat -c");
	kb_doc_fmt(in, ": nm's t, d/b and r symbols; ");
	kb_doc_code(in, ".N");
	kb_doc_fmt(in, " suffixes dropped).");
	t = kb_doc_table_heads(d, "variant|symbols|>add/remove|>grow/shrink|>up/down|>total in {0}|"
			       ">total in variant|>change", WORDS(d, m, NULL));
	for (size_t i = 0; i < m->nbloat; i++)
		for (size_t k = 0; k < KB_ARRAY_SIZE(m->bloat[i].cat); k++) {
			const struct kb_bloat_category *c = &m->bloat[i].cat[k];

			td_str(t, m->variants[m->bloat[i].variant].name);
			td(t, "%s", c->what);
			td(t, "%zu/%zu", c->add, c->remove);
			td(t, "%zu/%zu", c->grow, c->shrink);
			td(t, "%llu/%lld", c->up, -(long long)c->down);
			td(t, "%llu", c->old_total);
			td(t, "%llu", c->new_total);
			td(t, "%+.2f%%", c->percent);
		}
	for (size_t i = 0; i < m->nbloat; i++) {
		const struct kb_bloat_figures *b = &m->bloat[i];
		const char *name = m->variants[b->variant].name;
		static const char *const what[] = { "growers", "shrinkers" };

		if (b->full_path) {
			in = kb_doc_para(d);
			kb_doc_str(in, name);
			kb_doc_fmt(in, " against ");
			kb_doc_str(in, base);
			kb_doc_fmt(in, ", every symbol (");
			kb_doc_code(in, "kbench bloat");
			kb_doc_fmt(in, ", the same as ");
			kb_doc_code(in, "scripts/bloat-o-meter");
			kb_doc_fmt(in, "): ");
			kb_doc_link(in, b->full_path, b->full_path);
		}
		kb_doc_html_only(d, 1);	/* report.md links the full list above */
		for (int k = 0; k < 2; k++) {
			const struct kb_bloat_change *ch = k ? b->shrinkers : b->growers;
			size_t n = k ? b->n_shrinkers : b->n_growers;

			in = kb_doc_para(d);
			kb_doc_fmt(in, "Top %d %s, ", KB_MODEL_BLOAT_TOP, what[k]);
			kb_doc_str(in, name);
			kb_doc_fmt(in, " against ");
			kb_doc_str(in, base);
			kb_doc_fmt(in, ":");
			t = kb_doc_table_heads(d, "symbol|>{0}|>{1}|>delta", WORDS(d, m, name));
			for (size_t j = 0; j < n; j++) {
				td_str(t, ch[j].name);
				if (ch[j].in_old)
					td(t, "%llu", ch[j].old_size);
				else
					td(t, "-");
				if (ch[j].in_new)
					td(t, "%llu", ch[j].new_size);
				else
					td(t, "-");
				td(t, "%+lld", ch[j].delta);
			}
			if (!n) {
				td(t, "(none)");
				for (int e = 0; e < 3; e++)
					td(t, "%s", "");
			}
		}
		kb_doc_html_only(d, 0);
	}
}

/* Does the shrink land in the code that runs?  The sim backend's dynamic
 * kernel footprint beside the total text. */
static void executed_text(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;

	if (!m->nexec)
		return;
	kb_doc_fmt(opening(d, 4, "Executed text"),
		   "Does the shrink land in the code that runs?  Executed text is the sim backend's dynamic "
		   "kernel footprint: the distinct bytes of kernel text executed in a measured region.  "
		   "Beside it, the size of the functions that ran (their whole symbols, as bloat-o-meter "
		   "names them: same-named statics summed); executed / text is a share of the "
		   "variant's text (Text size).  Medians over the samples (sim.jsonl: the Boots' count); simulated, not "
		   "measured.");
	t = kb_doc_table_heads(d, "case|variant|>executed text|>vs {0}|>executed / text|"
			       ">functions that ran|>vs {0}", WORDS(d, m, NULL));
	for (size_t i = 0; i < m->nexec; i++) {
		const struct kb_exec_row *r = &m->exec[i];
		const struct kb_model_variant *v = &m->variants[r->variant];

		td_str(t, r->cas);
		td_str(t, v->name);
		td(t, "%.0f", r->executed);
		td(t, "%s", kb_report_pct(r->executed_change).s);
		if (isfinite(r->executed_share))
			td(t, "%.2f%%", 100 * r->executed_share);
		else
			td(t, "n/a");
		if (isfinite(r->functions))
			td(t, "%.0f", r->functions);
		else
			td(t, "n/a");
		td(t, "%s", kb_report_pct(r->functions_change).s);
	}
}

/* The miss-o-meter: per case, the functions behind a variant's change in
 * instructions and L1i misses per operation (sim). */
/* What an ordered variant's order moved: per case, the functions it
 * names that ran, and the sums of their changes per operation. */
static void moved_table(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t = NULL;

	for (size_t i = 0; i < m->nmiss; i++) {
		const struct kb_miss_model *c = &m->miss[i];

		if (c->moved_n < 0)
			continue;
		if (!t) {
			struct kb_inline *in = kb_doc_para(d);

			kb_doc_strong(in, "What the orders moved.");
			kb_doc_fmt(in, " Per case, the functions an ordered variant's order names that ran in "
				   "either kernel, and the sums of their changes against ");
			kb_doc_code(in, m->baseline_name);
			kb_doc_fmt(in, " per operation (simulated; cycles modeled: the machine model's price "
				   "of their blocks, which carries no miss penalty, so what the order saves in "
				   "misses is in the misses' column, not in the cycles'): where the order's own "
				   "functions gained or lost, apart from the rest of the kernel.");
			t = kb_doc_table_heads(d, "case|variant|>functions of the order that ran|>instructions Δ|"
					       ">L1i misses Δ|>the whole kernel's L1i misses Δ|>cycles Δ", NULL);
		}
		td_str(t, c->cas);
		td_str(t, m->variants[c->variant].name);
		td(t, "%ld", c->moved_n);
		td(t, "%+.1f", c->moved_d_ins);
		td(t, "%+.3f", c->moved_d_miss);
		td(t, "%+.3f", c->miss_k[1] - c->miss_k[0]);
		if (isnan(c->moved_d_cyc))
			td(t, "%s", "n/a");
		else
			td(t, "%+.1f", c->moved_d_cyc);
	}
}

static void miss_o_meter(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;
	struct kb_inline *in;

	in = kb_doc_para(d);
	kb_doc_fmt(in, "Per case, the kernel functions whose instructions per operation grew or shrank "
		   "most against ");
	kb_doc_code(in, m->baseline_name);
	kb_doc_fmt(in, " (up to %d each way) and those whose L1i misses changed most, with their size "
		   "change as bloat-o-meter names them; \"[kernel]\" is kernel code outside System.map's "
		   "functions. Sums over the samples of sim.jsonl per iteration; simulated. Every function: ",
		   KB_MISS_TOP_INS);
	kb_doc_code(in, "kbench miss-o-meter RUN_DIR");
	kb_doc_fmt(in, ".");
	kb_doc_fmt(in, " The first screen shows the largest; the table of every case is in report.html.");
	kb_doc_html_only(d, 1);
	t = kb_doc_table_heads(d, "case|variant|>kernel instructions {0} → variant|function|>instructions|"
			       ">Δ|>L1i misses|>Δ|>size Δ|>functions changed", WORDS(d, m, NULL));
	for (size_t i = 0; i < m->nmiss; i++) {
		const struct kb_miss_model *c = &m->miss[i];

		for (size_t k = 0; k < c->n; k++) {
			const struct kb_miss_row *r = &c->rows[k];

			td_str(t, k ? "" : c->cas);
			td_str(t, k ? "" : m->variants[c->variant].name);
			if (k)
				td(t, "%s", "");
			else
				td(t, "%.1f → %.1f", c->ins_k[0], c->ins_k[1]);
			in = td(t, "%s", "");
			kb_doc_str(in, r->name);
			if (r->moved)
				kb_doc_fmt(in, " (moved by its order)");
			td(t, "%.1f → %.1f", r->ins[0], r->ins[1]);
			td(t, "%+.1f", r->d_ins);
			td(t, "%.3f → %.3f", r->miss[0], r->miss[1]);
			td(t, "%+.3f", r->d_miss);
			if (r->size[0] >= 0 && r->size[1] >= 0)
				td(t, "%+lld", r->size[1] - r->size[0]);
			else
				td(t, "%s", r->size[0] < 0 ? "new" : "gone");
			if (k)
				td(t, "%s", "");
			else
				td(t, "%zu", c->changed);
		}
	}	kb_doc_html_only(d, 0);
	moved_table(d, m);
}

/* One row of a metric table: the columns of the first report, then the
 * statistics. */
static void metric_row(struct kb_doc_table *t, const struct kb_model *m, const struct kb_row *r)
{
	const struct kb_model_variant *v = &m->variants[r->variant];
	int time = r->metric == 0;
	struct kb_inline *in;

	td_str(t, m->cases[r->cas]);
	td_str(t, v->name);
	/* other metrics name their unit in the third column: only the time
	 * table keeps the first report's "| case | variant | number |" rows */
	if (!time)
		td_str(t, m->metrics[r->metric].unit);
	if (!r->boots) {
		in = td(t, "no samples (");
		kb_doc_str(in, v->status);
		kb_doc_fmt(in, ")");
		td(t, "%s", "");
		td(t, "0");
		td(t, "0");
		for (int i = 0; i < 7; i++)
			td(t, "%s", "");
		return;
	}
	if (time)
		td(t, "%.1f", r->median);
	else
		td(t, "%s", kb_report_fig(r->median).s);
	if (isfinite(r->t.ratio))
		td(t, "%.3f", r->t.ratio);
	else if (isinf(r->t.ratio))
		td(t, "%s", kb_report_ratio_ci(&r->t).s);
	else
		td(t, "%s", "");
	td(t, "%zu", r->boots);
	td(t, "%lld", r->samples);
	td_str(t, m->backend);
	td(t, "%s", interval(r->ci, 0).s);
	td(t, "%s", r->t.done ? interval(r->t.ratio_ci, 1).s : "");
	td(t, "%s", r->t.done ? kb_report_test_p(&r->t).s : "");
	td(t, "%s", r->t.done ? kb_report_delta(r->t.cliffs_delta).s : "");
	test_verdict_cell(t, &r->t, &m->o, "");
	in = kb_doc_td(t);
	for (size_t i = 0; i < r->n_outlier_boots; i++)
		kb_doc_fmt(in, "%s%lld", i ? ", " : "boot ", r->outlier_boots[i]);
	if (r->outlier_samples)
		kb_doc_fmt(in, "%s%lld samples", r->n_outlier_boots ? "; " : "", r->outlier_samples);
}

static void metric_table(struct kb_doc *d, const struct kb_model *m, size_t k, const char *first_col)
{
	const struct kb_metric *mt = &m->metrics[k];
	char *heads = kb_xasprintf("%s|variant|%s>median {1}|>vs {0}|>boots|>samples|backend|>{2}%% CI|"
				   ">vs {0} {2}%% CI|>p (Holm)|>Cliff's delta|verdict|outliers", first_col,
				   k ? "metric|" : "");
	struct kb_doc_table *t = kb_doc_table_heads(d, heads, WORDS(d, m, mt->unit));

	free(heads);
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++)
			metric_row(t, m, kb_model_row(m, c, k, v));
}

static void speed(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in;

	in = kb_doc_para(d);
	if (m->metrics[0].by_layout)
		kb_doc_fmt(in, "Median over layouts of each layout's median time per operation (its boots' "
			   "samples pooled). Backend ");
	else
		kb_doc_fmt(in, "Median over boots of each boot's median time per operation. Backend ");
	kb_doc_code(in, m->backend);
	kb_doc_fmt(in, ": ");
	source_note(in, &m->metrics[0], ", ");
	kb_doc_fmt(in, ". Intervals: %.0f%% percentile bootstrap over %s. Outliers (modified z-score "
		   "of a boot's median above %.1f, or of a sample within its boot) are marked, never "
		   "dropped.", confidence(m), m->metrics[0].by_layout ? "layouts" : "boots", m->o.outlier_z);
	kb_doc_fmt(in, " The verdicts are the primary metric's (the verdict table); the tables of every "
		   "metric are in report.html and summary.csv.");
	kb_report_plot_cost(d, m);
	kb_report_plot_sweeps(d, m);
	kb_doc_html_only(d, 1);
	metric_table(d, m, 0, "workload");
	for (size_t k = 1; k < m->nm; k++) {
		kb_doc_str(kb_doc_heading(d, 4), m->metrics[k].label);
		in = kb_doc_para(d);
		source_note(in, &m->metrics[k], ": ");
		kb_doc_fmt(in, ".");
		if (m->metrics[k].virtual_layouts) {
			kb_doc_fmt(in, " Median and intervals over %zu layouts per variant",
				   layouts_per_variant(m, k));
			layouts_made_of(in, m, k);
			kb_doc_fmt(in, ", each the median over its boots' samples.");
		}
		metric_table(d, m, k, "case");
	}
	kb_doc_html_only(d, 0);
}

static void correlation_row(struct kb_doc_table *t, const struct kb_model *m, const struct kb_correlation *c);

static void correlation(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;

	kb_doc_fmt(kb_doc_para(d),
		   "Spearman rank correlation across variants between text size and the median of each "
		   "metric (positive: bigger is costlier), with an exact permutation p-value (every "
		   "ordering up to 8 variants, else %zu random ones); and whether the variant with the "
		   "least text is also the cheapest.", m->o.resamples);
	size_t most = 0;

	for (size_t i = 0; i < m->ncorr; i++)
		most = m->corr[i].n > most ? m->corr[i].n : most;
	/* the primary metric's, then (report.html only) the others', unless
	 * no case has three variants: then each rho is +-1 with p = 1 */
	for (int primary = 1; primary >= 0; primary--) {
		kb_doc_html_only(d, !primary);
		if (!primary && most < 3) {
			kb_doc_fmt(kb_doc_para(d), "The other metrics' rows are left out: with two "
				   "variants a rank correlation is +1 or -1, with p = 1 (summary.json has "
				   "them).");
			break;
		}
		t = kb_doc_table_heads(d, "case|metric|>variants|>Spearman rho|>p (permutation)|smallest|cheapest|"
				       "smallest is cheapest", NULL);
		for (size_t i = 0; i < m->ncorr; i++)
			if ((m->corr[i].metric == m->primary) == primary)
				correlation_row(t, m, &m->corr[i]);
	}
	kb_doc_html_only(d, 0);
	kb_report_plot_size_cost(d, m);
}

static void correlation_row(struct kb_doc_table *t, const struct kb_model *m, const struct kb_correlation *c)
{
	td_str(t, m->cases[c->cas]);
	td_str(t, m->metrics[c->metric].unit);
	td(t, "%zu", c->n);
	if (isfinite(c->rho))
		td(t, "%+.3f", c->rho);
	else
		td(t, "n/a");
	td(t, "%s", kb_report_p(c->p).s);
	td_str(t, m->variants[c->smallest].name);
	td_str(t, m->variants[c->fastest].name);
	td(t, "%s", !c->smallest_is_fastest ? "no" : c->cheapest_tied ? "tied" : "yes");
}

static void boots(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;

	struct kb_inline *in = kb_doc_para(d);

	kb_doc_fmt(in, "%zu of %zu boots completed.", m->boots_ok, m->boots_total);
	if (m->boots_per_variant > 0 && m->layouts > 1)
		kb_doc_fmt(in, " %ld boot%s per layout replica, %ld layouts per variant: ",
			   m->boots_per_variant, m->boots_per_variant == 1 ? "" : "s", m->layouts);
	else if (m->boots_per_variant > 0)
		kb_doc_fmt(in, " %ld boot%s per variant: ", m->boots_per_variant,
			   m->boots_per_variant == 1 ? "" : "s");
	if (m->boots_per_variant > 0) {
		kb_doc_str(in, m->boots_why);	/* the manifest's words: data */
		kb_doc_fmt(in, ".");
	}
	if (m->deterministic && m->boots_at_once > 1)
		kb_doc_fmt(in, " Boots ran up to %ld at once: the counts do not depend on the machine's load.",
			   m->boots_at_once);
	else if (!m->deterministic && m->boots_at_once == 1)
		kb_doc_fmt(in, " Boots ran one at a time: their figures are times.");
	if (!m->deterministic)
		host_load(in, &m->host_other, "the measuring boots");
	if (m->n_node_boots) {
		/* executor = slurm: a timed boot's figures belong to its machine */
		kb_doc_fmt(kb_doc_para(d), "Slurm nodes the boots ran on:");
		t = kb_doc_table_heads(d, ">boot|variant|node|status", NULL);
		for (size_t i = 0; i < m->n_node_boots; i++) {
			td(t, "%lld", m->node_boots[i].boot);
			td_str(t, m->node_boots[i].variant);
			td_str(t, m->node_boots[i].node);
			td_str(t, m->node_boots[i].status);
		}
	}
	if (!m->n_failed_boots)
		return;
	t = kb_doc_table_heads(d, "variant|>boot|status|reason|serial log", NULL);
	for (size_t i = 0; i < m->n_failed_boots; i++) {
		const struct kb_boot *b = &m->failed_boots[i];

		td_str(t, b->variant);
		td(t, "%lld", b->boot);
		td_str(t, b->status);
		td_str(t, b->reason);
		td_str(t, b->serial);
	}
}

static void variants(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_doc_table *t;

	t = kb_doc_table_heads(d, "variant|status|build|config key|compiler|log", NULL);
	for (size_t i = 0; i < m->nv_manifest; i++) {
		const struct kb_model_variant *v = &m->variants[i];
		struct kb_inline *in;
		char key[13];
		size_t n = strnlen(v->key, sizeof(key) - 1);

		td_str(t, v->name);
		in = kb_doc_td(t);
		kb_doc_str(in, v->status);
		if (*v->reason) {
			kb_doc_fmt(in, ": ");
			kb_doc_str(in, v->reason);
		}
		if (v->cached)
			td(t, "cached");
		else if (isfinite(v->build_seconds))
			td(t, "%.0f s", v->build_seconds);
		else
			td(t, "%s", "");
		memcpy(key, v->key, n);
		key[n] = '\0';
		kb_doc_code(kb_doc_td(t), key);
		td_str(t, v->compiler);
		in = td(t, "variants/");
		kb_doc_str(in, v->name);
		kb_doc_fmt(in, "/build.log");
	}
}

/* What the guest's architecture ([kernel] arch) changes in what was
 * measured: the calling convention and the system call entry. */
static void guest_arch(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in = kb_doc_para(d);

	if (!strcmp(m->kernel.arch, "i386"))
		kb_doc_fmt(in, "i386: the kernel takes its first three arguments in registers "
			   "(-mregparm=3), user code all of them on the stack; a system call enters by int "
			   "0x80 (entry_INT80_32) or sysenter (entry_SYSENTER_32, through the vDSO). On "
			   "x86_64 (arch = x86_64) both pass six in registers and enter by syscall: other "
			   "figures.");
	else
		kb_doc_fmt(in, "x86_64: kernel and user code take six integer arguments in registers (the "
			   "ABI, no -mregparm), 16 registers, 8-byte pointers, REX prefixes; a system call "
			   "enters by syscall (entry_SYSCALL_64). On i386 (arch = i386) the kernel takes three "
			   "in registers and enters by int 0x80 or sysenter: other figures. Sizes: an x86_64 "
			   "vmlinux keeps its entry code between 2 MiB (PMD) boundaries (ALIGN_ENTRY_TEXT_BEGIN "
			   "and _END in arch/x86/kernel/vmlinux.lds.S), padding included in .text, so binutils "
			   "size's text moves little while the code is under 2 MiB: the symbols' total "
			   "(bloat-o-meter, Symbols against the baseline) is what the code itself takes.");
}

static int has_arch(const struct kb_model *m)
{
	const char *a = m->kernel.arch;

	return a && (!strcmp(a, "i386") || !strcmp(a, "x86_64"));
}

static void footer(struct kb_doc *d, const struct kb_model *m)
{
	(void)m;
	kb_doc_fmt(kb_doc_para(d), "Also in this directory: summary.json and summary.csv (every figure "
		   "above, with the per-boot medians), report.md and report.html (this report; the HTML "
		   "page with plots).");
}

static int has_layouts(const struct kb_model *m)
{
	return m->nlayouts >= 2 || m->virtual_layouts;
}

static int has_boot_timing(const struct kb_model *m)
{
	return m->boot_timing != NULL;
}

static int has_miss(const struct kb_model *m)
{
	return m->nmiss > 0;
}

static int has_correlation(const struct kb_model *m)
{
	return m->ncorr > 0;
}

static int always(const struct kb_model *m)
{
	(void)m;
	return 1;
}

/* The sections under "Details", in order, each folded in report.html
 * under its heading (id: the anchor GitHub gives that heading, so that a
 * link works in both formats): a new one is one line here. */
static const struct {
	const char *title, *id;
	int (*present)(const struct kb_model *m);
	void (*build)(struct kb_doc *d, const struct kb_model *m);
} details[] = {
	{ "Layout noise", "layout-noise", has_layouts, layout_noise },
	{ "Functions behind each difference (miss-o-meter)", "functions-behind-each-difference-miss-o-meter",
	  has_miss, miss_o_meter },
	{ "Cycles that grow where instructions do not (modeled)",
	  "cycles-that-grow-where-instructions-do-not-modeled", kb_report_cycles_present,
	  kb_report_cycles_section },
	{ "Whole boot (hyperfine)", "whole-boot-hyperfine", has_boot_timing, boot_timing },
	{ "The order's prediction (simulated)", "the-orders-prediction-simulated", has_prediction, prediction },
	{ "Text size", "text-size", always, text_size },
	{ "Speed", "speed", always, speed },
	{ "Size against cost", "size-against-cost", has_correlation, correlation },
	{ "Boots", "boots", always, boots },
	{ "Variants", "variants", always, variants },
	{ "Guest architecture", "guest-architecture", has_arch, guest_arch },
};

/* The answer, one paragraph per variant, then the way to the rest. */
static void answer(struct kb_doc *d, const struct kb_model *m)
{
	struct kb_inline *in;

	kb_doc_fmt(kb_doc_heading(d, 2), "Is the smaller kernel also faster?");
	for (size_t i = 0; i < m->nclaims; i++)
		claim(d, m, &m->claims[i]);
	if (!m->nclaims)
		kb_doc_fmt(kb_doc_para(d), "Only one variant: nothing to compare.");
	in = kb_doc_para(d);
	kb_doc_anchor(in, "How these figures were made", "how-these-figures-were-made");
	kb_doc_fmt(in, ". ");
	kb_doc_anchor(in, "Details", "details");
	kb_doc_fmt(in, ".");
	/* a link to each, to open its <details>; report.md's reader scrolls */
	kb_doc_html_only(d, 1);
	in = kb_doc_para(d);
	for (size_t i = 0, n = 0; i < KB_ARRAY_SIZE(details); i++) {
		if (!details[i].present(m))
			continue;
		kb_doc_fmt(in, "%s", n++ ? ", " : "");
		kb_doc_anchor(in, details[i].title, details[i].id);
	}
	kb_doc_fmt(in, ".");
	kb_doc_html_only(d, 0);
}

/* Method and provenance, said once: what every figure of the first
 * screen rests on. */
static void how_made(struct kb_doc *d, const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];
	struct kb_inline *in;

	kb_doc_fmt(kb_doc_heading_id(d, 2, "how-these-figures-were-made", 1), "How these figures were made");
	provenance(d, m);
	in = kb_doc_para(d);
	kb_doc_fmt(in, "Figures: text sizes are measured (ELF section headers, as binutils size counts "
		   "them); ");
	kb_doc_str(in, mt->unit);
	kb_doc_fmt(in, ", the metric of the verdicts, is ");
	source_note(in, mt, ": ");
	kb_doc_fmt(in, "; the functions behind a difference are the sim backend's attribution "
		   "(simulated).");
	method(d, m);
	claim_notes(d, m);
	if (!m->ncaveats)
		return;
	kb_doc_fmt(kb_doc_para(d), "Caveats:");
	caveat_list(d, m, -1);
}

static void details_sections(struct kb_doc *d, const struct kb_model *m)
{
	kb_doc_fmt(kb_doc_heading_id(d, 2, "details", 0), "Details");
	for (size_t i = 0; i < KB_ARRAY_SIZE(details); i++) {
		if (!details[i].present(m))
			continue;
		kb_doc_fmt(kb_doc_heading_id(d, 3, details[i].id, 1), "%s", details[i].title);
		details[i].build(d, m);
	}
}

/* The report's sections, in order: each is the one definition of what
 * report.md and report.html show there.  The first screen (up to the
 * verdict table) answers; the rest says how, and holds the details. */
static const struct {
	const char *name;
	void (*build)(struct kb_doc *d, const struct kb_model *m);
} sections[] = {
	{ "title", title },
	{ "claim vs measured", claim_vs_measured },
	{ "headline", headline },
	{ "answer", answer },
	{ "first screen", first_screen },
	{ "how these figures were made", how_made },
	{ "footer", footer },
	{ "details", details_sections },
};

void kb_report_document(struct kb_doc *d, const struct kb_model *m)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(sections); i++)
		sections[i].build(d, m);
}

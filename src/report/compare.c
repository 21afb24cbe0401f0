// SPDX-License-Identifier: GPL-2.0-or-later
/* kbench compare (compare.h): B against A with the same tests as within a
 * run; runs that did not measure the same thing are named with the reasons
 * (cmd-compare.c refuses them unless --force); layouts that differ and
 * variants of one run only are said. */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "doc.h"
#include "report.h"
#include "util.h"

/* backend table: whose figures are times, which differ between TCG and
 * KVM (counts do not) */
static int accel_matters(const char *backend)
{
	const struct kb_backend *b = kb_backend_find(backend);

	return b && (b->flags & KB_BACKEND_TIMES);
}

/* A run's value as the reasons show it: they reach the terminal, where a
 * crafted manifest's control characters must not (empty: not recorded). */
static char *shown(const char *s)
{
	char *c = kb_xstrdup(*s ? s : "(none)");

	for (char *p = c; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return c;
}

/* A "differs" line when x and y are not the same. */
static char *differs(char *why, const char *what, const char *x, const char *y)
{
	char *n, *sx, *sy;

	if (!strcmp(x, y))
		return why;
	sx = shown(x);
	sy = shown(y);
	n = kb_xasprintf("%s%s differs: '%s' in A, '%s' in B\n", why, what, sx, sy);
	free(sx);
	free(sy);
	free(why);
	return n;
}

static char *incomparable(const struct kb_model *a, const struct kb_model *b)
{
	char *why = kb_xstrdup(""), sa[32] = "", sb[32] = "";

	if (isfinite(a->scale))
		snprintf(sa, sizeof(sa), "%.15g", a->scale);
	if (isfinite(b->scale))
		snprintf(sb, sizeof(sb), "%.15g", b->scale);
	why = differs(why, "kernel source", a->kernel.id, b->kernel.id);
	why = differs(why, "workloads", a->workloads, b->workloads);
	why = differs(why, "workload scale", sa, sb);
	why = differs(why, "measurement backend", a->backend, b->backend);
	if (accel_matters(a->backend))
		why = differs(why, "accelerator", a->accel, b->accel);
	return why;
}

/* Built layouts the figures rest on (1 without replicas). */
static size_t built_layouts(const struct kb_model *m)
{
	return m->nlayouts ? m->nlayouts : 1;
}

/* The variants of x that y does not have, into *only (*n of them). */
static void only_in(const struct kb_model *x, const struct kb_model *y, const char ***only, size_t *n)
{
	*only = kb_xcalloc(x->nv + 1, sizeof(**only));
	*n = 0;
	for (size_t i = 0; i < x->nv; i++)
		if (kb_model_variant(y, x->variants[i].name) == y->nv)
			(*only)[(*n)++] = x->variants[i].name;
}

/* The rows of one pair of models, decided as their own families. */
static void compare_models(struct kb_compare *c, const struct kb_model *a, const struct kb_model *b,
			   gsl_rng *rng)
{
	size_t first = c->n, n;
	struct kb_test **tests;
	size_t *family;

	if (!a || !b)
		return;
	c->rows = kb_xrealloc(c->rows, (c->n + b->nrows + 1) * sizeof(*c->rows));
	for (size_t i = 0; i < b->nrows; i++) {
		const struct kb_row *rb = &b->rows[i];
		const struct kb_row *ra = kb_model_find(a, b->cases[rb->cas], b->metrics[rb->metric].name,
							b->variants[rb->variant].name);
		struct kb_compare_row *r = &c->rows[c->n];

		if (!ra || !ra->boots || !rb->boots)
			continue;
		memset(r, 0, sizeof(*r));
		r->a = ra;
		r->b = rb;
		r->mb = b;
		r->t.deterministic = ra->t.deterministic && rb->t.deterministic;
		r->t.moves_with_layout = b->metrics[rb->metric].moves_with_layout;
		gsl_rng_set(rng, kb_stats_seed(a->seed ^ b->seed, b->cases[rb->cas], b->metrics[rb->metric].name,
					       b->variants[rb->variant].name));
		kb_model_versus(&r->t, rb, ra, rng, &c->o);
		c->n++;
	}
	n = c->n - first;
	tests = kb_xcalloc(n + 1, sizeof(*tests));
	family = kb_xcalloc(n + 1, sizeof(*family));
	for (size_t i = 0; i < n; i++) {
		const struct kb_row *rb = c->rows[first + i].b;

		tests[i] = &c->rows[first + i].t;
		family[i] = rb->metric * b->nv + rb->variant;
	}
	kb_model_decide(tests, family, n, &c->o);
	free(tests);
	free(family);
}

void kb_compare_init(struct kb_compare *c, const struct kb_model *a, const struct kb_model *b,
		     const char *dir_a, const char *dir_b, const struct kb_model_opts *o)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	memset(c, 0, sizeof(*c));
	c->a = a;
	c->b = b;
	c->dir_a = dir_a;
	c->dir_b = dir_b;
	c->o = *o;
	/* the larger of the runs' own minimum effects */
	c->o.min_effect = fmax(a->o.min_effect, b->o.min_effect);
	c->not_comparable = incomparable(a, b);
	c->layouts_differ = built_layouts(a) != built_layouts(b) || a->virtual_layouts != b->virtual_layouts;
	only_in(a, b, &c->only_a, &c->n_only_a);
	only_in(b, a, &c->only_b, &c->n_only_b);
	compare_models(c, a, b, rng);
	compare_models(c, a->boot_timing, b->boot_timing, rng);
	gsl_rng_free(rng);
}

void kb_compare_release(struct kb_compare *c)
{
	free(c->not_comparable);
	free(c->only_a);
	free(c->only_b);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/* "N built layout(s)" and, where there are some, its virtual ones. */
static void layouts_of(struct kb_inline *in, const struct kb_model *m)
{
	kb_doc_fmt(in, "%zu built layout%s", built_layouts(m), built_layouts(m) == 1 ? "" : "s");
	if (m->virtual_layouts)
		kb_doc_fmt(in, " with %zu virtual layouts each", m->virtual_layouts);
	kb_doc_fmt(in, " (its tests' replicates: %ss)", kb_unit_name(kb_model_unit(m, m->primary)));
}

static void layouts_differ(struct kb_doc *d, const struct kb_compare *c)
{
	struct kb_inline *in = kb_doc_para(d);

	kb_doc_strong(in, "The runs' layouts differ:");
	kb_doc_fmt(in, " A has ");
	layouts_of(in, c->a);
	kb_doc_fmt(in, ", B has ");
	layouts_of(in, c->b);
	kb_doc_fmt(in, "; each side's figures rest on its own.");
}

static void names(struct kb_inline *in, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		kb_doc_fmt(in, i ? ", " : " ");
		kb_doc_code(in, v[i]);
	}
}

static void one_run_only(struct kb_doc *d, const struct kb_compare *c)
{
	struct kb_inline *in = kb_doc_para(d);

	kb_doc_strong(in, "Variants in one run only, not compared:");
	if (c->n_only_a) {
		kb_doc_fmt(in, " only in A:");
		names(in, c->only_a, c->n_only_a);
		kb_doc_fmt(in, c->n_only_b ? ";" : ".");
	}
	if (c->n_only_b) {
		kb_doc_fmt(in, " only in B:");
		names(in, c->only_b, c->n_only_b);
		kb_doc_fmt(in, ".");
	}
}

static void build_doc(struct kb_doc *d, const struct kb_compare *c)
{
	struct kb_doc_table *t;
	struct kb_inline *in;
	char *level;

	kb_doc_fmt(kb_doc_heading(d, 1), "kbench compare");
	in = kb_doc_para(d);
	kb_doc_fmt(in, "A: ");
	kb_doc_code(in, c->dir_a);
	kb_doc_fmt(in, " (run ");
	kb_doc_str(in, c->a->run_id);
	kb_doc_fmt(in, "), B: ");
	kb_doc_code(in, c->dir_b);
	kb_doc_fmt(in, " (run ");
	kb_doc_str(in, c->b->run_id);
	kb_doc_fmt(in, "). Per variant, case and metric: B against A, two-sided Mann-Whitney U test of "
		   "per-boot medians (per-layout where both runs have layouts), Holm-Bonferroni corrected "
		   "over the cases that have a test, at %.0f%% confidence; ratio B/A of the medians with a "
		   "%.0f%% percentile bootstrap interval; a difference under %g%% (or within the layouts' "
		   "range) is not distinguishable, whatever its p.",
		   100 * c->o.level, 100 * c->o.level, 100 * c->o.min_effect);
	if (*c->not_comparable) {
		struct kb_block *l;

		kb_doc_strong(kb_doc_para(d), "Forced: the runs are not comparable:");
		l = kb_doc_list(d);
		for (const char *p = c->not_comparable; *p; ) {
			size_t len = strcspn(p, "\n");
			char *line = kb_xstrndup(p, len);

			kb_doc_str(kb_doc_item(l), line);
			free(line);
			p += len + (p[len] == '\n');
		}
	}
	if (c->layouts_differ)
		layouts_differ(d, c);
	if (c->n_only_a || c->n_only_b)
		one_run_only(d, c);
	level = kb_xasprintf("%.0f", 100 * c->o.level);
	t = kb_doc_table_heads(d, "case|variant|metric|>median A|>median B|>B/A [{0}% CI]|>p (Holm)|"
			       ">Cliff's delta|B is", (const char *const[]){ level });
	free(level);
	for (size_t i = 0; i < c->n; i++) {
		const struct kb_compare_row *r = &c->rows[i];
		const struct kb_model *m = r->mb;

		kb_doc_str(kb_doc_td(t), m->cases[r->b->cas]);
		kb_doc_str(kb_doc_td(t), m->variants[r->b->variant].name);
		kb_doc_str(kb_doc_td(t), m->metrics[r->b->metric].unit);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_report_fig(r->a->median).s);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_report_fig(r->b->median).s);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_report_ratio_ci(&r->t).s);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_report_test_p(&r->t).s);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_report_delta(r->t.cliffs_delta).s);
		kb_doc_fmt(kb_doc_td(t), "%s", kb_verdict_name(r->t.verdict));
	}
	if (!c->n) {
		for (int i = 0; i < 8; i++)
			kb_doc_td(t);
		kb_doc_fmt(kb_doc_td(t), "no variant, case and metric in common");
	}
}

void kb_compare_md(FILE *f, const struct kb_compare *c)
{
	struct kb_doc d;

	kb_doc_init(&d, "kbench compare");
	build_doc(&d, c);
	kb_doc_emit(f, &d, &kb_doc_markdown);
	kb_doc_release(&d);
}

static json_t *layouts_json(const struct kb_model *m)
{
	return json_pack("{s:I,s:I,s:s}", "built", (json_int_t)built_layouts(m), "virtual",
			 (json_int_t)m->virtual_layouts, "test_unit", kb_unit_name(kb_model_unit(m, m->primary)));
}

static json_t *names_json(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/*
 * kbench compare --json, for dashboards: one document, keys in this order,
 * null where a figure does not exist; a key is added, never renamed or
 * dropped, without a new format (results/README.md, "kbench compare --json"):
 *
 *   format        "kbench-compare-1" (KB_COMPARE_FORMAT)
 *   a, b          the run directories as given (A: OLD, B: NEW)
 *   run_a, run_b  their run ids (summary.json's run_id)
 *   confidence    of the intervals (--confidence)
 *   forced        true where --force compared runs that are not comparable,
 *                 not_comparable the reasons, a line each ("" where none)
 *   primary       {name, label, unit, source (measured, simulated or
 *                 modeled), model (the machine model, "LLVM skylake"; null
 *                 for none)}: B's primary metric (summary.json's
 *                 primary_metric and its metrics[] entry); null without one
 *   verdicts[]    {case, variant, ratio (B/A of the medians), ratio_ci[lo,
 *                 hi], verdict_ci[lo, hi] (the interval the verdict reads, at
 *                 verdict_level), verdict_level, p_holm (over the variant's
 *                 cases), verdict (faster, slower, same, not distinguishable,
 *                 equivalent, this layout only; null: no test)}  (the primary
 *                 metric, per case and variant both runs have, in B's order;
 *                 what --fail-on reads)
 *   rows[]        {case, metric, variant, unit, median_a, median_b,
 *                 boot_medians_a[], boot_medians_b[], deterministic, and the
 *                 test's figures as summary.json's results[] has them}
 *                 (every metric, whole boots' last)
 *   layouts       {a, b: {built, virtual, test_unit}}, layouts_differ
 *   only_in_a[], only_in_b[]  variants of one run only, not compared
 */
#define KB_COMPARE_FORMAT "kbench-compare-1"

static json_t *primary_json(const struct kb_model *m)
{
	const struct kb_metric *k;

	if (!m->nm)
		return json_null();
	k = &m->metrics[m->primary];
	return json_pack("{s:s,s:s,s:s,s:s,s:o}", "name", k->name, "label", k->label, "unit", k->unit, "source",
			 kb_figure_kind_name(k->source), "model", *k->model ? json_string(k->model) : json_null());
}

static json_t *interval_json(struct kb_interval ci)
{
	return json_pack("[o,o]", kb_model_json_num(ci.lo), kb_model_json_num(ci.hi));
}

/* The primary metric's verdicts, B against A (--fail-on's rows). */
static json_t *verdicts_json(const struct kb_compare *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_compare_row *r = &c->rows[i];
		const struct kb_test *t = &r->t;

		if (r->mb != c->b || r->b->metric != c->b->primary)
			continue;
		json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o}",
						   "case", c->b->cases[r->b->cas],
						   "variant", c->b->variants[r->b->variant].name,
						   "ratio", kb_model_json_num(t->done ? t->ratio : NAN),
						   "ratio_ci", interval_json(t->done ? t->ratio_ci :
									     (struct kb_interval){ NAN, NAN }),
						   "verdict_ci", interval_json(t->done ? t->verdict_ci :
									       (struct kb_interval){ NAN, NAN }),
						   "verdict_level", kb_model_json_num(t->done ? t->family_level : NAN),
						   "p_holm", kb_model_json_num(t->decided ? t->p_holm : NAN),
						   "verdict", t->verdict == KB_VERDICT_NONE ? json_null() :
						   json_string(kb_verdict_name(t->verdict))));
	}
	return a;
}

json_t *kb_compare_json(const struct kb_compare *c)
{
	json_t *rows = json_array(), *j;

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_compare_row *r = &c->rows[i];
		const struct kb_model *m = r->mb;
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:b}", "case", m->cases[r->b->cas],
				      "metric", m->metrics[r->b->metric].name,
				      "variant", m->variants[r->b->variant].name,
				      "unit", m->metrics[r->b->metric].unit,
				      "median_a", kb_model_json_num(r->a->median),
				      "median_b", kb_model_json_num(r->b->median),
				      "boot_medians_a", kb_model_json_reals(r->a->boot_medians, r->a->boots),
				      "boot_medians_b", kb_model_json_reals(r->b->boot_medians, r->b->boots),
				      "deterministic", r->t.deterministic);

		kb_model_json_test(o, &r->t, 0);
		json_array_append_new(rows, o);
	}
	j = json_pack("{s:s,s:s,s:s,s:s,s:s,s:f,s:b,s:s}", "format", KB_COMPARE_FORMAT, "a", c->dir_a, "b",
		      c->dir_b, "run_a", c->a->run_id, "run_b", c->b->run_id, "confidence", c->o.level,
		      "forced", *c->not_comparable != '\0', "not_comparable", c->not_comparable);
	json_object_set_new(j, "primary", primary_json(c->b));
	json_object_set_new(j, "verdicts", verdicts_json(c));
	json_object_set_new(j, "rows", rows);
	json_object_set_new(j, "layouts", json_pack("{s:o,s:o}", "a", layouts_json(c->a), "b", layouts_json(c->b)));
	json_object_set_new(j, "layouts_differ", json_boolean(c->layouts_differ));
	json_object_set_new(j, "only_in_a", names_json(c->only_a, c->n_only_a));
	json_object_set_new(j, "only_in_b", names_json(c->only_b, c->n_only_b));
	return j;
}

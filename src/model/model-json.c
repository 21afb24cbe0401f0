// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.json: the result model serialized, the one place that names its
 * keys (the layout is in model.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "miss-o-meter.h"
#include "model.h"
#include "rundir.h"
#include "store.h"
#include "util.h"

/* A number, or null where it does not exist (JSON has no NaN). */
json_t *kb_model_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

#define num kb_model_json_num

static json_t *interval(struct kb_interval ci)
{
	return json_pack("[o,o]", num(ci.lo), num(ci.hi));
}

static json_t *ints(const long long *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

json_t *kb_model_json_reals(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, num(v[i]));
	return a;
}

static json_t *size_or_null(int has, long long v)
{
	return has ? json_integer(v) : json_null();
}

void kb_model_json_test(json_t *row, const struct kb_test *t, int reference)
{
	if (reference) {
		json_object_set_new(row, "ratio", num(t->ratio));
		return;
	}
	if (!t->done)
		return;
	json_object_set_new(row, "ratio", num(t->ratio));
	json_object_set_new(row, "ratio_ci", interval(t->ratio_ci));
	/* "test_unit": kbench compare's rows have the metric's "unit" */
	json_object_set_new(row, "test_unit", json_string(kb_unit_name(t->unit)));
	json_object_set_new(row, "replicates", json_pack("[I,I]", (json_int_t)t->n, (json_int_t)t->n_ref));
	json_object_set_new(row, "u", json_real(t->u));
	json_object_set_new(row, "p", num(t->p));
	json_object_set_new(row, "p_exact", json_boolean(t->p_exact));
	json_object_set_new(row, "p_min", num(t->p_min));
	json_object_set_new(row, "cliffs_delta", num(t->cliffs_delta));
	json_object_set_new(row, "effect", json_string(t->effect));
	json_object_set_new(row, "identical_counts", json_boolean(t->identical_counts));
	json_object_set_new(row, "difference", num(t->difference));
	if (t->unit != KB_UNIT_BOOT)
		json_object_set_new(row, "noise", num(t->noise));
	json_object_set_new(row, "superiority", num(t->superiority));
	if (t->decided) {
		json_object_set_new(row, "p_holm", json_real(t->p_holm));
		json_object_set_new(row, "family", json_integer((json_int_t)t->family));
	}
	json_object_set_new(row, "verdict_level", num(t->family_level));
	json_object_set_new(row, "verdict_ci", interval(t->verdict_ci));
	json_object_set_new(row, "verdict", json_string(kb_verdict_name(t->verdict)));
	if (t->needed >= 0)
		json_object_set_new(row, "needed", json_pack("{s:I,s:s,s:s}", "replicates", (json_int_t)t->needed,
							     "unit", kb_unit_name(t->unit), "for",
							     kb_verdict_name(t->needed_for)));
}

/* Verdicts counted by name: {"cases": N, "faster": n, ...} */
static json_t *verdict_counts(const size_t n[KB_VERDICT_N], size_t cases)
{
	json_t *o = json_pack("{s:I}", "cases", (json_int_t)cases);

	for (int k = KB_VERDICT_FASTER; k < KB_VERDICT_N; k++)
		json_object_set_new(o, kb_verdict_name((enum kb_verdict)k), json_integer((json_int_t)n[k]));
	return o;
}

/* An ordered variant's order: its file, how it was made, the cases that
 * trained it and its verdicts on the others (held_out) and on those */
static json_t *variant_order(const struct kb_model *m, const struct kb_model_variant *v)
{
	size_t held[KB_VERDICT_N], trained[KB_VERDICT_N], nheld, ntrained, i = (size_t)(v - m->variants);
	json_t *o, *on = json_null();
	int split;

	if (!v->order)
		return json_null();
	if (v->trained_all) {
		on = json_string("all");
	} else if (v->order_training_known) {
		on = json_array();
		for (size_t k = 0; k < v->ntrained; k++)
			json_array_append_new(on, json_string(v->trained[k]));
	}
	split = i != m->baseline && kb_model_order_split(m, i, held, &nheld, trained, &ntrained) == 0;
	o = json_pack("{s:s,s:o,s:o,s:o}", "path", v->order, "method",
		      *v->order_method ? json_string(v->order_method) : json_null(), "profile_variant",
		      *v->order_profile_variant ? json_string(v->order_profile_variant) : json_null(),
		      "trained_on", on);
	json_object_set_new(o, "held_out", split ? verdict_counts(held, nheld) : json_null());
	json_object_set_new(o, "trained", split ? verdict_counts(trained, ntrained) : json_null());
	return o;
}

static json_t *variant(const struct kb_model *m, const void *x)
{
	const struct kb_model_variant *v = x;
	json_t *o;

	o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:I,s:s,s:o,s:b,s:o,s:s,s:s,s:s}",
			 "name", v->name, "status", v->status, "flags", v->flags, "description", v->description,
			 "text", size_or_null(v->has_size, v->text), "data", size_or_null(v->has_size, v->data),
			 "bss", size_or_null(v->has_size, v->bss), "text_change", num(v->text_change),
			 "boots_ok", (json_int_t)v->boots_ok, "reason", v->reason,
			 "text_delta", size_or_null(v->has_size && isfinite(v->text_change), v->text_delta),
			 "cached", v->cached, "build_seconds", num(v->build_seconds), "key", v->key,
			 "compiler", v->compiler, "vmlinux", v->vmlinux);
	json_object_set_new(o, "order", variant_order(m, v));
	return o;
}

static json_t *metric(const struct kb_model *m, const void *x)
{
	const struct kb_metric *k = x;
	size_t built = m->nlayouts ? m->nlayouts : 1;

	enum kb_unit unit = kb_model_unit(m, (size_t)(k - m->metrics));
	json_t *o = json_pack("{s:s,s:s?,s:s,s:s,s:s,s:s,s:b,s:{s:s,s:s,s:I,s:I,s:I}}", "name", k->name, "field",
			      k->field, "label", k->label, "unit", k->unit, "source", kb_figure_kind_name(k->source),
			      "note", k->note, "moves_with_layout", k->moves_with_layout, "replicates", "unit",
			      k->by_layout ? "layout" : "boot", "test_unit", kb_unit_name(unit), "built_layouts",
			      (json_int_t)built, "virtual_layouts", (json_int_t)k->virtual_layouts, "per_variant",
			      (json_int_t)(k->by_layout ? built * (k->virtual_layouts + 1) : 0));

	/* only where there is one: a run without them keeps its summary */
	if (*k->model)
		json_object_set_new(o, "model", json_string(k->model));
	if (k->cycle_model)
		json_object_set_new(o, "cycle_model", json_true());
	return o;
}

static json_t *row(const struct kb_model *m, const void *x)
{
	const struct kb_row *r = x;
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:o,s:I,s:o,s:b,s:o}",
			      "case", m->cases[r->cas], "metric", m->metrics[r->metric].name,
			      "variant", m->variants[r->variant].name, "backend", m->backend,
			      "boots", (json_int_t)r->boots, "samples", (json_int_t)r->samples,
			      "boot_ids", ints(r->boot_ids, r->boots),
			      "boot_medians", kb_model_json_reals(r->boot_medians, r->boots),
			      "outlier_boots", ints(r->outlier_boots, r->n_outlier_boots),
			      "outlier_samples", (json_int_t)r->outlier_samples, "median", num(r->median),
			      "deterministic", r->t.deterministic, "ci", interval(r->ci));

	if (r->by_layout)
		json_object_update_new(o, json_pack("{s:I,s:o,s:o,s:o}", "layouts", (json_int_t)r->layouts,
						    "layout_ids", ints(r->layout_ids, r->layouts),
						    "layout_medians", kb_model_json_reals(r->layout_medians, r->layouts),
						    "range", json_pack("[o,o]", num(r->lo), num(r->hi))));
	if (r->by_layout && m->metrics[r->metric].virtual_layouts)
		json_object_set_new(o, "layout_virtual", ints(r->layout_virtual, r->layouts));
	if (r->by_layout)
		json_object_update_new(o, json_pack("{s:I,s:o,s:o}", "builds", (json_int_t)r->builds,
						    "build_ids", ints(r->build_ids, r->builds),
						    "build_medians", kb_model_json_reals(r->build_medians, r->builds)));
	if (isfinite(r->build_spread))
		json_object_set_new(o, "build_spread", num(r->build_spread));

	kb_model_json_test(o, &r->t, r->variant == m->baseline);
	if (r->robust != KB_ROBUST_UNJUDGED) {	/* the primary's verdict under each cycle model */
		json_t *by = json_object();

		for (size_t i = 0; i < m->nrobust; i++)
			json_object_set_new(by, m->metrics[m->robust[i]].name,
					    json_string(kb_verdict_name(kb_model_row(m, r->cas, m->robust[i],
										     r->variant)->t.verdict)));
		json_object_set_new(o, "model_robust", json_boolean(r->robust == KB_ROBUST_SAME));
		json_object_set_new(o, "verdicts_by_model", by);
	}
	return o;
}

/* The cycle models every verdict was checked under, and the rows that flip. */
static json_t *robustness(const struct kb_model *m)
{
	json_t *names = json_array(), *flips = json_array();

	for (size_t i = 0; i < m->nrobust; i++)
		json_array_append_new(names, json_string(m->metrics[m->robust[i]].name));
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++)
			if (kb_model_row(m, c, m->primary, v)->robust == KB_ROBUST_FLIPS)
				json_array_append_new(flips, json_pack("{s:s,s:s}", "case", m->cases[c],
								       "variant", m->variants[v].name));
	return json_pack("{s:o,s:I,s:I,s:o}", "metrics", names, "judged", (json_int_t)m->robust_judged,
			 "flips", (json_int_t)m->robust_flips, "flipped", flips);
}

static json_t *correlation(const struct kb_model *m, const void *x)
{
	const struct kb_correlation *c = x;

	return json_pack("{s:s,s:s,s:I,s:o,s:o,s:s,s:s,s:b,s:I}", "metric", m->metrics[c->metric].name,
			 "case", m->cases[c->cas], "n", (json_int_t)c->n, "rho", num(c->rho), "p", num(c->p),
			 "smallest", m->variants[c->smallest].name, "fastest", m->variants[c->fastest].name,
			 "smallest_is_fastest", c->smallest_is_fastest, "cheapest_tied",
			 (json_int_t)c->cheapest_tied);
}

static json_t *claim(const struct kb_model *m, const void *x)
{
	const struct kb_claim *c = x;

	return json_pack("{s:s,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:s}", "variant", m->variants[c->variant].name,
			 "text_change", num(c->text_change),
			 "smaller", isfinite(c->text_change) ? json_boolean(c->text_change < 0) : json_null(),
			 "faster", (json_int_t)c->faster, "slower", (json_int_t)c->slower,
			 "same", (json_int_t)c->same, "undecided", (json_int_t)c->undecided,
			 "equivalent", (json_int_t)c->equivalent, "answer", kb_answer_name(c->answer));
}

/* The answer's metric is kbench's cycle model because llvm-mca's was
 * missing (the line says so: kb_model_answer_line). */
static int fell_back(const struct kb_model *m)
{
	const struct kb_metric *mt = &m->metrics[m->primary];

	return m->cycles_fallback && mt->cycle_model && strcmp(mt->field ? mt->field : "", "mca_cycles");
}

/* The answer in one line and its figures (struct kb_claim). */
static json_t *answer_of(const struct kb_model *m, const void *x)
{
	const struct kb_claim *c = x;
	const struct kb_metric *mt = &m->metrics[m->primary];
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:I}", "variant",
			      m->variants[c->variant].name, "line", c->line, "metric", mt->name, "source",
			      kb_figure_kind_name(mt->source), "model", *mt->model ? json_string(mt->model) :
			      mt->cycle_model ? json_string("kbench's cycle model") : json_null(),
			      "text_change", num(c->text_change), "cases", (json_int_t)c->cases,
			      "faster", (json_int_t)c->faster, "slower", (json_int_t)c->slower,
			      "same", (json_int_t)c->same, "equivalent", (json_int_t)c->equivalent,
			      "not_distinguishable", (json_int_t)c->undecided);

	json_object_update_new(o, json_pack("{s:o,s:[o,o],s:I,s:s,s:o,s:o}", "geomean", num(c->geomean),
					    "geomean_ci", num(c->geomean_ci.lo), num(c->geomean_ci.hi),
					    "geomean_cases", (json_int_t)c->geomean_cases, "weighting", "cases equally",
					    "flips", m->nrobust ? json_integer((json_int_t)c->flips) : json_null(),
					    "fallback", fell_back(m) ? json_string(m->cycles_fallback) : json_null()));
	return o;
}

/* One prediction of the claim, judged (struct kb_pred). */
static json_t *prediction(const struct kb_model *m, const void *v)
{
	const struct kb_pred *x = v;
	json_t *asked = json_array(), *o, *cases;

	for (size_t i = 0; i < x->nasked; i++)
		json_array_append_new(asked, json_string(x->asked[i]));
	o = json_pack("{s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:s}", "kind", kb_pred_kind_name(x->kind), "a", x->a, "b", x->b,
		      "cases", asked, "backend", x->backend, "figures", kb_figure_kind_name(x->source),
		      "word", kb_word_name(x->word), "why", x->why);
	if (x->kind == KB_PRED_SMALLER) {
		json_object_update_new(o, json_pack("{s:o,s:o,s:o}",
						    "text_a", size_or_null(x->has_size, x->text_a),
						    "text_b", size_or_null(x->has_size, x->text_b),
						    "text_change", num(x->text_change)));
		return o;
	}
	cases = json_array();
	for (size_t i = 0; i < x->ncases; i++) {
		json_t *c = json_pack("{s:s}", "case", m->cases[x->per_case[i].cas]);

		kb_model_json_test(c, &x->per_case[i].t, 0);
		json_array_append_new(cases, c);
	}
	json_object_update_new(o, json_pack("{s:s,s:I,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:o}",
					    "metric", m->metrics[x->metric].name,
					    "layouts", (json_int_t)m->nlayouts, "own_tests", x->own_tests,
					    "faster", (json_int_t)x->faster, "slower", (json_int_t)x->slower,
					    "same", (json_int_t)x->same,
					    "not_distinguishable", (json_int_t)x->undecided,
					    "equivalent", (json_int_t)x->equivalent,
					    "missing", (json_int_t)x->missing, "per_case", cases));
	if (x->nby_model) {
		json_t *by = json_array();

		for (size_t i = 0; i < x->nby_model; i++)
			json_array_append_new(by, json_pack("{s:s,s:s}", "metric",
							    m->metrics[m->robust[i]].name, "word",
							    kb_word_name(x->by_model[i])));
		json_object_set_new(o, "by_model", by);
	}
	return o;
}

static json_t *boots(const struct kb_model *m)
{
	json_t *failed = json_array();

	for (size_t i = 0; i < m->n_failed_boots; i++) {
		const struct kb_boot *b = &m->failed_boots[i];

		json_array_append_new(failed, json_pack("{s:s,s:I,s:s,s:s,s:s}", "variant", b->variant,
							"boot", (json_int_t)b->boot, "status", b->status,
							"reason", b->reason, "serial", b->serial));
	}
	return json_pack("{s:I,s:I,s:o,s:I,s:s,s:I,s:{s:I,s:o,s:o}}", "ok", (json_int_t)m->boots_ok,
			 "total", (json_int_t)m->boots_total, "failed", failed,
			 "per_variant", (json_int_t)m->boots_per_variant, "why", m->boots_why,
			 "at_once", (json_int_t)m->boots_at_once, "host_other_cpu",
			 "n", (json_int_t)m->host_other.n, "median", num(m->host_other.median),
			 "max", num(m->host_other.max));
}

static json_t *changes(const struct kb_bloat_change *c, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s,s:o,s:o,s:I}", "name", c[i].name,
						   "old", size_or_null(c[i].in_old, (long long)c[i].old_size),
						   "new", size_or_null(c[i].in_new, (long long)c[i].new_size),
						   "delta", (json_int_t)c[i].delta));
	return a;
}

static json_t *bloat(const struct kb_model *m, const void *x)
{
	const struct kb_bloat_figures *b = x;
	json_t *cats = json_array();

	for (size_t i = 0; i < KB_ARRAY_SIZE(b->cat); i++) {
		const struct kb_bloat_category *c = &b->cat[i];

		json_array_append_new(cats, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f}",
						      "what", c->what, "add", (json_int_t)c->add,
						      "remove", (json_int_t)c->remove, "grow", (json_int_t)c->grow,
						      "shrink", (json_int_t)c->shrink, "up", (json_int_t)c->up,
						      "down", (json_int_t)c->down,
						      "old_total", (json_int_t)c->old_total,
						      "new_total", (json_int_t)c->new_total, "percent", c->percent));
	}
	return json_pack("{s:s,s:o,s:o,s:o,s:s?}", "variant", m->variants[b->variant].name,
			 "categories", cats, "growers", changes(b->growers, b->n_growers),
			 "shrinkers", changes(b->shrinkers, b->n_shrinkers), "full", b->full_path);
}

static json_t *exec_row(const struct kb_model *m, const void *x)
{
	const struct kb_exec_row *r = x;
	const struct kb_model_variant *v = &m->variants[r->variant];

	return json_pack("{s:s,s:s,s:o,s:f,s:o,s:o,s:o,s:o,s:I}", "case", r->cas, "variant", v->name,
			 "text", size_or_null(v->has_size, v->text), "executed", r->executed,
			 "executed_change", num(r->executed_change), "executed_share", num(r->executed_share),
			 "functions", num(r->functions), "functions_change", num(r->functions_change),
			 "samples", (json_int_t)r->samples);
}

static json_t *timing(const struct kb_model *m, const void *x)
{
	const struct kb_timing *t = x;

	(void)m;
	return json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:o,s:s,s:s,s:s,s:o}", "variant", t->variant,
			 "status", t->status, "reason", t->reason, "runs", (json_int_t)t->runs,
			 "warmup", (json_int_t)t->warmup, "ok", (json_int_t)t->ok,
			 "failed", (json_int_t)t->failed, "seconds", num(t->seconds), "accel", t->accel,
			 "json", t->json, "log", t->log, "host_other_cpu", num(t->other_cpu));
}

static json_t *miss(const struct kb_model *m, const void *x)
{
	const struct kb_miss_model *c = x;
	json_t *rows = json_array();

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_row *r = &c->rows[i];

		json_array_append_new(rows, json_pack("{s:s,s:[f,f],s:[f,f],s:[o,o],s:[o,o],s:b}", "name", r->name,
						      "ins", r->ins[0], r->ins[1], "miss", r->miss[0], r->miss[1],
						      "size", r->size[0] < 0 ? json_null() : json_integer(r->size[0]),
						      r->size[1] < 0 ? json_null() : json_integer(r->size[1]),
						      "cycles", num(r->cyc[0]), num(r->cyc[1]), "moved", r->moved));
	}
	return json_pack("{s:s,s:s,s:[f,f],s:[f,f],s:[o,o],s:I,s:o,s:o}", "case", c->cas,
			 "variant", m->variants[c->variant].name, "ins_k", c->ins_k[0], c->ins_k[1],
			 "miss_k", c->miss_k[0], c->miss_k[1], "cycles_k", num(c->cyc_k[0]), num(c->cyc_k[1]),
			 "changed", (json_int_t)c->changed, "functions", rows, "moved",
			 c->moved_n < 0 ? json_null()
			 : json_pack("{s:I,s:f,s:f,s:o}", "functions", (json_int_t)c->moved_n, "d_ins",
				     c->moved_d_ins, "d_miss", c->moved_d_miss, "d_cycles", num(c->moved_d_cyc)));
}

/* The functions whose modeled cycles grow while their instructions do not. */
static json_t *cyc(const struct kb_model *m, const void *x)
{
	const struct kb_cyc_model *c = x;
	json_t *rows = json_array();

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_cyc *r = &c->rows[i];

		json_array_append_new(rows, json_pack("{s:s,s:s,s:[f,f],s:[f,f],s:I,s:o}", "function", r->name,
						      "case", r->cas, "ins", r->ins[0], r->ins[1], "cycles",
						      r->cyc[0], r->cyc[1], "cases", (json_int_t)r->cases, "because",
						      r->why ? json_pack("{s:s,s:f,s:f}", "instruction", r->why,
									 "executed", r->why_n, "cycles",
									 r->why_cyc) : json_null()));
	}
	return json_pack("{s:s,s:s,s:o}", "variant", m->variants[c->variant].name, "against",
			 m->variants[m->baseline].name, "functions", rows);
}

static int dropped_any(const struct kb_model_dropped *d)
{
	return d->duplicates || d->names.manifest || d->names.samples || d->names.boots || d->names.timing ||
	       d->names.sim;
}

static json_t *build_sensitive(const struct kb_model *m, const void *x)
{
	const struct kb_build_sensitive *b = x;

	return json_pack("{s:s,s:s,s:s,s:I,s:o,s:o,s:o}", "case", m->cases[b->cas], "variant",
			 m->variants[b->variant].name, "metric", m->metrics[b->row->metric].name, "builds",
			 (json_int_t)b->row->builds, "min", num(b->row->lo), "max", num(b->row->hi), "spread",
			 num(b->spread));
}

/* Only where something was dropped: a clean run's summary.json keeps its
 * layout. */
static json_t *dropped(const struct kb_model_dropped *d)
{
	return json_pack("{s:I,s:{s:I,s:I,s:I,s:I,s:I}}", "duplicate_samples", (json_int_t)d->duplicates,
			 "names", "manifest", (json_int_t)d->names.manifest, "samples", (json_int_t)d->names.samples,
			 "boots", (json_int_t)d->names.boots, "timing", (json_int_t)d->names.timing,
			 "sim", (json_int_t)d->names.sim);
}

/* The sample lines used in no figure, by why (enum kb_ignored). */
static json_t *ignored(const struct kb_model *m)
{
	json_t *o = json_object();

	for (size_t i = 0; i < KB_IGNORED_N; i++)
		json_object_set_new(o, kb_ignored_name(i), json_integer((json_int_t)m->ignored[i]));
	return o;
}

/* An array of the model's, each element serialized by fn. */
static json_t *array_of(const struct kb_model *m, json_t *(*fn)(const struct kb_model *, const void *),
			const void *arr, size_t n, size_t size)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, fn(m, (const char *)arr + i * size));
	return a;
}

#define ARRAY_OF(fn, arr, n) array_of(m, fn, arr, n, sizeof(*(arr)))

/* [run] sim_virtual_placement = order:FILE: per unordered variant and
 * case, per operation, the kernel's L1i misses (simulated) and the
 * verdicts' cycles (modeled) as built, predicted with the order, and of
 * the variant built with it from the same flags (null where none). */
static json_t *prediction_json(const struct kb_model *m)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < m->npred; i++) {
		const struct kb_pred_row *r = &m->pred[i];
		json_t *j = json_pack("{s:s,s:s,s:o}", "case", r->cas, "variant", m->variants[r->variant].name,
				      "ordered_variant", r->built >= 0 ? json_string(m->variants[r->built].name)
								       : json_null());

		json_object_set_new(j, "l1i_k", json_pack("{s:o,s:o,s:o}", "built", num(r->own[0]), "predicted",
							  num(r->pred[0]), "ordered", num(r->ordered[0])));
		json_object_set_new(j, "cycles", json_pack("{s:o,s:o,s:o}", "built", num(r->own[1]), "predicted",
							   num(r->pred[1]), "ordered", num(r->ordered[1])));
		if (m->nlayouts >= 2)	/* the builds as configured: the same kernel but for the order */
			json_object_set_new(j, "layout0", json_pack("{s:{s:o,s:o},s:{s:o,s:o}}", "l1i_k", "predicted",
								    num(r->pred0[0]), "ordered", num(r->ordered0[0]),
								    "cycles", "predicted", num(r->pred0[1]), "ordered",
								    num(r->ordered0[1])));
		if (r->built >= 0 && kb_model_trained(&m->variants[r->built], r->cas) >= 0)
			json_object_set_new(j, "trained",
					    json_boolean(kb_model_trained(&m->variants[r->built], r->cas) == 1));
		json_array_append_new(rows, j);
	}
	return json_pack("{s:s,s:s,s:s,s:s,s:o}", "order", m->pred_order, "cycles", m->pred_cycles,
			 "l1i_k_source", "simulated", "cycles_source", "modeled", "rows", rows);
}

/* A model; sub: the boot-timing model inside a run's. */
static json_t *model(const struct kb_model *m, int sub)
{
	json_t *o, *cases = json_array(), *caveats = json_array(), *ids = json_array();



	for (size_t i = 0; i < m->nc; i++)
		json_array_append_new(cases, json_string(m->cases[i]));
	for (size_t i = 0; i < m->ncaveats; i++) {
		json_array_append_new(caveats, json_string(m->caveats[i].text));
		json_array_append_new(ids, json_string(kb_caveat_name(m->caveats[i].id)));
	}
	/* the summary's layout first (rundir.h); boot_timing's is the summary's */
	o = sub ? json_pack("{s:s}", "run_id", m->run_id)
		: json_pack("{s:i,s:s}", KB_RD_FORMAT, KB_RUNDIR_FORMAT, "run_id", m->run_id);
	if (!sub)
		json_object_set_new(o, "kernel", json_pack("{s:s,s:s,s:s,s:s,s:s,s:s?}", "source", m->kernel.source,
							   "id", m->kernel.id, "version", m->kernel.version,
							   "arch", m->kernel.arch, "base", m->kernel.base,
							   "allocator", m->kernel.allocator));
	json_object_update_new(o, json_pack("{s:s,s:s,s:o,s:s,s:f,s:f,s:I,s:f,s:b,s:s,s:s,s:s,s:s,s:o}",
					    "backend", m->backend, "accel", m->accel,
					    "seed", kb_json_u64(m->seed), "baseline", m->baseline_name,
					    "confidence", m->o.level, "alpha", m->o.alpha,
					    "resamples", (json_int_t)m->o.resamples, "outlier_z", m->o.outlier_z,
					    "deterministic", m->deterministic,
					    "primary_metric", m->metrics[m->primary].name,
					    "accel_why", m->accel_why, "host_cpu", m->host_cpu,
					    "workloads", m->workloads, "scale", num(m->scale)));
	json_object_update_new(o, json_pack("{s:f,s:I,s:s,s:s}", "min_effect", m->o.min_effect,
					    "layouts", (json_int_t)m->nlayouts,
					    "unit", m->nm && m->metrics[m->primary].by_layout ? "layout" : "boot",
					    "test_unit", kb_unit_name(kb_model_unit(m, m->primary))));
	json_object_set_new(o, "virtual_layouts", json_integer((json_int_t)m->virtual_layouts));
	if (m->seed_drawn)
		json_object_set_new(o, "seed_drawn", json_true());
	if (!sub)
		json_object_set_new(o, "torn_lines", json_pack("{s:I,s:I,s:I,s:I}",
							       "samples", (json_int_t)m->torn.samples,
							       "boots", (json_int_t)m->torn.boots,
							       "timing", (json_int_t)m->torn.timing,
							       "sim", (json_int_t)m->torn.sim));
	if (!sub)
		json_object_set_new(o, "ignored_samples", ignored(m));
	if (!sub && dropped_any(&m->dropped))
		json_object_set_new(o, "dropped", dropped(&m->dropped));
	json_object_set_new(o, "variants", ARRAY_OF(variant, m->variants, m->nv));
	json_object_set_new(o, "cases", cases);
	json_object_set_new(o, "metrics", ARRAY_OF(metric, m->metrics, m->nm));
	json_object_set_new(o, "results", ARRAY_OF(row, m->rows, m->nrows));
	if (m->nrobust)
		json_object_set_new(o, "robustness", robustness(m));
	json_object_set_new(o, "caveats", caveats);
	json_object_set_new(o, "caveat_ids", ids);
	json_object_set_new(o, "build_sensitive", ARRAY_OF(build_sensitive, m->sensitive, m->nsensitive));
	json_object_set_new(o, "correlation", ARRAY_OF(correlation, m->corr, m->ncorr));
	if (!sub)
		json_object_set_new(o, "answer", ARRAY_OF(answer_of, m->claims, m->nclaims));
	json_object_set_new(o, "size_speed", ARRAY_OF(claim, m->claims, m->nclaims));
	if (sub) {
		json_object_set_new(o, "timing", ARRAY_OF(timing, m->timing, m->ntiming));
		return o;
	}
	if (m->stated.text)
		json_object_set_new(o, "claim_made", json_pack("{s:s,s:s?,s:s?}", "text", m->stated.text,
							       "source", m->stated.source,
							       "date", m->stated.date));
	json_object_set_new(o, "claims", ARRAY_OF(prediction, m->stated.preds, m->stated.npreds));
	json_object_set_new(o, "boots", boots(m));
	json_object_set_new(o, "bloat", ARRAY_OF(bloat, m->bloat, m->nbloat));
	json_object_set_new(o, "executed_text", ARRAY_OF(exec_row, m->exec, m->nexec));
	json_object_set_new(o, "miss_o_meter", ARRAY_OF(miss, m->miss, m->nmiss));
	if (m->pred_order)
		json_object_set_new(o, "prediction", prediction_json(m));
	/* modeled cycles per function: only where the run has them */
	if (m->cycles_model || m->cycles_why)
		json_object_set_new(o, "function_cycles",
				    json_pack("{s:o,s:o,s:s,s:o}", "model",
					      m->cycles_model ? json_string(m->cycles_model) : json_null(), "why",
					      m->cycles_why ? json_string(m->cycles_why) : json_null(), "rule",
					      "modeled cycles per operation grow, simulated instructions do not (as many "
					      "or fewer); each function in the case where its cycles grow most",
					      "cycles_grow_instructions_not", ARRAY_OF(cyc, m->cyc, m->ncyc)));
	if (m->boot_timing)
		json_object_set_new(o, "boot_timing", model(m->boot_timing, 1));
	return o;
}

json_t *kb_model_json(const struct kb_model *m)
{
	return model(m, 0);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The result model of a run (model.h): samples grouped by variant and case,
 * reduced to per-boot medians, and per-layout medians where the run has
 * layouts, built ones or, for the fields the samples give under virtual
 * layouts, those too (then the layout is the unit of replication, else the
 * boot), then
 * intervals, tests against the baseline, Holm across cases, verdicts, the
 * rank correlation between text size and cost, the claim per variant and
 * the caveats.  The one place where figures are computed. */
#include "config.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "model-input.h"
#include "model.h"
#include "stats.h"
#include "store.h"
#include "util.h"

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *kb_verdict_name(enum kb_verdict v)
{
	static const char *const names[] = { "", "faster", "slower", "same", "not distinguishable",
					      "equivalent", "this layout only" };

	return (size_t)v < KB_ARRAY_SIZE(names) ? names[v] : "";
}

const char *kb_unit_name(enum kb_unit u)
{
	static const char *const names[] = { "boot", "build", "virtual layout" };

	return (size_t)u < KB_ARRAY_SIZE(names) ? names[u] : "";
}

const char *kb_answer_name(enum kb_answer a)
{
	static const char *const names[] = {
		"no data", "same size", "smaller is faster", "larger is faster", "smaller is slower",
		"larger is slower", "not distinguishable", "mixed", "equivalent",
		"smaller is slower where it differs", "larger is slower where it differs",
		"smaller is faster where it differs", "larger is faster where it differs",
	};
	_Static_assert(KB_ARRAY_SIZE(names) == KB_ANSWER_LARGER_FASTER_WHERE + 1, "a name for every answer");

	return (size_t)a < KB_ARRAY_SIZE(names) ? names[a] : "";
}

const char *kb_caveat_name(enum kb_caveat_id id)
{
	static const char *const names[] = {
		"emulated_time", "deterministic", "few_boots", "outliers", "failed_boots",
		"few_variants", "timing_partial", "timing_failed", "unsafe_flags",
	};

	return (size_t)id < KB_ARRAY_SIZE(names) ? names[id] : "";
}

const char *kb_ignored_name(enum kb_ignored why)
{
	static const char *const names[] = {
		"variant", "layout", "wrong_type", "zero_iterations", "negative", "not_integer",
	};

	return (size_t)why < KB_ARRAY_SIZE(names) ? names[why] : "";
}

/* ---- what backends' figures are: asked of the backend table ---- */

/* backend table (backend.h): how the report names a metric of a backend,
 * from what the run recorded of it (the manifest's object of that name) */
static void describe_metric(struct kb_model *m, struct kb_metric *mt, const char *field, const json_t *described)
{
	struct kb_metric_desc d;
	const char *label, *unit;

	kb_backend_metric(m->backend, field, kb_accel_from_name(m->accel), described, &d);
	mt->field = kb_pool_strdup(&m->pool, field);
	mt->source = d.source;
	mt->moves_with_layout = !d.layout_free;
	mt->cycle_model = d.cycle_model;
	mt->note = d.note ? d.note : "";
	/* from the manifest, and said in kbench's own words (a claim's why):
	 * plain text or nothing */
	mt->model = d.model && *d.model && strlen(d.model) <= 64 &&
		    strspn(d.model, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._-") ==
		    strlen(d.model) ? kb_pool_strdup(&m->pool, d.model) : "";
	if (d.label)
		label = d.label;
	else
		label = field ? kb_pool_printf(&m->pool, "%s per operation", field) : "time per operation";
	if (d.unit)
		unit = d.unit;
	else
		unit = field ? kb_pool_printf(&m->pool, "%s/op", field) : "ns/op";
	/* the machine model beside the metric, wherever a table shows it */
	mt->label = *mt->model ? kb_pool_printf(&m->pool, "%s (%s)", label, mt->model) : label;
	mt->unit = *mt->model ? kb_pool_printf(&m->pool, "%s (%s)", unit, mt->model) : unit;
	mt->bare_unit = unit;
}

/* backend table: time that is not a CPU's under TCG (the per-region clock of
 * a primary or overlay backend; a stage's whole boots say it in their note) */
static int time_is_emulated(const char *backend, enum kb_accel accel)
{
	const struct kb_backend *b = kb_backend_find(backend);

	return b && (b->flags & KB_BACKEND_TIMES) && b->role != KB_ROLE_STAGE && accel == KB_ACCEL_TCG;
}

/* backend table: the backend a run names when it names none */
static const char *default_backend(void)
{
	return kb_backend_clock.name;
}

/* ---- look-ups ---- */

size_t kb_model_variant(const struct kb_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nv && strcmp(m->variants[i].name, name); i++)
		;
	return i;
}

size_t kb_model_case(const struct kb_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nc && strcmp(m->cases[i], name); i++)
		;
	return i;
}

size_t kb_model_metric(const struct kb_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nm && strcmp(m->metrics[i].name, name); i++)
		;
	return i;
}

const struct kb_row *kb_model_row(const struct kb_model *m, size_t cas, size_t metric, size_t variant)
{
	if (!m || cas >= m->nc || metric >= m->nm || variant >= m->nv)
		return NULL;
	return &m->rows[(cas * m->nm + metric) * m->nv + variant];
}

const struct kb_row *kb_model_find(const struct kb_model *m, const char *cas, const char *metric,
				   const char *variant)
{
	if (!m)
		return NULL;
	return kb_model_row(m, kb_model_case(m, cas), kb_model_metric(m, metric), kb_model_variant(m, variant));
}

const struct kb_timing *kb_model_timing(const struct kb_model *m, const char *variant)
{
	for (size_t i = 0; m && i < m->ntiming; i++)
		if (!strcmp(m->timing[i].variant, variant))
			return &m->timing[i];
	return NULL;
}

/* ---- the run: header, variants, cases, metrics ---- */

/* Where the input's names landed in the model: its variant and case ids
 * to the model's indexes. */
struct maps {
	size_t *variant, *cas;
};

/* The run's workloads, comma-separated, without a name that is not a plain
 * one (counted): they become cases. */
static const char *plain_workloads(struct kb_model *m, const char *workloads)
{
	char *wls = kb_xstrdup(workloads), *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	long bad = 0;

	if (!f)
		abort();
	for (char *wl = strtok_r(wls, ",", &save); wl; wl = strtok_r(NULL, ",", &save)) {
		if (!kb_model_name_ok(KB_NAME_PLAIN, wl))
			bad++;
		else
			fprintf(f, "%s%s", ftell(f) ? "," : "", wl);
	}
	fclose(f);
	free(wls);
	kb_pool_adopt(&m->pool, out);
	m->dropped.names.manifest += bad;
	return bad ? out : kb_pool_strdup(&m->pool, workloads);
}

/* A variant's allocator as the manifest gives it (variants[].allocator),
 * one of the four names kbench writes, or NULL (a manifest is input like
 * any other). */
static const char *variant_allocator(const json_t *v)
{
	static const char *const known[] = { "SLUB", "SLUB_TINY", "SLOB", "SLAB" };
	const char *a = json_string_value(json_object_get(v, "allocator"));

	for (size_t k = 0; a && k < KB_ARRAY_SIZE(known); k++)
		if (!strcmp(a, known[k]))
			return known[k];
	return NULL;
}

/* The variants' slab allocator: one name where all that say one agree,
 * else "NAME ALLOC, ..." per variant (plain names only); NULL where none
 * says. */
static const char *allocator(struct kb_pool *p, const json_t *mv)
{
	const char *first = NULL, *a;
	char *out = NULL;
	size_t len = 0, i, n = 0;
	int mixed = 0;
	const json_t *v;
	FILE *f;

	json_array_foreach(mv, i, v) {
		if (!(a = variant_allocator(v)))
			continue;
		mixed |= first && strcmp(first, a);
		if (!first)
			first = a;
	}
	if (!first || !mixed)
		return first;
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	json_array_foreach(mv, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));

		if ((a = variant_allocator(v)) && name && kb_model_name_ok(KB_NAME_VARIANT, name))
			fprintf(f, "%s%s %s", n++ ? ", " : "", name, a);
	}
	fclose(f);
	kb_pool_adopt(p, out);
	return out;
}

/* The manifest's unsafe_flags (present only where [kernel] unsafe_flags =
 * yes): one sentence for the caveats, or NULL. */
static const char *unsafe_flags_text(struct kb_pool *p, const json_t *u)
{
	char *out = NULL;
	size_t len = 0, n = 0, i;
	const json_t *e;
	FILE *f;

	if (!json_is_array(u))
		return NULL;
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	fputs("[kernel] unsafe_flags = yes: ", f);
	json_array_foreach(u, i, e) {
		const char *v = json_string_value(json_object_get(e, "variant")),
			   *k = json_string_value(json_object_get(e, "key")),
			   *fl = json_string_value(json_object_get(e, "flag")),
			   *why = json_string_value(json_object_get(e, "why"));

		if (!v || !k || !fl || !why)
			continue;
		if (n < 20)
			fprintf(f, "%svariant %s, %s '%s' (%s)", n ? "; " : "the kernels were built with compiler "
				"flags kbench refuses by default, which make the compiler driver run or load another "
				"program or write outside the build: ", v, k, fl, why);
		n++;
	}
	if (n > 20)
		fprintf(f, "; and %zu more", n - 20);
	if (!n)
		fputs("taken, though no flag of this run needed it", f);
	fputs(".", f);
	fclose(f);
	kb_pool_adopt(p, out);
	return out;
}

static void header(struct kb_model *m, const struct kb_model_build_args *a)
{
	json_t *man = a->manifest, *k = json_object_get(man, "kernel"), *mv = json_object_get(man, "variants");
	struct kb_pool *p = &m->pool;
	const char *backend = a->backend ? a->backend : str(man, "backend");

	if (!*backend && a->in->samples)
		backend = a->in->backend;
	m->backend = kb_pool_strdup(p, *backend ? backend : default_backend());
	m->run_id = kb_pool_strdup(p, str(man, "run_id"));
	m->kernel = (struct kb_model_kernel){ kb_pool_strdup(p, str(k, "source")), kb_pool_strdup(p, str(k, "id")),
					kb_pool_strdup(p, str(k, "version")), kb_pool_strdup(p, str(k, "arch")),
					kb_pool_strdup(p, str(k, "base")), allocator(p, mv) };
	m->accel = kb_pool_strdup(p, str(json_object_get(man, "accel"), "chosen"));
	m->accel_why = kb_pool_strdup(p, str(json_object_get(man, "accel"), "why"));
	m->host_cpu = kb_pool_strdup(p, str(json_object_get(json_object_get(man, "host"), "cpu"), "brand"));
	m->workloads = plain_workloads(m, a->workloads ? a->workloads : str(json_object_get(man, "run"), "workloads"));
	m->scale = num(json_object_get(man, "run"), "scale");
	if (kb_json_u64_value(json_object_get(man, "seed"), &m->seed) < 0)
		m->seed = 0;
	m->seed_drawn = json_is_true(json_object_get(man, "seed_drawn"));
	m->unsafe_flags = unsafe_flags_text(p, json_object_get(man, "unsafe_flags"));
	m->boots_why = kb_pool_strdup(p, str(json_object_get(man, "run"), "boots_why"));
	m->boots_per_variant = (long)json_integer_value(json_object_get(json_object_get(man, "run"), "boots"));
	m->layouts = (long)json_integer_value(json_object_get(man, "layouts"));
	if (m->layouts < 1)
		m->layouts = 1;
	m->boots_at_once = (long)json_integer_value(json_object_get(json_object_get(man, "run"),
								     "boots_at_once"));
	/* the run's own [run] min_effect; a run from before it has the default */
	if (num(json_object_get(man, "run"), "min_effect") > 0 && num(json_object_get(man, "run"), "min_effect") < 1)
		m->o.min_effect = num(json_object_get(man, "run"), "min_effect");
	m->baseline_name = str(man, "baseline");
	if (!*m->baseline_name && json_array_size(mv))
		m->baseline_name = str(json_array_get(mv, 0), "name");
	m->baseline_name = kb_pool_strdup(p, m->baseline_name);
	if (*str(json_object_get(json_object_get(man, m->backend), "mca"), "missing"))
		m->cycles_fallback = kb_pool_strdup(p, str(json_object_get(json_object_get(man, m->backend), "mca"),
							   "missing"));
}

/* The replicas the manifest lists, in order; an entry that is not an
 * object with an integer layout is left out. */
static void replicas_of(struct kb_pool *p, json_t *reps, struct kb_model_variant *out)
{
	size_t n = json_is_array(reps) ? json_array_size(reps) : 0, i;
	json_t *r;

	if (!n)
		return;
	out->replicas = kb_pool_array(p, n, sizeof(*out->replicas));
	json_array_foreach(reps, i, r) {
		struct kb_model_replica *x = &out->replicas[out->nreplicas];
		json_t *sz = json_object_get(r, "size"), *pad = json_object_get(r, "pad");

		if (!json_is_integer(json_object_get(r, "layout")))
			continue;
		x->layout = json_integer_value(json_object_get(r, "layout"));
		x->seed = json_integer_value(json_object_get(r, "seed"));
		for (size_t k = 0; k < KB_ARRAY_SIZE(x->pad); k++)
			x->pad[k] = json_integer_value(json_array_get(pad, k));
		x->has_size = json_is_object(sz);
		if (x->has_size) {
			x->text = json_integer_value(json_object_get(sz, "text"));
			x->data = json_integer_value(json_object_get(sz, "data"));
			x->bss = json_integer_value(json_object_get(sz, "bss"));
		}
		x->status = kb_pool_strdup(p, str(r, "status"));
		x->vmlinux = kb_pool_strdup(p, str(r, "vmlinux"));
		out->nreplicas++;
	}
}

/* manifest variants[].order: the order's file and how it was made */
static void order_of(struct kb_pool *p, json_t *o, struct kb_model_variant *out)
{
	json_t *t = json_object_get(o, "trained_on");

	if (!json_is_object(o) || !json_is_string(json_object_get(o, "path")))
		return;
	out->order = kb_pool_strdup(p, str(o, "path"));
	out->order_method = kb_pool_strdup(p, str(o, "method"));
	out->order_profile_variant = kb_pool_strdup(p, str(o, "profile_variant"));
	if (json_is_string(t) && !strcmp(json_string_value(t), "all")) {
		out->order_training_known = out->trained_all = 1;
	} else if (json_is_array(t)) {
		out->order_training_known = 1;
		out->ntrained = json_array_size(t);
		out->trained = kb_pool_alloc(p, (out->ntrained + 1) * sizeof(*out->trained));
		for (size_t i = 0; i < out->ntrained; i++)
			out->trained[i] = kb_pool_strdup(p, json_is_string(json_array_get(t, i)) ?
							 json_string_value(json_array_get(t, i)) : "");
	}
}

static void variant_of(struct kb_pool *p, json_t *v, struct kb_model_variant *out)
{
	json_t *sz = json_object_get(v, "size");

	out->name = kb_pool_strdup(p, str(v, "name"));
	out->status = kb_pool_strdup(p, str(v, "status"));
	out->reason = kb_pool_strdup(p, str(v, "reason"));
	out->flags = kb_pool_strdup(p, str(v, "flags"));
	out->description = kb_pool_strdup(p, str(v, "description"));
	out->in_manifest = 1;
	out->has_size = json_is_object(sz);
	if (out->has_size) {
		out->text = json_integer_value(json_object_get(sz, "text"));
		out->data = json_integer_value(json_object_get(sz, "data"));
		out->bss = json_integer_value(json_object_get(sz, "bss"));
	}
	out->cached = json_is_true(json_object_get(v, "cached"));
	out->build_seconds = num(v, "build_seconds");
	out->key = kb_pool_strdup(p, str(v, "key"));
	out->compiler = kb_pool_strdup(p, str(v, "compiler"));
	out->vmlinux = kb_pool_strdup(p, str(v, "vmlinux"));
	replicas_of(p, json_object_get(v, "replicas"), out);
	order_of(p, json_object_get(v, "order"), out);
}

const enum kb_verdict kb_verdicts_said[KB_VERDICTS_SAID] = {
	KB_VERDICT_FASTER, KB_VERDICT_SLOWER, KB_VERDICT_EQUIVALENT, KB_VERDICT_UNDECIDED,
	KB_VERDICT_SAME, KB_VERDICT_ONE_LAYOUT,
};

int kb_model_order_split(const struct kb_model *m, size_t v, size_t held[KB_VERDICT_N], size_t *nheld,
			 size_t trained[KB_VERDICT_N], size_t *ntrained)
{
	memset(held, 0, KB_VERDICT_N * sizeof(*held));
	memset(trained, 0, KB_VERDICT_N * sizeof(*trained));
	*nheld = *ntrained = 0;
	if (v >= m->nv || kb_model_trained(&m->variants[v], "") < 0)
		return -1;
	for (size_t c = 0; c < m->nc; c++) {
		const struct kb_row *r = kb_model_row(m, c, m->primary, v);

		if (!r || r->t.verdict == KB_VERDICT_NONE)
			continue;
		if (kb_model_trained(&m->variants[v], m->cases[c]) == 1) {
			trained[r->t.verdict]++;
			++*ntrained;
		} else {
			held[r->t.verdict]++;
			++*nheld;
		}
	}
	return 0;
}

int kb_model_trained(const struct kb_model_variant *v, const char *cas)
{
	if (!v->order || !v->order_training_known)
		return -1;
	if (v->trained_all)
		return 1;
	for (size_t i = 0; i < v->ntrained; i++)
		if (!strcmp(v->trained[i], cas))
			return 1;
	return 0;
}

/* The median and largest of n shares. */
static struct kb_host_other host_other(const double *v, size_t n)
{
	double max = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] > max)
			max = v[i];
	return (struct kb_host_other){ n, kb_stats_median(v, n), max };
}

/* The manifest's variants in its order (one whose name is not a plain one
 * dropped), then any only the samples name; sizes against the baseline;
 * the boots of each.  Sets maps->variant. */
static void variants(struct kb_model *m, const struct kb_model_build_args *a, struct maps *maps)
{
	json_t *mv = json_object_get(a->manifest, "variants"), *v;
	const struct kb_names *named = &a->in->variants;
	size_t cap = json_array_size(mv) + named->n + 1, i, *first = kb_xcalloc(cap, sizeof(*first));
	const struct kb_model_variant *base;
	struct kb_pool tmp = KB_POOL_INIT;
	struct kb_names idx = { 0 };	/* the model's names: a duplicate is its first */
	double *others;
	size_t nothers = 0;

	m->variants = kb_pool_array(&m->pool, cap, sizeof(*m->variants));
	json_array_foreach(mv, i, v) {
		if (!kb_model_name_ok(KB_NAME_VARIANT, str(v, "name"))) {
			m->dropped.names.manifest++;
			continue;
		}
		variant_of(&m->pool, v, &m->variants[m->nv]);
		first[kb_names_add(&idx, &tmp, m->variants[m->nv].name)] = m->nv;
		m->nv++;
	}
	m->nv_manifest = m->nv;
	maps->variant = kb_xcalloc(named->n + 1, sizeof(*maps->variant));
	for (i = 0; i < named->n; i++) {
		size_t id = kb_names_find(&idx, named->v[i]);

		if (id == idx.n) {
			m->variants[m->nv] = (struct kb_model_variant){
				.name = kb_pool_strdup(&m->pool, named->v[i]), .status = "unknown", .reason = "",
				.flags = "", .description = "", .build_seconds = NAN, .key = "", .compiler = "", .vmlinux = "" };
			first[kb_names_add(&idx, &tmp, named->v[i])] = m->nv++;
		}
		maps->variant[i] = first[kb_names_find(&idx, named->v[i])];
	}
	m->baseline = kb_model_variant(m, m->baseline_name);
	base = m->baseline < m->nv && m->variants[m->baseline].has_size ? &m->variants[m->baseline] : NULL;
	for (i = 0; i < m->nv; i++) {
		struct kb_model_variant *x = &m->variants[i];

		x->text_change = base && x->has_size ? (double)x->text / (double)base->text - 1 : NAN;
		x->text_delta = base && x->has_size ? x->text - base->text : 0;
	}
	for (i = 0; i < a->nboots; i++) {
		size_t id = kb_names_find(&idx, a->boots[i].variant);
		int ok = !strcmp(a->boots[i].status, "ok");

		if (id < idx.n)
			m->variants[first[id]].boots_ok += ok;
		m->boots_total++;
		m->boots_ok += ok;
	}
	m->failed_boots = kb_pool_array(&m->pool, m->boots_total - m->boots_ok, sizeof(*m->failed_boots));
	others = kb_xcalloc(a->nboots + 1, sizeof(*others));
	for (i = 0; i < a->nboots; i++) {
		const struct kb_boot_line *b = &a->boots[i];

		if (!isnan(b->other_cpu))
			others[nothers++] = b->other_cpu;
		if (strcmp(b->status, "ok"))
			m->failed_boots[m->n_failed_boots++] = (struct kb_boot){
				kb_pool_strdup(&m->pool, b->variant), kb_pool_strdup(&m->pool, b->status),
				kb_pool_strdup(&m->pool, b->reason), kb_pool_strdup(&m->pool, b->serial), b->boot,
				b->node ? kb_pool_strdup(&m->pool, b->node) : NULL };
	}
	m->host_other = host_other(others, nothers);
	free(others);
	m->node_boots = kb_pool_array(&m->pool, m->boots_total, sizeof(*m->node_boots));
	for (i = 0; i < a->nboots; i++)
		if (a->boots[i].node)
			m->node_boots[m->n_node_boots++] = (struct kb_boot){
				.variant = kb_pool_strdup(&m->pool, a->boots[i].variant),
				.status = kb_pool_strdup(&m->pool, a->boots[i].status),
				.boot = a->boots[i].boot,
				.node = kb_pool_strdup(&m->pool, a->boots[i].node) };
	kb_names_release(&idx);
	kb_pool_release(&tmp);
	free(first);
}

/* Cases in the report's order: the run's workloads in their order, each
 * workload's cases in the order the guest reported them (the order its
 * (workload, case) pairs were first seen), then any other.  Sets maps->cas. */
static void cases(struct kb_model *m, const struct kb_model_build_args *a, struct maps *maps)
{
	const struct kb_model_input *in = a->in;
	size_t nw = in->workloads.n, *start = kb_xcalloc(nw + 2, sizeof(*start)), *by_wl, *fill;
	char *wls = kb_xstrdup(m->workloads), *save = NULL;
	unsigned char *done = kb_xcalloc(nw + 1, 1);
	struct kb_names l = { 0 };

	/* the pairs of each workload together, in first-seen order */
	for (size_t i = 0; i < in->npairs; i++)
		start[in->pairs[i][0] + 1]++;
	for (size_t w = 0; w < nw; w++)
		start[w + 1] += start[w];
	by_wl = kb_xcalloc(in->npairs + 1, sizeof(*by_wl));
	fill = kb_xmalloc((nw + 1) * sizeof(*fill));
	memcpy(fill, start, (nw + 1) * sizeof(*fill));
	for (size_t i = 0; i < in->npairs; i++)
		by_wl[fill[in->pairs[i][0]]++] = in->pairs[i][1];
	for (char *wl = strtok_r(wls, ",", &save); wl; wl = strtok_r(NULL, ",", &save)) {
		size_t w = kb_names_find(&in->workloads, wl);

		if (w == nw) {
			kb_names_add(&l, &m->pool, wl);	/* no samples: a case of its own */
			continue;
		}
		if (done[w])
			continue;
		done[w] = 1;
		for (size_t i = start[w]; i < start[w + 1]; i++)
			kb_names_add(&l, &m->pool, in->cases.v[by_wl[i]]);
	}
	maps->cas = kb_xcalloc(in->cases.n + 1, sizeof(*maps->cas));
	for (size_t i = 0; i < in->cases.n; i++)
		maps->cas[i] = kb_names_add(&l, &m->pool, in->cases.v[i]);
	m->nc = l.n;
	m->cases = kb_pool_memdup(&m->pool, l.v, l.n * sizeof(*l.v));
	kb_names_release(&l);
	free(wls);
	free(done);
	free(start);
	free(by_wl);
	free(fill);
}

/* Time per operation, then each numeric sample field per operation. */
static void metrics(struct kb_model *m, const struct kb_model_build_args *a)
{
	const struct kb_names *fields = &a->in->fields;

	const json_t *described = json_object_get(a->manifest, m->backend);

	m->nm = fields->n + 1;
	m->metrics = kb_pool_array(&m->pool, m->nm, sizeof(*m->metrics));
	m->metrics[0].name = "ns_per_op";
	describe_metric(m, &m->metrics[0], NULL, described);
	for (size_t i = 0; i < fields->n; i++) {
		m->metrics[i + 1].name = kb_pool_printf(&m->pool, "%s_per_op", fields->v[i]);
		describe_metric(m, &m->metrics[i + 1], fields->v[i], described);
	}
}

/* The figure a verdict is about: the field the run's backend recorded
 * ([run] primary_metric, as the sim backend resolved it), where the
 * samples have it; else, where time is not measured (sim's is a model),
 * modeled cycles or simulated instructions; else time. */
static size_t primary_metric(const struct kb_model *m, const json_t *manifest)
{
	static const char *const want[] = { "cycles", "instructions" };
	const char *rec = json_string_value(json_object_get(json_object_get(manifest, m->backend),
							    "primary_metric"));

	for (size_t i = 1; rec && i < m->nm; i++)
		if (!strcmp(m->metrics[i].field, rec))
			return i;
	if (m->metrics[0].source == KB_FIG_MEASURED)
		return 0;
	for (size_t w = 0; w < KB_ARRAY_SIZE(want); w++)
		for (size_t i = 1; i < m->nm; i++)
			if (strstr(m->metrics[i].field, want[w]))
				return i;
	return 0;
}

/* ---- one row: a variant's samples of one case, one metric ---- */

/* The cells of each (variant, case), boots in increasing order: group g's
 * are cell[start[g]..start[g+1]). */
struct groups {
	size_t *start;
	const struct kb_cell **cell;
	size_t most;			/* values in the largest cell or group */
};

static int cmp_cell(const void *a, const void *b)
{
	const struct kb_cell *x = *(const struct kb_cell *const *)a, *y = *(const struct kb_cell *const *)b;

	return (x->boot > y->boot) - (x->boot < y->boot);
}

static void group(const struct kb_model *m, const struct kb_model_input *in, const struct maps *maps,
		  struct groups *g)
{
	size_t ng = m->nv * m->nc, *key = kb_xcalloc(in->ncells + 1, sizeof(*key)), *fill;

	g->start = kb_xcalloc(ng + 2, sizeof(*g->start));
	g->cell = kb_xcalloc(in->ncells + 1, sizeof(*g->cell));
	g->most = 0;
	for (size_t i = 0; i < in->ncells; i++) {
		const struct kb_cell *c = &in->cells[i];

		key[i] = maps->variant[c->variant] * m->nc + maps->cas[c->cas];
		g->start[key[i] + 1]++;
		for (uint32_t k = 0; k < c->nmetric; k++)
			if (c->metric[k].n > g->most)
				g->most = c->metric[k].n;
	}
	for (size_t k = 0; k < ng; k++) {
		if (g->start[k + 1] > g->most)
			g->most = g->start[k + 1];
		g->start[k + 1] += g->start[k];
	}
	fill = kb_xmalloc((ng + 1) * sizeof(*fill));
	memcpy(fill, g->start, (ng + 1) * sizeof(*fill));
	for (size_t i = 0; i < in->ncells; i++)
		g->cell[fill[key[i]]++] = &in->cells[i];
	for (size_t k = 0; k < ng; k++)
		qsort(g->cell + g->start[k], g->start[k + 1] - g->start[k], sizeof(*g->cell), cmp_cell);
	free(fill);
	free(key);
}

/* The largest build_spread, in case cas and variant v, of the metrics
 * that do not move with the layout (instruction counts): above min_effect,
 * the kernel's state after boot, not where the code lands, changes what
 * the workload executes from build to build.  Its row goes to *row; NAN
 * without 2 builds. */
static double build_spread(const struct kb_model *m, size_t cas, size_t v, const struct kb_row **row)
{
	double most = NAN;

	*row = NULL;
	for (size_t k = 0; k < m->nm; k++) {
		const struct kb_row *r = kb_model_row(m, cas, k, v);

		if (m->metrics[k].moves_with_layout || !r || !r->t.deterministic || !(r->build_spread >= 0))
			continue;
		if (!(r->build_spread <= most)) {
			most = r->build_spread;
			*row = r;
		}
	}
	return most;
}

enum kb_unit kb_model_unit(const struct kb_model *m, size_t k)
{
	if (k >= m->nm || !m->metrics[k].by_layout)
		return KB_UNIT_BOOT;
	return m->nlayouts >= 2 ? KB_UNIT_BUILD : KB_UNIT_VLAYOUT;
}

enum kb_unit kb_row_unit(const struct kb_row *r)
{
	return !r->by_layout ? KB_UNIT_BOOT : r->by_build ? KB_UNIT_BUILD : KB_UNIT_VLAYOUT;
}

const double *kb_row_reps(const struct kb_row *r, size_t *n)
{
	switch (kb_row_unit(r)) {
	case KB_UNIT_BUILD:
		*n = r->builds;
		return r->build_medians;
	case KB_UNIT_VLAYOUT:
		*n = r->layouts;
		return r->layout_medians;
	default:
		*n = r->boots;
		return r->boot_medians;
	}
}

void kb_row_nested(const struct kb_row *r, struct kb_nested *out)
{
	if (r->by_layout)
		*out = (struct kb_nested){ r->layout_medians, r->build_start, r->builds };
	else
		*out = (struct kb_nested){ r->boot_medians, NULL, r->boots };
}

/* How many values a nested set holds. */
static size_t nested_count(const struct kb_nested *a)
{
	return a->start ? a->start[a->n] : a->n;
}

static int cmp_layout(const void *a, const void *b)
{
	const struct kb_cell *x = *(const struct kb_cell *const *)a, *y = *(const struct kb_cell *const *)b;

	if (x->layout != y->layout)
		return (x->layout > y->layout) - (x->layout < y->layout);
	return (x->boot > y->boot) - (x->boot < y->boot);
}

/* The values of metric in cell c under its virtual layout k (0: the
 * built layout's own), or NULL. */
static const struct kb_vals *vals_at(const struct kb_cell *c, size_t metric, size_t k)
{
	if (!k)
		return metric < c->nmetric ? &c->metric[metric] : NULL;
	return metric < c->nvl_metric && k <= c->nvl ? &c->vl[metric * c->nvl + k - 1] : NULL;
}

/* The replicates of a metric by layout: per built layout, the median of
 * its values over all its boots and reps, then the same under each of its
 * virtual layouts (the samples' "vl_<field>"), each one replicate. */
static void layout_medians(struct kb_model *m, struct kb_row *r, const struct kb_cell *const *cell, size_t n,
			   size_t metric)
{
	const struct kb_cell **c = kb_xmalloc((n ? n : 1) * sizeof(*c));
	size_t total = 0, nvl = m->metrics[metric].virtual_layouts, most = n * (nvl + 1);
	double *pool;

	memcpy(c, cell, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_layout);
	for (size_t i = 0; i < n; i++) {
		size_t t = 0;

		for (size_t k = 0; k <= nvl; k++)
			t = vals_at(c[i], metric, k) && vals_at(c[i], metric, k)->n > t ? vals_at(c[i], metric, k)->n : t;
		total += t;
	}
	pool = kb_xmalloc((total ? total : 1) * sizeof(*pool));
	r->by_layout = 1;
	r->by_build = m->nlayouts >= 2;
	r->layout_ids = kb_pool_array(&m->pool, most, sizeof(*r->layout_ids));
	r->layout_virtual = kb_pool_array(&m->pool, most, sizeof(*r->layout_virtual));
	r->layout_medians = kb_pool_array(&m->pool, most, sizeof(*r->layout_medians));
	r->build_ids = kb_pool_array(&m->pool, n, sizeof(*r->build_ids));
	r->build_medians = kb_pool_array(&m->pool, n, sizeof(*r->build_medians));
	r->build_start = kb_pool_array(&m->pool, n + 1, sizeof(*r->build_start));
	for (size_t i = 0, j = 0; i < n; i = j) {
		size_t first = r->layouts;

		for (j = i; j < n && c[j]->layout == c[i]->layout; j++)
			;
		for (size_t k = 0; k <= nvl; k++) {
			size_t got = 0;

			for (size_t b = i; b < j; b++) {
				const struct kb_vals *x = vals_at(c[b], metric, k);

				if (x && x->n) {
					memcpy(pool + got, kb_vals_of(x), x->n * sizeof(*pool));
					got += x->n;
				}
			}
			if (!got)
				continue;
			r->layout_ids[r->layouts] = c[i]->layout;
			r->layout_virtual[r->layouts] = (long long)k;
			r->layout_medians[r->layouts++] = kb_stats_median(pool, got);
		}
		if (r->layouts == first)
			continue;
		/* the build's summary: the median over its layouts */
		r->build_start[r->builds] = first;
		r->build_ids[r->builds] = c[i]->layout;
		r->build_medians[r->builds++] = kb_stats_median(r->layout_medians + first, r->layouts - first);
	}
	r->build_start[r->builds] = r->layouts;
	free(pool);
	free(c);
}

static int constant(const double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[0])
			return 0;
	return 1;
}

static double range_of(const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return n ? hi - lo : NAN;
}

static double min_of(const double *v, size_t n)
{
	double lo = INFINITY;

	for (size_t i = 0; i < n; i++)
		lo = v[i] < lo ? v[i] : lo;
	return lo;
}

/* Per-boot medians of one metric (boots in increasing order), outliers
 * marked, never dropped.  flag: room for groups->most. */
static void fill_row(struct kb_model *m, struct kb_row *r, const struct kb_cell *const *cell, size_t n,
		     size_t metric, unsigned char *flag)
{
	int det = n > 0;
	const double *reps;
	size_t nr;

	for (size_t i = 0; i < n; i++)
		det &= !cell[i]->nondet;
	r->boot_ids = kb_pool_array(&m->pool, n, sizeof(*r->boot_ids));
	r->boot_medians = kb_pool_array(&m->pool, n, sizeof(*r->boot_medians));
	for (size_t b = 0; b < n; b++) {
		const struct kb_vals *x = metric < cell[b]->nmetric ? &cell[b]->metric[metric] : NULL;

		if (!x || !x->n)
			continue;
		r->outlier_samples += (long long)kb_stats_outliers(kb_vals_of(x), x->n, m->o.outlier_z, flag);
		r->samples += (long long)x->n;
		r->boot_ids[r->boots] = cell[b]->boot;
		r->boot_medians[r->boots++] = kb_stats_median(kb_vals_of(x), x->n);
	}
	r->n_outlier_boots = kb_stats_outliers(r->boot_medians, r->boots, m->o.outlier_z, flag);
	r->outlier_boots = kb_pool_array(&m->pool, r->n_outlier_boots, sizeof(*r->outlier_boots));
	for (size_t i = 0, k = 0; i < r->boots; i++)
		if (flag[i])
			r->outlier_boots[k++] = r->boot_ids[i];
	if (m->metrics[metric].by_layout)
		layout_medians(m, r, cell, n, metric);
	reps = kb_row_reps(r, &nr);
	r->median = kb_stats_median(reps, nr);
	/* the range: of every layout (or boot), whatever the unit */
	if (r->by_layout) {
		reps = r->layout_medians;
		nr = r->layouts;
	}
	r->lo = r->hi = NAN;
	for (size_t i = 0; i < nr; i++) {
		if (!(reps[i] >= r->lo))
			r->lo = reps[i];
		if (!(reps[i] <= r->hi))
			r->hi = reps[i];
	}
	r->build_spread = NAN;
	if (r->by_build && r->builds >= 2) {
		double med = kb_stats_median(r->build_medians, r->builds);

		r->build_spread = med != 0 ? range_of(r->build_medians, r->builds) / fabs(med) : NAN;
	}
	r->t.deterministic = det;
	r->t.ratio = NAN;
}

/* The share of pairs (one value of each) in which x is above base, ties
 * counting one half. */
static double superiority(const double *x, size_t nx, const double *base, size_t nb)
{
	double d = kb_stats_cliffs_delta(x, nx, base, nb);

	return isnan(d) ? NAN : (d + 1) / 2;
}

void kb_model_versus(struct kb_test *t, const struct kb_row *xr, const struct kb_row *br, gsl_rng *rng,
		     const struct kb_model_opts *o)
{
	struct kb_interval ci = { NAN, NAN };
	struct kb_nested xn, bn;
	struct kb_mwu mwu;
	const double *x, *base;
	size_t nx, nb, vx, vb;
	double mx, mb;

	x = kb_row_reps(xr, &nx);
	base = kb_row_reps(br, &nb);
	if (!nx || !nb)
		return;
	t->done = 1;
	t->unit = kb_row_unit(xr);
	t->n = nx;
	t->n_ref = nb;
	mx = kb_stats_median(x, nx);
	mb = kb_stats_median(base, nb);
	t->difference = mx - mb;
	/* a reference of 0 against more than 0: an infinite ratio, not a null */
	t->ratio = mb != 0 ? mx / mb : mx > 0 ? INFINITY : mx < 0 ? -INFINITY : 1;
	kb_row_nested(xr, &xn);
	kb_row_nested(br, &bn);
	vx = nested_count(&xn);
	vb = nested_count(&bn);
	t->identical_counts = constant(xn.v, vx) && constant(bn.v, vb);
	/* descriptions of the layouts, never a gate */
	t->noise = t->unit != KB_UNIT_BOOT ? fmax(range_of(xn.v, vx), range_of(bn.v, vb)) : NAN;
	t->superiority = superiority(xn.v, vx, bn.v, vb);
	/* a ratio's interval needs a reference that cannot resample to 0 */
	if (t->identical_counts && isfinite(t->ratio)) {
		ci.lo = ci.hi = t->ratio;
	} else if ((vx > 1 || vb > 1) && min_of(bn.v, vb) > 0 && o->resamples) {
		double *dist = kb_xmalloc(o->resamples * sizeof(*dist));

		kb_stats_bootstrap_ratio_nested(&xn, &bn, rng, o->resamples, dist);
		kb_stats_percentile(dist, o->resamples, o->level, &ci);
		kb_stats_tails_init(&t->tails, dist, o->resamples, o->level);
		free(dist);
	}
	t->ratio_ci = ci;
	t->cliffs_delta = kb_stats_cliffs_delta(x, nx, base, nb);
	t->effect = kb_stats_effect_label(t->cliffs_delta);
	t->p_min = kb_stats_mwu_min_p(nx, nb);
	/* Deterministic counts, the same in every boot, of a single layout
	 * need no test: the difference is the difference, for this layout.
	 * With layouts, the layouts (or builds) are tested whatever the
	 * backend. */
	if (t->deterministic && t->identical_counts && t->unit == KB_UNIT_BOOT) {
		t->u = t->p = t->p_min = NAN;
		return;
	}
	kb_stats_mann_whitney(x, nx, base, nb, &mwu);
	t->u = mwu.u;
	t->p = mwu.p;
	t->p_exact = mwu.exact;
}

/* The interval against the margin 1 +- min_effect. */
static int above(struct kb_interval ci, double me)
{
	return ci.lo > 1 + me;
}

static int below(struct kb_interval ci, double me)
{
	return ci.hi < 1 - me;
}

static int inside(struct kb_interval ci, double me)
{
	return ci.lo > 1 - me && ci.hi < 1 + me;
}

static enum kb_verdict verdict_of(const struct kb_test *t, const struct kb_model_opts *o)
{
	double me = o->min_effect;
	int called = t->decided && t->p_holm < o->alpha;

	if (t->identical_counts && t->difference == 0)
		return KB_VERDICT_SAME;
	if (!isfinite(t->p)) {
		/* identical deterministic counts of one layout, untested: the
		 * difference is the difference, but only for this layout where
		 * the layout moves the figure */
		if (!(t->deterministic && t->identical_counts))
			return KB_VERDICT_UNDECIDED;
		if (t->moves_with_layout)
			return KB_VERDICT_ONE_LAYOUT;
		called = 1;
	}
	/* against a reference of 0 no margin can be read: the test decides */
	if (isinf(t->ratio))
		return !called ? KB_VERDICT_UNDECIDED : t->ratio > 0 ? KB_VERDICT_SLOWER : KB_VERDICT_FASTER;
	if (called && above(t->verdict_ci, me))
		return KB_VERDICT_SLOWER;
	if (called && below(t->verdict_ci, me))
		return KB_VERDICT_FASTER;
	if (inside(t->verdict_ci, me))
		return KB_VERDICT_EQUIVALENT;
	return KB_VERDICT_UNDECIDED;
}

/* The fewest replicates a side (equal sides) for which Holm over a family
 * of k tests can reach alpha: k * 2 / C(2n, n) < alpha. */
static long long replicates_needed(size_t k, double alpha)
{
	for (size_t n = 1; n < 64; n++)
		if ((double)k * kb_stats_mwu_min_p(n, n) < alpha)
			return (long long)n;
	return 64;
}

#define KB_NEEDED_MAX 100000

/*
 * How many replicates a side (in the test's unit) would decide a case that
 * is not distinguishable, were the effect and the spread what they are.
 * The interval the verdict reads narrows as one over the root of the
 * replicates (in both stages of the bootstrap: more builds average their
 * layouts too), so its half-width toward the margin, h at n replicates,
 * must shrink below the gap between the ratio and the margin: n (h / gap)^2.
 * Kalibera and Jones (2013) size a design from each level's measured
 * variation; here the bootstrap's own interval carries both levels.  For
 * faster or slower, the rank test must also reach alpha after Holm, and at
 * the probability of superiority seen (Noether 1987: z^2 / (6 (P - 1/2)^2)
 * a side), which holds where the spread is far from normal (two kinds of
 * build, say).
 */
static void needed(struct kb_test *t, const struct kb_model_opts *o)
{
	double me = o->min_effect, r = t->ratio, lo = t->verdict_ci.lo, hi = t->verdict_ci.hi, h, gap, z, n;
	size_t m = t->family ? t->family : 1, have = t->n < t->n_ref ? t->n : t->n_ref;

	t->needed = -1;
	if (t->verdict != KB_VERDICT_UNDECIDED || !isfinite(r) || !isfinite(lo) || !isfinite(hi) || !have)
		return;
	if (fabs(r - 1) > me) {		/* beyond the margin: the near end must clear it */
		t->needed_for = r > 1 ? KB_VERDICT_SLOWER : KB_VERDICT_FASTER;
		h = r > 1 ? r - lo : hi - r;
		gap = fabs(r - 1) - me;
	} else {			/* inside it: both ends must come inside */
		t->needed_for = KB_VERDICT_EQUIVALENT;
		h = fmax(r - lo, hi - r);
		gap = me - fabs(r - 1);
	}
	if (!(gap > 0)) {
		t->needed = 0;
		return;
	}
	n = ceil((double)have * (h / gap) * (h / gap));
	if (n <= (double)have)		/* the interval alone would; rounding or the test does not */
		n = (double)have + 1;
	if (t->needed_for != KB_VERDICT_EQUIVALENT) {
		double q = (t->cliffs_delta + 1) / 2 - 0.5;

		z = gsl_cdf_ugaussian_Pinv(1 - o->alpha / (2 * (double)m));
		n = fmax(n, q != 0 ? ceil(z * z / (6 * q * q)) : INFINITY);
		n = fmax(n, (double)replicates_needed(m, o->alpha));
	}
	/* beyond any study: none would */
	t->needed = n >= KB_NEEDED_MAX ? 0 : (long long)n;
}

static int has_p(const struct kb_test *t)
{
	return t->done && isfinite(t->p);
}

void kb_model_decide(struct kb_test *const *t, const size_t *family, size_t n,
		     const struct kb_model_opts *o)
{
	unsigned char *done = kb_xcalloc(n + 1, 1);
	double *p = kb_xmalloc((n + 1) * sizeof(*p)), *adj = kb_xmalloc((n + 1) * sizeof(*adj));
	size_t *member = kb_xmalloc((n + 1) * sizeof(*member));

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		if (done[i] || !has_p(t[i]))
			continue;
		for (size_t j = i; j < n; j++) {
			if (done[j] || !has_p(t[j]) || family[j] != family[i])
				continue;
			done[j] = 1;
			member[k] = j;
			p[k++] = t[j]->p;
		}
		kb_stats_holm(p, k, adj);
		for (size_t q = 0; q < k; q++) {
			struct kb_test *x = t[member[q]];

			x->decided = 1;
			x->p_holm = adj[q];
			x->family = k;
		}
	}
	/* every test with figures gets a verdict; only those with a p are in
	 * a family, whose size sets the level of the interval the verdict
	 * reads (Bonferroni's, which Holm's first step is) */
	for (size_t i = 0; i < n; i++) {
		struct kb_test *x = t[i];

		if (!x->done)
			continue;
		x->verdict_ci = x->ratio_ci;
		x->family_level = o->level;
		if (x->decided && x->tails.n) {
			x->family_level = 1 - o->alpha / (double)x->family;
			if (kb_stats_tails_interval(&x->tails, x->family_level, &x->verdict_ci) < 0)
				x->verdict_ci = (struct kb_interval){ NAN, NAN };
		}
		x->verdict = verdict_of(x, o);
		needed(x, o);
		kb_stats_tails_release(&x->tails);
	}
	free(done);
	free(p);
	free(adj);
	free(member);
}

/* Every row: per-boot medians and intervals, then each variant against the
 * baseline, then Holm over the cases of each metric and variant. */
static void rows(struct kb_model *m, const struct kb_model_input *in, const struct maps *maps, gsl_rng *rng)
{
	struct groups g;
	struct kb_test **tests;
	size_t *family;
	unsigned char *flag;

	group(m, in, maps, &g);
	flag = kb_xmalloc(g.most + 1);
	m->nrows = m->nc * m->nm * m->nv;
	m->rows = kb_pool_array(&m->pool, m->nrows, sizeof(*m->rows));
	for (size_t c = 0; c < m->nc; c++)
		for (size_t k = 0; k < m->nm; k++) {
			struct kb_row *r = &m->rows[(c * m->nm + k) * m->nv], *base = NULL;
			const double *reps;
			size_t nr;

			for (size_t v = 0; v < m->nv; v++) {
				size_t gi = v * m->nc + c;

				r[v].cas = c;
				r[v].metric = k;
				r[v].variant = v;
				fill_row(m, &r[v], g.cell + g.start[gi], g.start[gi + 1] - g.start[gi], k, flag);
				r[v].ci = (struct kb_interval){ NAN, NAN };
				reps = kb_row_reps(&r[v], &nr);
				if (nr > 1) {
					gsl_rng_set(rng, kb_stats_seed(m->seed, m->cases[c], m->metrics[k].name,
								       m->variants[v].name));
					kb_stats_bootstrap_median(reps, nr, rng, m->o.resamples, m->o.level, &r[v].ci);
				} else if (nr == 1) {
					r[v].ci.lo = r[v].ci.hi = reps[0];
				}
			}
			if (m->baseline >= m->nv)
				continue;
			base = &r[m->baseline];
			base->t.ratio = base->boots ? 1 : NAN;
			for (size_t v = 0; v < m->nv; v++) {
				if (v == m->baseline)
					continue;
				gsl_rng_set(rng, kb_stats_seed(m->seed + 1, m->cases[c], m->metrics[k].name,
							       m->variants[v].name));
				r[v].t.deterministic &= base->t.deterministic;
				r[v].t.moves_with_layout = m->metrics[k].moves_with_layout;
				kb_model_versus(&r[v].t, &r[v], base, rng, &m->o);
			}
		}
	tests = kb_xcalloc(m->nrows + 1, sizeof(*tests));
	family = kb_xcalloc(m->nrows + 1, sizeof(*family));
	for (size_t i = 0; i < m->nrows; i++) {
		tests[i] = &m->rows[i].t;
		family[i] = m->rows[i].metric * m->nv + m->rows[i].variant;
	}
	kb_model_decide(tests, family, m->nrows, &m->o);
	free(tests);
	free(family);
	free(flag);
	free(g.start);
	free(g.cell);
}

/* ---- across cycle models ---- */

/* The verdict of each primary row under every other cycle model: the same
 * or not (kb_row.robust). */
static void robustness(struct kb_model *m)
{
	size_t n = 0;

	if (m->primary >= m->nm || !m->metrics[m->primary].cycle_model)
		return;
	m->robust = kb_pool_array(&m->pool, m->nm, sizeof(*m->robust));
	m->robust[n++] = m->primary;
	for (size_t k = 0; k < m->nm; k++)
		if (k != m->primary && m->metrics[k].cycle_model)
			m->robust[n++] = k;
	if (n < 2)
		return;
	m->nrobust = n;
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++) {
			struct kb_row *r = &m->rows[(c * m->nm + m->primary) * m->nv + v];
			int differ = 0, none = 0;
			enum kb_robust rb;

			if (v == m->baseline || r->t.verdict == KB_VERDICT_NONE)
				continue;
			for (size_t i = 1; i < n; i++) {
				enum kb_verdict o = kb_model_row(m, c, m->robust[i], v)->t.verdict;

				none |= o == KB_VERDICT_NONE;	/* no data under that model */
				differ |= o != KB_VERDICT_NONE && o != r->t.verdict;
			}
			rb = differ ? KB_ROBUST_FLIPS : none ? KB_ROBUST_UNJUDGED : KB_ROBUST_SAME;
			r->robust = rb;
			m->robust_judged += rb != KB_ROBUST_UNJUDGED;
			m->robust_flips += rb == KB_ROBUST_FLIPS;
		}
}

/* ---- across variants ---- */

static void correlations(struct kb_model *m, gsl_rng *rng)
{
	double *x = kb_xmalloc((m->nv + 1) * sizeof(*x)), *y = kb_xmalloc((m->nv + 1) * sizeof(*y));

	m->corr = kb_pool_array(&m->pool, m->nm * m->nc, sizeof(*m->corr));
	for (size_t k = 0; k < m->nm; k++)
		for (size_t c = 0; c < m->nc; c++) {
			struct kb_correlation *out = &m->corr[m->ncorr];
			double small = INFINITY, fast = INFINITY;
			size_t n = 0;

			for (size_t v = 0; v < m->nv; v++) {
				const struct kb_model_variant *var = &m->variants[v];
				double med = kb_model_row(m, c, k, v)->median;

				if (!var->has_size || !isfinite(med))
					continue;
				x[n] = (double)var->text;
				y[n++] = med;
				if (x[n - 1] < small) {
					small = x[n - 1];
					out->smallest = v;
				}
				if (med < fast) {
					fast = med;
					out->fastest = v;
				}
			}
			if (n < 2)
				continue;
			gsl_rng_set(rng, kb_stats_seed(m->seed, "spearman", m->metrics[k].name, m->cases[c]));
			out->metric = k;
			out->cas = c;
			out->n = n;
			out->rho = kb_stats_spearman(x, y, n);
			out->p = kb_stats_spearman_p(x, y, n, rng, m->o.resamples);
			/* the smallest is the cheapest when no variant costs less,
			 * tied or not */
			out->smallest_is_fastest = !(kb_model_row(m, c, k, out->smallest)->median > fast);
			out->cheapest_tied = 0;
			for (size_t v = 0; v < m->nv; v++)
				out->cheapest_tied += v != out->fastest && m->variants[v].has_size &&
						      kb_model_row(m, c, k, v)->median == fast;
			m->ncorr++;
		}
	free(x);
	free(y);
}

static enum kb_answer answer(const struct kb_claim *c)
{
	int smaller = c->text_change < 0;

	if (!c->cases)
		return KB_ANSWER_NO_DATA;
	if (!isfinite(c->text_change) || c->text_change == 0)
		return KB_ANSWER_SAME_SIZE;
	if (c->faster == c->cases)
		return smaller ? KB_ANSWER_SMALLER_FASTER : KB_ANSWER_LARGER_FASTER;
	if (c->slower == c->cases)
		return smaller ? KB_ANSWER_SMALLER_SLOWER : KB_ANSWER_LARGER_SLOWER;
	if (c->equivalent && c->same + c->equivalent == c->cases)
		return KB_ANSWER_EQUIVALENT;
	if (c->undecided + c->same + c->equivalent == c->cases)
		return KB_ANSWER_UNDECIDED;
	if (!c->faster)	/* slower somewhere, faster nowhere */
		return smaller ? KB_ANSWER_SMALLER_SLOWER_WHERE : KB_ANSWER_LARGER_SLOWER_WHERE;
	if (!c->slower)
		return smaller ? KB_ANSWER_SMALLER_FASTER_WHERE : KB_ANSWER_LARGER_FASTER_WHERE;
	return KB_ANSWER_MIXED;
}

/* Per non-baseline variant: its size change, its verdicts on the primary
 * metric over every case, and what they answer. */
/* Every value of a side positive: a ratio of its resamples has a log. */
static int positive(const struct kb_nested *a)
{
	size_t end = a->start ? a->start[a->n] : a->n;

	for (size_t i = 0; i < end; i++)
		if (!(a->v[i] > 0) || !isfinite(a->v[i]))
			return 0;
	return end > 0;
}

/* ", faster in none" or ", faster in 3" */
static void count_words(struct kb_pool *p, char **s, const char *what, long long n, int always)
{
	if (!n && !always)
		return;
	*s = kb_pool_printf(p, "%s, %s in ", *s, what);
	*s = n ? kb_pool_printf(p, "%s%lld", *s, n) : kb_pool_printf(p, "%snone", *s);
}

const char *kb_model_answer_line(struct kb_model *m, const struct kb_claim *c)
{
	struct kb_pool *p = &m->pool;
	const struct kb_model_variant *v = &m->variants[c->variant];
	const struct kb_metric *mt = &m->metrics[m->primary];
	char *s;

	s = kb_pool_printf(p, "%s vs %s: ", v->name, m->baseline_name);
	if (isfinite(c->text_change))
		s = kb_pool_printf(p, "%stext %+.1f%% (measured); ", s, 100 * c->text_change);
	else
		s = kb_pool_printf(p, "%stext not measured; ", s);
	s = kb_pool_printf(p, "%s%s (%s%s%s): ", s, mt->field ? mt->field : mt->name,
			   kb_figure_kind_name(mt->source), *mt->model || mt->cycle_model ? ", " : "",
			   *mt->model ? mt->model : mt->cycle_model ? "kbench's cycle model" : "");
	if (!c->cases)
		return kb_pool_printf(p, "%sno case judged.", s);
	/* the larger count first: the direction of the answer */
	if (!c->faster && !c->slower) {
		s = kb_pool_printf(p, "%sfaster or slower in none of %lld cases", s, c->cases);
	} else if (c->faster > c->slower) {
		s = kb_pool_printf(p, "%sfaster in %lld of %lld cases", s, c->faster, c->cases);
		count_words(p, &s, "slower", c->slower, 1);
	} else {
		s = kb_pool_printf(p, "%sslower in %lld of %lld cases", s, c->slower, c->cases);
		count_words(p, &s, "faster", c->faster, 1);
	}
	count_words(p, &s, "equivalent", c->equivalent, 0);
	count_words(p, &s, "the same", c->same, 0);
	count_words(p, &s, "not distinguishable", c->undecided, 0);
	if (isfinite(c->geomean) && isfinite(c->geomean_ci.lo) && isfinite(c->geomean_ci.hi))
		s = kb_pool_printf(p, "%s; geometric mean x%.3f [%.3f, %.3f] (%.0f%%; %zu cases, each weighed "
				   "equally)", s, c->geomean, c->geomean_ci.lo, c->geomean_ci.hi, 100 * m->o.level,
				   c->geomean_cases);
	else if (isfinite(c->geomean))
		s = kb_pool_printf(p, "%s; geometric mean x%.3f (%zu cases, each weighed equally; no interval)", s,
				   c->geomean, c->geomean_cases);
	else
		s = kb_pool_printf(p, "%s; no geometric mean (no case with figures above 0 on both sides)", s);
	if (m->nrobust)
		s = c->flips ? kb_pool_printf(p, "%s; %zu verdict%s depend%s on the cycle model", s, c->flips,
					      c->flips == 1 ? "" : "s", c->flips == 1 ? "s" : "") :
			kb_pool_printf(p, "%s; no verdict depends on the cycle model", s);
	if (m->cycles_fallback && mt->cycle_model && strcmp(mt->field ? mt->field : "", "mca_cycles")) {
		size_t cut = strcspn(m->cycles_fallback, ":");

		s = kb_pool_printf(p, "%s; kbench's own cycle model, not llvm-mca's: %.*s", s, (int)cut,
				   m->cycles_fallback);
	}
	return kb_pool_printf(p, "%s.", s);
}

/* A variant's geometric mean ratio over the cases whose two sides are
 * positive, and its interval from a two-stage bootstrap like the verdicts'
 * (as many resamples, its own seed; a side's cases drawn together where
 * they share one shape). */
static void geomean(struct kb_model *m, struct kb_claim *c)
{
	struct kb_nested *x = kb_xcalloc(m->nc + 1, sizeof(*x)), *b = kb_xcalloc(m->nc + 1, sizeof(*b));
	size_t n = 0;

	c->geomean = NAN;
	c->geomean_ci = (struct kb_interval){ NAN, NAN };
	for (size_t k = 0; k < m->nc && m->baseline < m->nv; k++) {
		const struct kb_row *r = kb_model_row(m, k, m->primary, c->variant);
		const struct kb_row *br = kb_model_row(m, k, m->primary, m->baseline);

		if (!r->t.done)
			continue;
		kb_row_nested(r, &x[n]);
		kb_row_nested(br, &b[n]);
		n += positive(&x[n]) && positive(&b[n]);
	}
	c->geomean_cases = n;
	if (n) {
		double *dist = kb_xmalloc((m->o.resamples + 1) * sizeof(*dist));
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

		gsl_rng_set(rng, kb_stats_seed(m->seed, "geomean", m->variants[c->variant].name,
					       m->metrics[m->primary].name));
		c->geomean = kb_stats_geomean_nested(x, b, n);
		if (m->o.resamples && kb_stats_bootstrap_geomean_nested(x, b, n, rng, m->o.resamples, dist) == 0)
			kb_stats_percentile(dist, m->o.resamples, m->o.level, &c->geomean_ci);
		gsl_rng_free(rng);
		free(dist);
	}
	free(x);
	free(b);
}

static void claims(struct kb_model *m)
{
	m->claims = kb_pool_array(&m->pool, m->nv, sizeof(*m->claims));
	for (size_t v = 0; v < m->nv; v++) {
		struct kb_claim *c = &m->claims[m->nclaims];

		if (!strcmp(m->variants[v].name, m->baseline_name))
			continue;
		c->variant = v;
		c->text_change = m->variants[v].text_change;
		for (size_t k = 0; k < m->nc; k++) {
			enum kb_verdict vd = kb_model_row(m, k, m->primary, v)->t.verdict;

			c->faster += vd == KB_VERDICT_FASTER;
			c->slower += vd == KB_VERDICT_SLOWER;
			c->same += vd == KB_VERDICT_SAME;
			c->undecided += vd == KB_VERDICT_UNDECIDED || vd == KB_VERDICT_ONE_LAYOUT;
			c->equivalent += vd == KB_VERDICT_EQUIVALENT;
		}
		c->cases = c->faster + c->slower + c->same + c->undecided + c->equivalent;
		c->answer = answer(c);
		for (size_t k = 0; k < m->nc; k++)
			c->flips += kb_model_row(m, k, m->primary, v)->robust == KB_ROBUST_FLIPS;
		geomean(m, c);
		c->line = kb_model_answer_line(m, c);
		m->nclaims++;
	}
}

/* The cases whose instruction counts change from build to build. */
static void build_sensitive(struct kb_model *m)
{
	m->sensitive = kb_pool_array(&m->pool, m->nc * m->nv, sizeof(*m->sensitive));
	for (size_t c = 0; c < m->nc; c++)
		for (size_t v = 0; v < m->nv; v++) {
			const struct kb_row *r;
			double s = build_spread(m, c, v, &r);

			if (s > m->o.min_effect)
				m->sensitive[m->nsensitive++] = (struct kb_build_sensitive){ c, v, r, s };
		}
}

static void caveat(struct kb_model *m, size_t *cap, enum kb_caveat_id id, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void caveat(struct kb_model *m, size_t *cap, enum kb_caveat_id id, const char *fmt, ...)
{
	va_list ap;

	m->caveats = kb_pool_grow(&m->pool, m->caveats, m->ncaveats, cap, sizeof(*m->caveats));
	va_start(ap, fmt);
	m->caveats[m->ncaveats].id = id;
	m->caveats[m->ncaveats++].text = kb_pool_vprintf(&m->pool, fmt, ap);
	va_end(ap);
}

static void caveats(struct kb_model *m, size_t *cap)
{
	double worst_min_p = 0, worst_floor = 0;
	size_t worst_family = 0;
	long long outl = 0, nb_min = -1, failed = (long long)m->n_failed_boots;
	/* the primary metric's replicates: builds, one build's layouts, or boots */
	int two = 0;
	enum kb_unit unit = kb_model_unit(m, m->primary);
	static const char *const unit_words[][3] = {
		[KB_UNIT_BOOT] = { "boot(s)", "boots", " (boots = 5 in [run])" },
		[KB_UNIT_BUILD] = { "build(s)", "builds", " (layouts in [run])" },
		[KB_UNIT_VLAYOUT] = { "layout(s)", "layouts", " (sim_virtual_layouts, or builds: layouts, in [run])" },
	};

	for (size_t i = 0; i < m->nrows; i++) {
		const struct kb_row *r = &m->rows[i];

		size_t nr;

		kb_row_reps(r, &nr);
		if (r->metric == m->primary) {
			outl += (long long)r->n_outlier_boots;
			if (nr > 0 && (nb_min < 0 || (long long)nr < nb_min))
				nb_min = (long long)nr;
		}
		if (has_p(&r->t) && r->t.p_min > worst_min_p)
			worst_min_p = r->t.p_min;
		/* the smallest p Holm can give in the row's family */
		if (has_p(&r->t) && r->t.decided && r->metric == m->primary &&
		    r->t.p_min * (double)r->t.family > worst_floor) {
			worst_floor = r->t.p_min * (double)r->t.family;
			worst_family = r->t.family;
		}
	}
	for (size_t i = 0; i < m->ncorr; i++)
		two |= m->corr[i].n < 3;
	if (time_is_emulated(m->backend, kb_accel_from_name(m->accel)))
		caveat(m, cap, KB_CAVEAT_EMULATED_TIME,
		       "Time is emulated time: under TCG the %s backend times QEMU's translation of the "
		       "kernel, not a CPU running it; it is meaningful for speed under KVM only.", m->backend);
	if (m->deterministic)
		caveat(m, cap, KB_CAVEAT_DETERMINISTIC,
		       "The %s backend is deterministic: the same kernel gives the same counts in every "
		       "boot, so one boot per %s suffices; more boots only repeat them.", m->backend,
		       m->nlayouts >= 2 ? "layout" : "variant");
	if (worst_min_p > m->o.alpha)
		caveat(m, cap, KB_CAVEAT_FEW_BOOTS,
		       "With %lld %s of a variant, the smallest p-value the exact rank test can give "
		       "is %.3g, above %.3g: no difference can be called at this confidence. Use 5 or more "
		       "%s per variant%s.", nb_min, unit_words[unit][0], worst_min_p, m->o.alpha,
		       unit_words[unit][1], unit_words[unit][2]);
	else if (worst_floor >= m->o.alpha)
		caveat(m, cap, KB_CAVEAT_FEW_BOOTS,
		       "With %lld %s of a variant, the smallest p-value the exact rank test can give is "
		       "%.3g, and Holm over %zu cases multiplies it to %.3g, not below %.3g: no difference "
		       "can be called at this confidence. Use %lld or more %s per variant%s.", nb_min,
		       unit_words[unit][0], worst_min_p, worst_family, worst_floor, m->o.alpha,
		       replicates_needed(worst_family, m->o.alpha), unit_words[unit][1], unit_words[unit][2]);
	if (outl)
		caveat(m, cap, KB_CAVEAT_OUTLIERS,
		       "%lld per-boot median%s %s outlier%s (modified z-score above %.1f), marked in the "
		       "tables and kept in every statistic.", outl, outl > 1 ? "s" : "",
		       outl > 1 ? "are" : "is an", outl > 1 ? "s" : "", m->o.outlier_z);
	if (m->unsafe_flags)
		caveat(m, cap, KB_CAVEAT_UNSAFE_FLAGS, "%s", m->unsafe_flags);
	if (failed)
		caveat(m, cap, KB_CAVEAT_FAILED_BOOTS,
		       "%lld boots did not complete; their samples, if any, are not used.", failed);
	if (two)
		caveat(m, cap, KB_CAVEAT_FEW_VARIANTS,
		       "With fewer than 3 variants, the rank correlation between size and cost is +1 or -1 "
		       "by construction and its permutation p-value cannot be small: compare at least 3 "
		       "variants to test it.");
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* How many distinct layouts the samples name (a line without one: 0). */
static size_t count_layouts(const struct kb_model_input *in)
{
	long long *l = kb_xmalloc((in->ncells + 1) * sizeof(*l));
	size_t n = 0;

	for (size_t i = 0; i < in->ncells; i++)
		l[i] = in->cells[i].layout;
	qsort(l, in->ncells, sizeof(*l), cmp_ll);
	for (size_t i = 0; i < in->ncells; i++)
		n += !i || l[i] != l[i - 1];
	free(l);
	return n;
}

/* Each metric's virtual layouts (the most any cell has values for) and
 * its unit of replication. */
static void replicate_kinds(struct kb_model *m, const struct kb_model_input *in)
{
	for (size_t i = 0; i < in->ncells; i++) {
		const struct kb_cell *c = &in->cells[i];

		for (size_t k = 0; k < c->nvl_metric && k < m->nm; k++)
			for (size_t j = c->nvl; j > m->metrics[k].virtual_layouts; j--)
				if (c->vl[k * c->nvl + j - 1].n) {
					m->metrics[k].virtual_layouts = j;
					break;
				}
	}
	for (size_t k = 0; k < m->nm; k++) {
		m->metrics[k].by_layout = m->nlayouts >= 2 || m->metrics[k].virtual_layouts > 0;
		if (m->metrics[k].virtual_layouts > m->virtual_layouts)
			m->virtual_layouts = m->metrics[k].virtual_layouts;
	}
}

/* A run larger than KB_MODEL_MAX_ROWS rows cannot be reported. */
static int too_many_rows(const struct kb_model *m, const char *dir)
{
	if (!m->nv || m->nc <= KB_MODEL_MAX_ROWS / m->nm / m->nv)
		return 0;
	kb_error("'%s': %zu cases, %zu metrics and %zu variants: more than the %d rows a report holds",
		 dir ? dir : "samples", m->nc, m->nm, m->nv, KB_MODEL_MAX_ROWS);
	return 1;
}

struct kb_model *kb_model_from_input(const struct kb_model_build_args *a)
{
	struct kb_model *m = kb_xcalloc(1, sizeof(*m));
	struct maps maps = { NULL, NULL };
	gsl_rng *rng;
	size_t cap = 0;

	m->o = *a->o;
	header(m, a);
	variants(m, a, &maps);
	cases(m, a, &maps);
	metrics(m, a);
	if (too_many_rows(m, a->dir)) {
		free(maps.variant);
		free(maps.cas);
		kb_model_free(m);
		return NULL;
	}
	m->primary = primary_metric(m, a->manifest);
	m->deterministic = a->in->samples > 0 && a->in->deterministic;
	m->nlayouts = count_layouts(a->in);
	replicate_kinds(m, a->in);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	rows(m, a->in, &maps, rng);
	robustness(m);
	correlations(m, rng);
	claims(m);
	build_sensitive(m);
	caveats(m, &cap);
	gsl_rng_free(rng);
	free(maps.variant);
	free(maps.cas);
	return m;
}

void kb_model_timing_outcome(struct kb_model *bt, const struct kb_timing *t, size_t n)
{
	size_t cap = bt->ncaveats, nothers = 0;
	double *others = kb_xcalloc(n + 1, sizeof(*others));

	for (size_t i = 0; i < n; i++)
		if (!isnan(t[i].other_cpu))
			others[nothers++] = t[i].other_cpu;
	bt->host_other = host_other(others, nothers);
	free(others);
	bt->timing = kb_pool_array(&bt->pool, n, sizeof(*bt->timing));
	for (size_t i = 0; i < n; i++) {
		struct kb_timing *x = &bt->timing[bt->ntiming++];

		*x = (struct kb_timing){
			kb_pool_strdup(&bt->pool, t[i].variant), kb_pool_strdup(&bt->pool, t[i].status),
			kb_pool_strdup(&bt->pool, t[i].reason), kb_pool_strdup(&bt->pool, t[i].accel),
			kb_pool_strdup(&bt->pool, t[i].json), kb_pool_strdup(&bt->pool, t[i].log),
			t[i].runs, t[i].warmup, t[i].ok, t[i].failed, t[i].seconds, t[i].other_cpu };
		if (!strcmp(x->status, "ok"))
			continue;
		if (x->ok)
			caveat(bt, &cap, KB_CAVEAT_TIMING_PARTIAL,
			       "Variant %s: %lld of %lld timed boots failed (%s); the others are used.",
			       x->variant, x->failed, x->runs, x->log);
		else
			caveat(bt, &cap, KB_CAVEAT_TIMING_FAILED, "Variant %s: no boot timed: %s (%s).",
			       x->variant, *x->reason ? x->reason : x->status, x->log);
	}
}

void kb_model_free(struct kb_model *m)
{
	if (!m)
		return;
	kb_model_free(m->boot_timing);
	kb_pool_release(&m->pool);
	free(m);
}

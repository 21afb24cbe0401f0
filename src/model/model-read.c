// SPDX-License-Identifier: GPL-2.0-or-later
/* A run directory read into the model's input (model-input.h), each file
 * once and line by line through kb_store_each_line: a sample line becomes
 * its metric values in the cell of its variant, case and boot, and is then
 * forgotten.  What is not used is counted, and the report says so: lines
 * refused or not JSON objects (torn), lines naming a variant, case,
 * workload, field or backend that is not a plain name (those names reach
 * paths, gnuplot and markup), samples the manifest does not account for or
 * whose values no writer gives (enum kb_ignored), and samples whose (boot,
 * case, rep) came before (a resume that ran a boot twice). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "model-input.h"
#include "model.h"
#include "rundir.h"
#include "sim.h"
#include "store.h"
#include "util.h"

/* arr with room for more than n elements of size each (*cap updated) */
static void *grow(void *arr, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 16;
	return kb_xrealloc(arr, *cap * size);
}

/* ---- the reader ---- */

/* What one reading of a run directory collects: the samples of each model,
 * the boots and the whole-boot timings, and the count of what it left out. */
struct reader {
	struct kb_pool pool;
	json_t *manifest;			/* borrowed */
	/* what the manifest lists, which a sample keeps to: its variants (plain
	 * names, a duplicate its first) and each one's built layouts */
	struct kb_names listed;
	struct listed_layouts {
		long long *v;			/* its replicas' layouts */
		size_t n;			/* 0: none listed, layouts 0 .. below - 1 */
		long long below;		/* the manifest's layouts (1 when absent) */
	} *layouts;				/* [listed.n] */
	long long vl;				/* sim.virtual_layouts.n; -1: no "sim" recorded */
	long ignored[KB_IGNORED_N];
	struct kb_model_input in[2];		/* the workloads' samples, the whole boots' */
	struct kb_names backends;
	unsigned char *backend_flags;		/* per backend id: BACKEND_* */
	size_t nflags;
	struct kb_names boot_variants;
	struct kb_boot_line *boots;
	size_t nboots, cap_boots;
	struct kb_timing *timing;
	size_t ntiming, cap_timing;
	struct kb_model_dropped dropped;
	struct {
		long samples, boots, timing;
	} torn;				/* refused, or not a JSON object */
	/* a run with a predicted order: its sim samples' figures (model-predict.c) */
	const char *pred_cycles;	/* NULL: no prediction */
	struct kb_pred_sample *pred;
	size_t npred, cap_pred;
};

enum { BACKEND_DETERMINISTIC = 1, BACKEND_STAGE = 2 };

static void input_release(struct kb_model_input *in)
{
	for (size_t i = 0; i < in->ncells; i++) {
		struct kb_cell *c = &in->cells[i];

		for (uint32_t k = 0; k < c->nmetric; k++)
			if (c->metric[k].cap > 1)
				free(c->metric[k].v);
		for (size_t k = 0; k < (size_t)c->nvl_metric * c->nvl; k++)
			if (c->vl[k].cap > 1)
				free(c->vl[k].v);
		free(c->metric);
		free(c->vl);
	}
	free(in->cells);
	free(in->pairs);
	kb_names_release(&in->variants);
	kb_names_release(&in->cases);
	kb_names_release(&in->workloads);
	kb_names_release(&in->fields);
	kb_htab_release(&in->pair_index);
	kb_htab_release(&in->cell_index);
	kb_htab_release(&in->reps);
}

/* The manifest's variants and layouts (manifest.c writes them before any
 * sample): "layouts" N and per variant "replicas" [{layout}], and the sim
 * backend's record "sim" {virtual_layouts {n}} (none: no virtual layouts). */
static void listed_init(struct reader *rd)
{
	json_t *mv = json_object_get(rd->manifest, "variants"), *sim = json_object_get(rd->manifest, "sim"), *v;
	json_t *n = json_object_get(json_object_get(sim, "virtual_layouts"), "n");
	long long below = json_integer_value(json_object_get(rd->manifest, "layouts"));
	size_t i;

	rd->vl = !json_is_object(sim) ? -1 : json_integer_value(n) > 0 ? json_integer_value(n) : 0;
	rd->layouts = kb_xcalloc(json_array_size(mv) + 1, sizeof(*rd->layouts));
	json_array_foreach(mv, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		json_t *reps = json_object_get(v, "replicas"), *r;
		struct listed_layouts *l;
		size_t k;

		if (!name || !kb_model_name_ok(KB_NAME_VARIANT, name) || kb_names_find(&rd->listed, name) < rd->listed.n)
			continue;
		l = &rd->layouts[kb_names_add(&rd->listed, &rd->pool, name)];
		l->below = below > 1 ? below : 1;
		l->v = kb_pool_array(&rd->pool, json_array_size(reps), sizeof(*l->v));
		json_array_foreach(reps, k, r)
			if (json_is_integer(json_object_get(r, "layout")))
				l->v[l->n++] = json_integer_value(json_object_get(r, "layout"));
	}
}

static void reader_init(struct reader *rd, json_t *manifest)
{
	memset(rd, 0, sizeof(*rd));
	rd->manifest = manifest;
	if (kb_model_pred_order(manifest))
		rd->pred_cycles = kb_model_pred_cycles(manifest);
	for (size_t i = 0; i < KB_ARRAY_SIZE(rd->in); i++) {
		rd->in[i].backend = "";
		rd->in[i].deterministic = 1;
	}
	listed_init(rd);
}

static void reader_release(struct reader *rd)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(rd->in); i++)
		input_release(&rd->in[i]);
	kb_names_release(&rd->listed);
	free(rd->layouts);
	kb_names_release(&rd->backends);
	kb_names_release(&rd->boot_variants);
	free(rd->backend_flags);
	free(rd->boots);
	free(rd->timing);
	free(rd->pred);
	kb_pool_release(&rd->pool);
}

/* backend table: a backend's flags, asked once per name */
static unsigned backend_flags(struct reader *rd, const char *name, const char **interned)
{
	uint32_t id = kb_names_add(&rd->backends, &rd->pool, name);

	if (id == rd->nflags) {
		const struct kb_backend *b = kb_backend_find(name);

		rd->backend_flags = kb_xrealloc(rd->backend_flags, rd->backends.cap);
		rd->nflags++;
		rd->backend_flags[id] = (unsigned char)((kb_backend_deterministic(name) ? BACKEND_DETERMINISTIC : 0) |
							(b && b->role == KB_ROLE_STAGE ? BACKEND_STAGE : 0));
	}
	*interned = rd->backends.v[id];
	return rd->backend_flags[id];
}

/* The cell of (variant, case, boot), made the first time. */
static uint32_t cell_of(struct reader *rd, struct kb_model_input *in, const char *variant, const char *cas,
			long long boot)
{
	struct kb_cell *last = in->ncells ? &in->cells[in->last] : NULL;
	uint32_t v, c, id;
	int added;

	/* the lines of one boot come together: most lines are the last line's cell */
	if (last && last->boot == boot && !strcmp(in->cases.v[last->cas], cas) &&
	    !strcmp(in->variants.v[last->variant], variant))
		return (uint32_t)in->last;
	v = kb_names_add(&in->variants, &rd->pool, variant);
	c = kb_names_add(&in->cases, &rd->pool, cas);
	id = kb_htab_get(&in->cell_index, ((uint64_t)v << 32 | c) + 1, (uint64_t)boot, NULL, NULL,
			 (uint32_t)in->ncells, &added);
	if (added) {
		in->cells = grow(in->cells, in->ncells, &in->cap_cells, sizeof(*in->cells));
		in->cells[in->ncells++] = (struct kb_cell){ .variant = v, .cas = c, .boot = boot };
	}
	in->last = id;
	return id;
}

static int rep_add(struct kb_model_input *in, uint32_t cell, long long rep)
{
	int added;

	kb_htab_get(&in->reps, (uint64_t)cell + 1, (uint64_t)rep, NULL, NULL, 0, &added);
	return added;
}

/* Has this cell had this rep before?  Reps that come 1, 2, 3... are only
 * counted; the first that does not moves the cell's reps to a set. */
static int seen_rep(struct kb_model_input *in, uint32_t id, long long rep)
{
	struct kb_cell *c = &in->cells[id];

	if (!c->rep_hashed) {
		if (rep == c->rep_max + 1) {
			c->rep_max = rep;
			return 0;
		}
		if (rep >= 1 && rep <= c->rep_max)
			return 1;
		for (long long r = 1; r <= c->rep_max; r++)
			rep_add(in, id, r);
		c->rep_hashed = 1;
	}
	return !rep_add(in, id, rep);
}

static void vals_push(struct kb_vals *x, double d)
{
	if (x->cap == 0) {
		x->one = d;
		x->n = x->cap = 1;
		return;
	}
	if (x->cap == 1) {
		double one = x->one;

		x->v = kb_xmalloc(4 * sizeof(*x->v));
		x->v[0] = one;
		x->cap = 4;
	} else if (x->n == x->cap) {
		if (x->cap >= UINT32_MAX / 2)
			return;	/* 2^31 samples of one boot and case: never seen, never kept */
		x->cap *= 2;
		x->v = kb_xrealloc(x->v, x->cap * sizeof(*x->v));
	}
	x->v[x->n++] = d;
}

static void cell_push(struct kb_cell *c, uint32_t metric, double d)
{
	if (!isfinite(d))
		return;
	if (metric >= c->nmetric) {
		uint32_t n = metric + 1 > 2 * c->nmetric ? metric + 1 : 2 * c->nmetric;

		c->metric = kb_xrealloc(c->metric, n * sizeof(*c->metric));
		memset(c->metric + c->nmetric, 0, (n - c->nmetric) * sizeof(*c->metric));
		c->nmetric = n;
	}
	vals_push(&c->metric[metric], d);
}

/* The value of metric under virtual layout k (1..): the table grows to
 * hold it, the values kept where they were. */
static void cell_push_vl(struct kb_cell *c, uint32_t metric, uint32_t k, double d)
{
	if (!isfinite(d))
		return;
	if (metric >= c->nvl_metric || k > c->nvl) {
		uint32_t nm = metric + 1 > c->nvl_metric ? metric + 1 : c->nvl_metric;
		uint32_t nk = k > c->nvl ? k : c->nvl;
		struct kb_vals *vl = kb_xcalloc((size_t)nm * nk, sizeof(*vl));

		for (uint32_t i = 0; i < c->nvl_metric; i++)
			memcpy(vl + (size_t)i * nk, c->vl + (size_t)i * c->nvl, c->nvl * sizeof(*vl));
		free(c->vl);
		c->vl = vl;
		c->nvl_metric = nm;
		c->nvl = nk;
	}
	vals_push(&c->vl[(size_t)metric * c->nvl + k - 1], d);
}

/* Most virtual layouts a sample's field is read for (a line cannot make
 * the model allocate without bound). */
#define KB_MODEL_MAX_VL 1024

/* Workload parameters in "fields" are part of the case, not a metric. */
static int is_parameter(const char *field)
{
	return !strcmp(field, "k");
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Every name of a sample line is a plain one (model.h, kb_model_name_ok). */
static int plain_sample(const char *variant, const char *workload, json_t *cas, const char *backend, json_t *fields)
{
	const char *key;
	json_t *v;

	if (!variant || !kb_model_name_ok(KB_NAME_VARIANT, variant) || !workload ||
	    !kb_model_name_ok(KB_NAME_PLAIN, workload) ||
	    (cas && (!json_is_string(cas) || !kb_model_name_ok(KB_NAME_CASE, json_string_value(cas)))) ||
	    (*backend && !kb_model_name_ok(KB_NAME_VARIANT, backend)))
		return 0;
	json_object_foreach(fields, key, v)
		if (!kb_model_name_ok(KB_NAME_PLAIN, key))
			return 0;
	return 1;
}

/* ---- what a sample may hold ---- */

static int layout_listed(const struct listed_layouts *l, long long layout)
{
	if (!l->n)
		return layout >= 0 && layout < l->below;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == layout)
			return 1;
	return 0;
}

/* *why lowered to w: a line is counted for the first reason it has. */
static void ignore(int *why, int w)
{
	if (w < *why)
		*why = w;
}

/* A count as every writer gives it (boot.c, sim.c, pmuhost.c): a JSON
 * integer, 0 or more.  jansson refuses a number it cannot hold (1e999, an
 * integer past 2^63) as a torn line, so a real here is finite. */
static void count(int *why, json_t *x)
{
	if (!json_is_number(x))
		ignore(why, KB_IGNORED_TYPE);
	else if (json_number_value(x) < 0)
		ignore(why, KB_IGNORED_NEGATIVE);
	else if (!json_is_integer(x))
		ignore(why, KB_IGNORED_FRACTION);
}

/* Why a sample line of plain names is used in no figure (enum kb_ignored),
 * or KB_IGNORED_N: its variant and layout are ones the manifest lists, and
 * its values have the types the writers give them: an integer boot, rep
 * and layout, a time per operation of 0 or more, a count of iterations of 1
 * or more, and counts in its fields ("vl_<field>": an array of counts, at
 * most one per virtual layout the manifest records). */
static int ignored(const struct reader *rd, json_t *j, const char *variant)
{
	size_t id = kb_names_find(&rd->listed, variant);
	json_t *layout = json_object_get(j, KB_RD_LAYOUT), *rep = json_object_get(j, KB_RD_REP);
	json_t *ns = json_object_get(j, KB_RD_NS_PER_OP), *it = json_object_get(j, KB_RD_ITERATIONS);
	json_t *fields = json_object_get(j, KB_RD_FIELDS), *v, *x;
	const char *key;
	int why = KB_IGNORED_N;
	size_t k;

	if (id == rd->listed.n)
		return KB_IGNORED_VARIANT;
	if (!json_is_integer(json_object_get(j, KB_RD_BOOT)) || (rep && !json_is_integer(rep)) ||
	    (layout && !json_is_integer(layout)) || (fields && !json_is_object(fields)))
		ignore(&why, KB_IGNORED_TYPE);
	else if (!layout_listed(&rd->layouts[id], json_integer_value(layout)))
		ignore(&why, KB_IGNORED_LAYOUT);
	if (!json_is_number(ns))
		ignore(&why, KB_IGNORED_TYPE);
	else if (json_number_value(ns) < 0)
		ignore(&why, KB_IGNORED_NEGATIVE);
	count(&why, it);
	if (json_is_integer(it) && json_integer_value(it) == 0)
		ignore(&why, KB_IGNORED_ITERATIONS);
	json_object_foreach(fields, key, v) {
		if (strncmp(key, "vl_", 3)) {
			count(&why, v);
		} else if (json_is_array(v)) {
			if (rd->vl >= 0 && json_array_size(v) > (size_t)rd->vl)
				ignore(&why, KB_IGNORED_LAYOUT);
			json_array_foreach(v, k, x)
				count(&why, x);
		} else if (!json_is_number(v)) {
			ignore(&why, KB_IGNORED_TYPE);	/* a number: an older kbench's summary */
		}
	}
	return why;
}

/* A field's values under virtual layouts 1, 2, ... (its "vl_" array), per
 * operation, into the cell. */
static void virtual_layouts(struct reader *rd, struct kb_model_input *in, struct kb_cell *c, const char *field,
			    json_t *a, double iterations)
{
	uint32_t f = kb_names_add(&in->fields, &rd->pool, field);
	size_t k;
	json_t *x;

	json_array_foreach(a, k, x) {
		if (k >= KB_MODEL_MAX_VL)
			break;
		if (json_is_number(x))
			cell_push_vl(c, f + 1, (uint32_t)k + 1, json_number_value(x) / iterations);
	}
}

/* field of fields per operation, or NAN where it is not a number */
static double per_op(json_t *fields, const char *field, double iterations)
{
	json_t *v = json_object_get(fields, field);

	return json_is_number(v) ? json_number_value(v) / iterations : NAN;
}

/* A sim sample of a run with a predicted order: its own and its predicted
 * kernel L1i misses and cycles. */
static void pred_sample(struct reader *rd, json_t *j, const char *variant, const char *cas, json_t *fields,
			double iterations)
{
	struct kb_pred_sample *p;
	char name[64];

	rd->pred = grow(rd->pred, rd->npred, &rd->cap_pred, sizeof(*rd->pred));
	p = &rd->pred[rd->npred++];
	p->variant = kb_pool_strdup(&rd->pool, variant);
	p->cas = kb_pool_strdup(&rd->pool, cas);
	p->layout = json_integer_value(json_object_get(j, KB_RD_LAYOUT));
	p->own[0] = per_op(fields, "l1i_k", iterations);
	p->own[1] = per_op(fields, rd->pred_cycles, iterations);
	p->pred[0] = per_op(fields, "pred_l1i_k", iterations);
	snprintf(name, sizeof(name), "pred_%s", rd->pred_cycles);
	p->pred[1] = per_op(fields, name, iterations);
}

/* One line of samples.jsonl into its cell: the time per operation and each
 * field per operation, as metrics (after the checks of ignored(): every
 * field a count, iterations 1 or more). */
static void take_sample(struct reader *rd, json_t *j)
{
	const char *variant = json_string_value(json_object_get(j, KB_RD_VARIANT));
	const char *workload = json_string_value(json_object_get(j, KB_RD_WORKLOAD));
	const char *backend = json_string_value(json_object_get(j, KB_RD_BACKEND)), *key;
	json_t *cas = json_object_get(j, KB_RD_CASE), *fields = json_object_get(j, KB_RD_FIELDS);
	json_t *rep = json_object_get(j, KB_RD_REP), *v;
	double iterations = num(j, KB_RD_ITERATIONS);
	struct kb_model_input *in;
	struct kb_cell *c;
	unsigned flags;
	uint32_t id, w, ci;
	int added, why;

	if (!json_is_object(j)) {
		rd->torn.samples++;
		return;
	}
	backend = backend ? backend : "";
	if (!plain_sample(variant, workload, cas, backend, fields)) {
		rd->dropped.names.samples++;
		return;
	}
	why = ignored(rd, j, variant);
	if (why < KB_IGNORED_N) {
		rd->ignored[why]++;
		return;
	}
	flags = backend_flags(rd, backend, &backend);
	/* backend table: a whole boot timed by a stage backend is a model of its own */
	in = &rd->in[!strcmp(workload, "boot") && (flags & BACKEND_STAGE)];
	id = cell_of(rd, in, variant, cas ? json_string_value(cas) : workload,
		     json_integer_value(json_object_get(j, KB_RD_BOOT)));
	if (json_is_integer(rep) && seen_rep(in, id, json_integer_value(rep))) {
		rd->dropped.duplicates++;
		return;
	}
	c = &in->cells[id];
	if (!c->samples && json_is_integer(json_object_get(j, KB_RD_LAYOUT)))
		c->layout = json_integer_value(json_object_get(j, KB_RD_LAYOUT));
	ci = c->cas;
	w = kb_names_add(&in->workloads, &rd->pool, workload);
	kb_htab_get(&in->pair_index, ((uint64_t)w << 32 | ci) + 1, 0, NULL, NULL, 0, &added);
	if (added) {
		in->pairs = grow(in->pairs, in->npairs, &in->cap_pairs, sizeof(*in->pairs));
		in->pairs[in->npairs][0] = w;
		in->pairs[in->npairs++][1] = ci;
	}
	if (!in->samples++)
		in->backend = backend;
	in->deterministic &= !!(flags & BACKEND_DETERMINISTIC);
	c->nondet |= !(flags & BACKEND_DETERMINISTIC);
	c->samples++;
	cell_push(c, 0, num(j, KB_RD_NS_PER_OP));
	if (rd->pred_cycles && !strcmp(backend, KB_SIM_BACKEND))
		pred_sample(rd, j, variant, cas ? json_string_value(cas) : workload, fields, iterations);
	json_object_foreach(fields, key, v) {
		uint32_t f;

		/* "vl_<field>": that field under each virtual layout (sim.h); a
		 * number there is an older kbench's summary, no metric */
		if (!strncmp(key, "vl_", 3)) {
			if (json_is_array(v) && kb_model_name_ok(KB_NAME_PLAIN, key + 3) && !is_parameter(key + 3))
				virtual_layouts(rd, in, c, key + 3, v, iterations);
			continue;
		}
		/* "pred_<field>": that field where an order would put the code,
		 * a prediction of another kernel (sim.h): no metric, no layout */
		if (is_parameter(key) || !strncmp(key, "pred_", 5))
			continue;
		f = kb_names_add(&in->fields, &rd->pool, key);
		cell_push(c, f + 1, json_number_value(v) / iterations);
	}
}

static const char *pool_str(struct reader *rd, json_t *o, const char *key)
{
	return kb_pool_strdup(&rd->pool, json_string_value(json_object_get(o, key)) ?: "");
}

/* A line of boots.jsonl or timing.jsonl is a JSON object (else counted
 * in *torn) naming a variant by a plain name (else in *names). */
static int variant_line(json_t *j, long *torn, long *names)
{
	const char *variant = json_string_value(json_object_get(j, KB_RD_VARIANT));

	if (!json_is_object(j))
		++*torn;
	else if (!variant || !kb_model_name_ok(KB_NAME_VARIANT, variant))
		++*names;
	else
		return 1;
	return 0;
}

/* host_other_cpu of a boots.jsonl or timing.jsonl line (hostload.h), or
 * NAN when absent or not a share */
static double other_cpu(json_t *j)
{
	json_t *x = json_object_get(j, KB_RD_HOST_OTHER_CPU);
	double v = json_is_number(x) ? json_number_value(x) : NAN;

	return v >= 0 && v <= 1 ? v : NAN;
}

static void take_boot(struct reader *rd, json_t *j)
{
	const char *status = json_string_value(json_object_get(j, KB_RD_STATUS)) ?: "";
	struct kb_boot_line *b;
	uint32_t id;

	if (!variant_line(j, &rd->torn.boots, &rd->dropped.names.boots))
		return;
	rd->boots = grow(rd->boots, rd->nboots, &rd->cap_boots, sizeof(*rd->boots));
	id = kb_names_add(&rd->boot_variants, &rd->pool, json_string_value(json_object_get(j, KB_RD_VARIANT)));
	b = &rd->boots[rd->nboots++];
	b->variant = rd->boot_variants.v[id];
	b->boot = json_integer_value(json_object_get(j, KB_RD_BOOT));
	b->other_cpu = other_cpu(j);
	b->node = json_is_string(json_object_get(j, KB_RD_NODE)) ? pool_str(rd, j, KB_RD_NODE) : NULL;
	/* only a failed boot's words are shown */
	if (!strcmp(status, "ok")) {
		b->status = "ok";
		b->reason = b->serial = "";
	} else {
		b->status = kb_pool_strdup(&rd->pool, status);
		b->reason = pool_str(rd, j, KB_RD_REASON);
		b->serial = pool_str(rd, j, KB_RD_SERIAL);
	}
}

static void take_timing(struct reader *rd, json_t *t)
{
	if (!variant_line(t, &rd->torn.timing, &rd->dropped.names.timing))
		return;
	rd->timing = grow(rd->timing, rd->ntiming, &rd->cap_timing, sizeof(*rd->timing));
	rd->timing[rd->ntiming++] = (struct kb_timing){
		pool_str(rd, t, KB_RD_VARIANT), pool_str(rd, t, KB_RD_STATUS), pool_str(rd, t, KB_RD_REASON),
		pool_str(rd, t, KB_RD_ACCEL), pool_str(rd, t, KB_RD_JSON), pool_str(rd, t, KB_RD_LOG),
		json_integer_value(json_object_get(t, KB_RD_RUNS)), json_integer_value(json_object_get(t, KB_RD_WARMUP)),
		json_integer_value(json_object_get(t, KB_RD_OK)), json_integer_value(json_object_get(t, KB_RD_FAILED)),
		num(t, KB_RD_SECONDS), other_cpu(t) };
}

/* ---- the models ---- */

/* backend table: the stage whose whole-boot timings timing.jsonl describes */
static const char *timing_backend(void)
{
	return kb_backend_hyperfine.name;
}

/* The measuring boots' samples make the model; the whole-boot timings make
 * a model of their own (boot_timing), one case "boot" whose replicate is one
 * timed boot: the two kinds of figure are never tested in one family nor
 * summed into one claim.  A timing.jsonl without any timed boot still makes
 * one, so that the report says why.  NULL after a message. */
static struct kb_model *models(struct reader *rd, const struct kb_model_opts *o, const char *dir)
{
	struct kb_model_build_args a = { rd->manifest, NULL, NULL, &rd->in[0], rd->boots, rd->nboots, o, dir };
	struct kb_model *m = kb_model_from_input(&a), *bt;

	if (!m)
		return NULL;
	kb_model_claim(m, rd->manifest);
	kb_model_predict(m, rd->manifest, rd->pred, rd->npred);
	m->dropped.duplicates = rd->dropped.duplicates;
	m->dropped.names.samples = rd->dropped.names.samples;
	m->dropped.names.boots = rd->dropped.names.boots;
	m->dropped.names.timing = rd->dropped.names.timing;	/* the manifest's: counted in the model */
	memcpy(m->ignored, rd->ignored, sizeof(m->ignored));
	if (!rd->in[1].samples && !rd->ntiming)
		return m;
	a = (struct kb_model_build_args){ rd->manifest, rd->in[1].samples ? rd->in[1].backend : timing_backend(),
					  "boot", &rd->in[1], NULL, 0, o, dir };
	bt = kb_model_from_input(&a);
	if (!bt) {
		kb_model_free(m);
		return NULL;
	}
	kb_model_timing_outcome(bt, rd->timing, rd->ntiming);
	m->boot_timing = bt;
	return m;
}

struct kb_model *kb_model_build(json_t *manifest, json_t *samples, json_t *boots,
				const struct kb_model_opts *o)
{
	struct reader rd;
	struct kb_model *m;
	size_t i;
	json_t *j;

	reader_init(&rd, manifest);
	json_array_foreach(samples, i, j)
		take_sample(&rd, j);
	json_array_foreach(boots, i, j)
		take_boot(&rd, j);
	m = models(&rd, o, NULL);
	reader_release(&rd);
	return m;
}

/* ---- the files ---- */

struct line_ctx {
	struct reader *rd;
	void (*take)(struct reader *rd, json_t *j);
};

static int one_line(void *ctx, char *line, size_t len)
{
	struct line_ctx *l = ctx;
	json_t *j = json_loadb(line, len, 0, NULL);

	l->take(l->rd, j);
	json_decref(j);
	return 0;
}

/* Every line of a JSON-lines file of the run directory into the reader;
 * lines kb_store_each_line refuses are added to *torn.  A missing file has
 * no lines; one that cannot be read (a FIFO, a device) stops the report. */
static int read_lines(const struct kb_store *st, const char *name, struct reader *rd,
		      void (*take)(struct reader *, json_t *), long *torn)
{
	char *path = kb_store_path(st, "%s", name);
	struct line_ctx l = { rd, take };
	long refused = 0;
	int r = kb_store_each_line(path, one_line, &l, &refused);

	free(path);
	*torn += refused;
	return r == -ENOENT ? 0 : r;
}

struct kb_model *kb_model_load(const char *run_dir, const struct kb_model_opts *o)
{
	struct kb_store st;
	struct reader rd;
	struct kb_model *m = NULL;

	if (kb_store_open(&st, run_dir) < 0)
		return NULL;
	if (kb_rundir_format_check(st.manifest, run_dir) < 0) {
		kb_store_release(&st);
		return NULL;
	}
	reader_init(&rd, st.manifest);
	if (read_lines(&st, KB_RD_SAMPLES, &rd, take_sample, &rd.torn.samples) < 0 ||
	    read_lines(&st, KB_RD_BOOTS, &rd, take_boot, &rd.torn.boots) < 0 ||
	    read_lines(&st, KB_RD_TIMING, &rd, take_timing, &rd.torn.timing) < 0)
		goto out;
	m = models(&rd, o, run_dir);
	if (!m)
		goto out;
	m->torn.samples = rd.torn.samples;
	m->torn.boots = rd.torn.boots;
	m->torn.timing = rd.torn.timing;
	if (kb_model_symbols(m, run_dir) < 0) {
		kb_model_free(m);
		m = NULL;
	}
out:
	reader_release(&rd);
	kb_store_release(&st);
	return m;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The miss-o-meter (miss-o-meter.h): per-function instructions and L1i misses
 * per operation of two variants, from a sim run's sim.jsonl. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "miss-o-meter.h"
#include "model.h"
#include "rundir.h"
#include "store.h"
#include "util.h"

/* One function in one (variant, case): its sums over the matched lines. */
struct acc {
	uint32_t fn;			/* its name in m->keys' function part */
	const char *name;
	double insn, miss;
};

/* One (variant, case): iterations and kernel totals over the matched
 * lines, and the functions that ran (key ids). */
struct cell {
	double iters, insn_k, miss_k;
	long long lines;
	uint32_t *keys;
	size_t n, cap;
};

/* samples.jsonl's iterations by (variant, boot, case, rep) */
struct iters {
	struct kb_names keys;
	long long *v;
	size_t cap;
	struct kb_pool *pool;
	long torn;
};

static char *sample_key(json_t *l)
{
	const char *v = json_string_value(json_object_get(l, KB_RD_VARIANT));
	const char *c = json_string_value(json_object_get(l, KB_RD_CASE));
	json_t *b = json_object_get(l, KB_RD_BOOT), *r = json_object_get(l, KB_RD_REP);

	if (!v || !c || !json_is_integer(b) || !json_is_integer(r))
		return NULL;
	return kb_xasprintf("%s\t%lld\t%s\t%lld", v, (long long)json_integer_value(b), c,
			    (long long)json_integer_value(r));
}

static int sample_line(void *ctx, char *line, size_t len)
{
	struct iters *it = ctx;
	json_t *l = json_loadb(line, len, 0, NULL), *n = json_object_get(l, KB_RD_ITERATIONS);
	char *key = json_is_object(l) ? sample_key(l) : NULL;

	if (!key || !json_is_integer(n) || json_integer_value(n) <= 0) {
		it->torn += !json_is_object(l);
	} else {
		uint32_t id = kb_names_add(&it->keys, it->pool, key);

		if (id >= it->cap) {
			size_t old = it->cap;

			it->cap = 2 * (id + 1);
			it->v = kb_xrealloc(it->v, it->cap * sizeof(*it->v));
			memset(it->v + old, 0, (it->cap - old) * sizeof(*it->v));
		}
		it->v[id] = json_integer_value(n);
	}
	free(key);
	json_decref(l);
	return 0;
}

struct sim_read {
	struct kb_miss *m;
	struct iters *it;
};

static struct cell *cell_of(struct kb_miss *m, uint32_t v, uint32_t c)
{
	char *k = kb_xasprintf("%u\t%u", v, c);
	uint32_t id = kb_names_add(&m->cell_keys, &m->pool, k);

	free(k);
	if (id >= m->cap_cells) {
		size_t old = m->cap_cells;

		m->cap_cells = 2 * (id + 1);
		m->cells = kb_xrealloc(m->cells, m->cap_cells * sizeof(*m->cells));
		memset(m->cells + old, 0, (m->cap_cells - old) * sizeof(*m->cells));
	}
	return &m->cells[id];
}

static void add_function(struct kb_miss *m, struct cell *cl, const char *vc, const char *raw,
			 double insn, double miss)
{
	char *name = kb_bloat_name(raw), *k = kb_xasprintf("%s\t%s", vc, name);
	uint32_t id = kb_names_add(&m->keys, &m->pool, k);

	if (id >= m->cap_acc) {
		size_t old = m->cap_acc;

		m->cap_acc = 2 * (id + 1);
		m->acc = kb_xrealloc(m->acc, m->cap_acc * sizeof(*m->acc));
		memset(m->acc + old, 0, (m->cap_acc - old) * sizeof(*m->acc));
	}
	if (!m->acc[id].name) {
		m->acc[id].name = kb_pool_strdup(&m->pool, name);
		if (cl->n == cl->cap) {
			cl->cap = cl->cap ? 2 * cl->cap : 64;
			cl->keys = kb_xrealloc(cl->keys, cl->cap * sizeof(*cl->keys));
		}
		cl->keys[cl->n++] = id;
	}
	m->acc[id].insn += insn;
	m->acc[id].miss += miss;
	free(name);
	free(k);
}

/* A symbol name as System.map has them (or the plugin's "[kernel]"):
 * printable, no space, at most 256 bytes. */
static int symbol_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if ((unsigned char)s[n] <= ' ' || (unsigned char)s[n] >= 0x7f || n == 256)
			return 0;
	return n > 0;
}

static int sim_line(void *ctx, char *line, size_t len)
{
	struct sim_read *x = ctx;
	struct kb_miss *m = x->m;
	json_t *l = json_loadb(line, len, 0, NULL), *funcs = json_object_get(l, KB_RD_FUNCTIONS), *f;
	char *key = json_is_object(l) ? sample_key(l) : NULL, *vc;
	size_t id, i;
	struct cell *cl;
	uint32_t v, c;

	if (!key) {
		m->torn += !json_is_object(l);
		json_decref(l);
		return 0;
	}
	/* names reach the terminal and the report: plain ones only */
	if (!kb_model_name_ok(KB_NAME_VARIANT, json_string_value(json_object_get(l, KB_RD_VARIANT))) ||
	    !kb_model_name_ok(KB_NAME_CASE, json_string_value(json_object_get(l, KB_RD_CASE)))) {
		m->names++;
		goto out;
	}
	id = kb_names_find(&x->it->keys, key);
	if (id >= x->it->keys.n || !json_is_array(funcs)) {
		m->unmatched++;
		goto out;
	}
	v = kb_names_add(&m->variants, &m->pool, json_string_value(json_object_get(l, KB_RD_VARIANT)));
	c = kb_names_add(&m->cases, &m->pool, json_string_value(json_object_get(l, KB_RD_CASE)));
	cl = cell_of(m, v, c);
	cl->iters += (double)x->it->v[id];
	cl->insn_k += (double)json_integer_value(json_object_get(l, "insn_k"));
	cl->miss_k += (double)json_integer_value(json_object_get(l, "l1i_miss_k"));
	cl->lines++;
	vc = kb_xasprintf("%u\t%u", v, c);
	json_array_foreach(funcs, i, f) {
		const char *name = json_string_value(json_array_get(f, 0));
		json_t *ins = json_array_get(f, 1), *mis = json_array_get(f, 2);

		/* the plugin's attribution is whole: "[user]" is user code, left
		 * out here; "[kernel]", kernel code outside System.map's functions */
		if (name && !symbol_ok(name))
			m->names++;
		else if (name && strcmp(name, "[user]") && json_is_integer(ins) && json_is_integer(mis))
			add_function(m, cl, vc, name, (double)json_integer_value(ins),
				     (double)json_integer_value(mis));
	}
	free(vc);
out:
	free(key);
	json_decref(l);
	return 0;
}

int kb_miss_read(struct kb_miss *m, const char *run_dir)
{
	struct iters it = { .pool = &m->pool };
	struct sim_read x = { m, &it };
	char *samples = kb_xasprintf("%s/%s", run_dir, KB_RD_SAMPLES);
	char *sim = kb_xasprintf("%s/%s", run_dir, KB_RD_SIM);
	long bad = 0;
	int r;

	r = kb_store_each_line(samples, sample_line, &it, &bad);
	if (r == -ENOENT)
		r = kb_error("'%s': no samples: not a finished run directory", samples);
	if (r == 0) {
		r = kb_store_each_line(sim, sim_line, &x, &bad);
		m->torn += bad + it.torn;
		if (r == -ENOENT)
			kb_error("'%s': no such file: the run did not use the sim backend, which alone "
				 "attributes instructions and misses to functions", sim);
	}
	kb_names_release(&it.keys);
	free(it.v);
	free(samples);
	free(sim);
	return r;
}

void kb_miss_release(struct kb_miss *m)
{
	for (size_t i = 0; i < m->cap_cells; i++)
		free(m->cells[i].keys);
	free(m->cells);
	free(m->acc);
	kb_names_release(&m->variants);
	kb_names_release(&m->cases);
	kb_names_release(&m->cell_keys);
	kb_names_release(&m->keys);
	kb_pool_release(&m->pool);
	memset(m, 0, sizeof(*m));
}

static const struct cell *find_cell(const struct kb_miss *m, const char *variant, const char *cas)
{
	size_t v = kb_names_find(&m->variants, variant), c = kb_names_find(&m->cases, cas), id;
	char *k;

	if (v >= m->variants.n || c >= m->cases.n)
		return NULL;
	k = kb_xasprintf("%zu\t%zu", v, c);
	id = kb_names_find(&m->cell_keys, k);
	free(k);
	return id < m->cell_keys.n && id < m->cap_cells && m->cells[id].iters > 0 ? &m->cells[id] : NULL;
}

static int cmp_row(const void *a, const void *b)
{
	const struct kb_miss_row *x = a, *y = b;

	if (x->d_ins != y->d_ins)
		return x->d_ins < y->d_ins ? 1 : -1;
	if (x->d_miss != y->d_miss)
		return x->d_miss < y->d_miss ? 1 : -1;
	return strcmp(x->name, y->name);
}

static long long size_in(const struct kb_bloat_named *tab, size_t n, const char *name)
{
	unsigned long long s = tab ? kb_bloat_lookup(tab, n, name) : 0;

	return s ? (long long)s : -1;
}

int kb_miss_case(const struct kb_miss *m, const char *cas, const char *old, const char *new,
		 const struct kb_bloat_named *tab_old, size_t n_old,
		 const struct kb_bloat_named *tab_new, size_t n_new, struct kb_pool *p,
		 struct kb_miss_case *out)
{
	const struct cell *cl[2] = { find_cell(m, old, cas), find_cell(m, new, cas) };
	struct kb_names names = { 0 };
	struct kb_pool tmp = KB_POOL_INIT;

	memset(out, 0, sizeof(*out));
	if (!cl[0] || !cl[1])
		return -1;
	out->cas = kb_pool_strdup(p, cas);
	out->rows = kb_pool_array(p, cl[0]->n + cl[1]->n + 1, sizeof(*out->rows));
	for (int s = 0; s < 2; s++) {
		out->ins_k[s] = cl[s]->insn_k / cl[s]->iters;
		out->miss_k[s] = cl[s]->miss_k / cl[s]->iters;
		out->samples[s] = cl[s]->lines;
		for (size_t i = 0; i < cl[s]->n; i++) {
			const struct acc *a = &m->acc[cl[s]->keys[i]];
			size_t before = names.n;
			uint32_t id = kb_names_add(&names, &tmp, a->name);
			struct kb_miss_row *r = &out->rows[id];

			if (id == before) {
				out->n++;
				r->name = kb_pool_strdup(p, a->name);
				r->size[0] = size_in(tab_old, n_old, a->name);
				r->size[1] = size_in(tab_new, n_new, a->name);
			}
			r->ins[s] = a->insn / cl[s]->iters;
			r->miss[s] = a->miss / cl[s]->iters;
			out->attributed_ins[s] += r->ins[s];
		}
	}
	for (size_t i = 0; i < out->n; i++) {
		out->rows[i].d_ins = out->rows[i].ins[1] - out->rows[i].ins[0];
		out->rows[i].d_miss = out->rows[i].miss[1] - out->rows[i].miss[0];
	}
	qsort(out->rows, out->n, sizeof(*out->rows), cmp_row);
	kb_names_release(&names);
	kb_pool_release(&tmp);
	return 0;
}

static void size_cell(FILE *f, long long s)
{
	if (s < 0)
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %9lld", s);
}

static int shown(const struct kb_miss_row *r, double min)
{
	return fabs(r->d_ins) > min || fabs(r->d_miss) > min;
}

static void print_row(FILE *f, const struct kb_miss_row *r)
{
	fprintf(f, "%-40s %10.1f %10.1f %+10.1f %9.2f %9.2f %+9.2f", r->name, r->ins[0], r->ins[1], r->d_ins,
		r->miss[0], r->miss[1], r->d_miss);
	size_cell(f, r->size[0]);
	size_cell(f, r->size[1]);
	if (r->size[0] >= 0 && r->size[1] >= 0)
		fprintf(f, " %+9lld\n", r->size[1] - r->size[0]);
	else
		fprintf(f, " %9s\n", "-");
}

void kb_miss_print(FILE *f, const struct kb_miss_case *c, const char *old, const char *new,
		   double min, size_t top)
{
	size_t add = 0, rem = 0, grow = 0, shrink = 0, n_up = 0, n_down = 0, shown_down = 0;
	double up = 0, down = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_row *r = &c->rows[i];

		shown_down += shown(r, min) && r->d_ins <= 0;
		add += r->ins[0] == 0 && r->ins[1] > 0;
		rem += r->ins[0] > 0 && r->ins[1] == 0;
		grow += r->d_ins > 0;
		shrink += r->d_ins < 0;
		if (r->d_ins > 0)
			up += r->d_ins;
		else
			down += r->d_ins;
	}
	fprintf(f, "case %s: %s -> %s, per operation (simulated; %lld and %lld samples)\n", c->cas, old, new,
		c->samples[0], c->samples[1]);
	fprintf(f, "kernel instructions %.1f -> %.1f (%+.1f), L1i misses %.2f -> %.2f (%+.2f)\n",
		c->ins_k[0], c->ins_k[1], c->ins_k[1] - c->ins_k[0], c->miss_k[0], c->miss_k[1],
		c->miss_k[1] - c->miss_k[0]);
	if (fabs(c->attributed_ins[0] - c->ins_k[0]) < 0.05 && fabs(c->attributed_ins[1] - c->ins_k[1]) < 0.05)
		fprintf(f, "every kernel instruction attributed ([kernel]: outside System.map's functions)\n");
	else
		fprintf(f, "attributed to functions: %.1f -> %.1f instructions, not all of them\n",
			c->attributed_ins[0], c->attributed_ins[1]);
	fprintf(f, "add/remove: %zu/%zu grow/shrink: %zu/%zu up/down: %.1f/%.1f (%+.1f)\n", add, rem, grow,
		shrink, up, down, up + down);
	fprintf(f, "%-40s %10s %10s %10s %9s %9s %9s %9s %9s %9s\n", "Function", "ins old", "ins new",
		"delta", "miss old", "miss new", "delta", "size old", "size new", "delta");
	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_row *r = &c->rows[i];

		if (!shown(r, min))
			continue;
		/* with top: the first top growers, and the last top shrinkers */
		if (top && r->d_ins > 0 && n_up++ >= top)
			continue;
		if (top && r->d_ins <= 0 && shown_down - n_down++ > top)
			continue;
		print_row(f, r);
	}
}

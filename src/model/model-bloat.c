// SPDX-License-Identifier: GPL-2.0-or-later
/* The symbol-level figures of the model (model.h): per variant against the
 * baseline, bloat-o-meter's category counts, the top growers and shrinkers
 * and its whole output; and, where the sim backend wrote sim.jsonl, the
 * kernel text each case executed beside the size of the functions that ran,
 * and the miss-o-meter's largest per-function changes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bloat.h"
#include "miss-o-meter.h"
#include "model-input.h"
#include "names.h"
#include "model.h"
#include "stats.h"
#include "rundir.h"
#include "store.h"
#include "util.h"

/* Each variant's symbols; ok[v] where its kernel could be read. */
static void read_symbols(const struct kb_model *m, const char *run_dir, struct kb_bloat_syms *syms, int *ok)
{
	for (size_t v = 0; v < m->nv; v++) {
		const struct kb_model_variant *x = &m->variants[v];
		char *path;

		kb_bloat_syms_init(&syms[v]);
		if (!x->has_size || !*x->vmlinux || !kb_model_name_ok(KB_NAME_VARIANT, x->name))
			continue;
		path = x->vmlinux[0] == '/' ? kb_xstrdup(x->vmlinux) : kb_xasprintf("%s/%s", run_dir, x->vmlinux);
		/* a run without its kernels (copied, made by a test) has no symbols to show */
		ok[v] = access(path, R_OK) == 0 && kb_bloat_syms_read(path, &syms[v]) == 0;
		free(path);
	}
}

static void category(struct kb_bloat_category *c, const char *what, unsigned kinds,
		     const struct kb_bloat_syms *base, const struct kb_bloat_syms *x)
{
	struct kb_bloat_diff d;

	kb_bloat_diff(base, x, kinds, &d);
	*c = (struct kb_bloat_category){ what, d.add, d.remove, d.grow, d.shrink, d.up, d.down,
					 d.old_total, d.new_total, kb_bloat_percent(&d) };
	kb_bloat_diff_release(&d);
}

static struct kb_bloat_change change(struct kb_pool *p, const struct kb_bloat_row *r)
{
	return (struct kb_bloat_change){ kb_pool_strdup(p, r->name), r->old_size, r->new_size,
					 r->in_old, r->in_new, r->delta };
}

static void bloat_figures(struct kb_model *m, const char *run_dir, struct kb_bloat_figures *b,
			  const struct kb_bloat_syms *base, const struct kb_bloat_syms *x)
{
	const char *name = m->variants[b->variant].name;
	struct kb_bloat_diff d;
	char *text = NULL, *dir;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct stat st;

	if (!f)
		abort();
	category(&b->cat[0], "functions", KB_BLOAT_FUNC, base, x);
	category(&b->cat[1], "data", KB_BLOAT_DATA, base, x);
	category(&b->cat[2], "read-only data", KB_BLOAT_RODATA, base, x);
	/* the top growers and shrinkers: head and tail of the full list */
	kb_bloat_diff(base, x, KB_BLOAT_ALL, &d);
	b->growers = kb_pool_array(&m->pool, KB_MODEL_BLOAT_TOP, sizeof(*b->growers));
	b->shrinkers = kb_pool_array(&m->pool, KB_MODEL_BLOAT_TOP, sizeof(*b->shrinkers));
	for (size_t i = 0; i < d.n && b->n_growers < KB_MODEL_BLOAT_TOP && d.rows[i].delta > 0; i++)
		b->growers[b->n_growers++] = change(&m->pool, &d.rows[i]);
	for (size_t i = d.n; i-- > 0 && b->n_shrinkers < KB_MODEL_BLOAT_TOP && d.rows[i].delta < 0;)
		b->shrinkers[b->n_shrinkers++] = change(&m->pool, &d.rows[i]);
	kb_bloat_diff_release(&d);
	kb_bloat_print_mode(f, 0, base, x);
	fclose(f);
	b->full_text = kb_pool_adopt(&m->pool, text);
	dir = kb_xasprintf("%s/variants/%s", run_dir, name);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		b->full_path = kb_pool_printf(&m->pool, "variants/%s/bloat-vs-%s.txt", name, m->baseline_name);
	free(dir);
}

/* ---- executed text ---- */

/* Per case and variant: each sample's executed bytes and the size of the
 * functions that ran in it. */
struct exec_cell {
	double *foot, *fsize;
	size_t n, cap;
};

/* sim.jsonl as it is read: the cells of each case (first-seen order) and
 * variant, and the symbols that size the functions. */
struct exec_read {
	struct kb_model *m;
	struct kb_names variants;	/* the model's, to find a line's */
	size_t *first;			/* a name's id to its first variant (kb_model_variant's) */
	struct kb_names cases;
	struct exec_cell *cells;	/* [cap_cases * nv] */
	size_t cap_cases;
	struct kb_bloat_named **tab;
	size_t *ntab;
	struct kb_pool tmp;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bytes of the functions a sim.jsonl line names, each name once, by
 * bloat-o-meter's names (same-named statics summed). */
static double functions_size(json_t *funcs, const struct kb_bloat_named *tab, size_t ntab)
{
	size_t n = json_array_size(funcs), k = 0;
	char **names = kb_xcalloc(n + 1, sizeof(*names));
	unsigned long long sum = 0;

	for (size_t i = 0; i < n; i++) {
		const char *raw = json_string_value(json_array_get(json_array_get(funcs, i), 0));

		if (raw)
			names[k++] = kb_bloat_name(raw);
	}
	qsort(names, k, sizeof(*names), cmp_str);
	for (size_t i = 0; i < k; i++)
		if (!i || strcmp(names[i - 1], names[i]))
			sum += kb_bloat_lookup(tab, ntab, names[i]);
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return (double)sum;
}

static double change_of(double x, double base)
{
	return base > 0 && isfinite(x) ? (x - base) / base : NAN;
}

/* One line of sim.jsonl: its executed bytes, and the size of its
 * functions where the variant's symbols were read. */
static int exec_line(void *ctx, char *line, size_t len)
{
	struct exec_read *x = ctx;
	struct kb_model *m = x->m;
	json_t *l = json_loadb(line, len, 0, NULL), *foot = json_object_get(l, "kfoot_bytes");
	const char *c = json_string_value(json_object_get(l, KB_RD_CASE));
	size_t id = kb_names_find(&x->variants, json_string_value(json_object_get(l, KB_RD_VARIANT)) ?: "");
	size_t v = id < x->variants.n ? x->first[id] : m->nv;
	struct exec_cell *e;
	uint32_t ic;

	if (!json_is_object(l)) {
		m->torn.sim++;
	} else if (c && *c && !kb_model_name_ok(KB_NAME_CASE, c)) {
		m->dropped.names.sim++;
	} else if (v < m->nv && json_is_integer(foot) && c && *c) {
		ic = kb_names_add(&x->cases, &x->tmp, c);
		if (ic == x->cap_cases) {
			size_t old = x->cap_cases;

			x->cap_cases = old ? 2 * old : 8;
			x->cells = kb_xrealloc(x->cells, x->cap_cases * m->nv * sizeof(*x->cells));
			memset(x->cells + old * m->nv, 0, (x->cap_cases - old) * m->nv * sizeof(*x->cells));
		}
		e = &x->cells[ic * m->nv + v];
		if (e->n == e->cap) {
			e->cap = e->cap ? 2 * e->cap : 4;
			e->foot = kb_xrealloc(e->foot, e->cap * sizeof(*e->foot));
			e->fsize = kb_xrealloc(e->fsize, e->cap * sizeof(*e->fsize));
		}
		e->foot[e->n] = (double)json_integer_value(foot);
		e->fsize[e->n] = x->tab[v] ? functions_size(json_object_get(l, KB_RD_FUNCTIONS), x->tab[v], x->ntab[v]) : NAN;
		e->n++;
	}
	json_decref(l);
	return 0;
}

/* Medians of each case and variant, against the baseline's. */
static void exec_rows(struct kb_model *m, const struct exec_read *x)
{
	size_t nc = x->cases.n;

	m->exec = kb_pool_array(&m->pool, nc * m->nv, sizeof(*m->exec));
	for (size_t ic = 0; ic < nc; ic++) {
		const struct exec_cell *b = m->baseline < m->nv ? &x->cells[ic * m->nv + m->baseline] : NULL;
		double bfoot = b && b->n ? kb_stats_median(b->foot, b->n) : NAN;
		double bfs = b && b->n && x->tab[m->baseline] ? kb_stats_median(b->fsize, b->n) : NAN;
		const char *cas = kb_pool_strdup(&m->pool, x->cases.v[ic]);

		for (size_t v = 0; v < m->nv; v++) {
			const struct exec_cell *e = &x->cells[ic * m->nv + v];
			struct kb_exec_row *r = &m->exec[m->nexec];
			const struct kb_model_variant *var = &m->variants[v];

			if (!e->n)
				continue;
			r->cas = cas;
			r->variant = v;
			r->samples = e->n;
			r->executed = kb_stats_median(e->foot, e->n);
			r->executed_change = change_of(r->executed, bfoot);
			r->executed_share = var->has_size && var->text ? r->executed / (double)var->text : NAN;
			r->functions = x->tab[v] ? kb_stats_median(e->fsize, e->n) : NAN;
			r->functions_change = change_of(r->functions, bfs);
			m->nexec++;
		}
	}
}

/* sim.jsonl, line by line.  0, or -errno after a message. */
static int exec_figures(struct kb_model *m, const char *run_dir, const struct kb_bloat_syms *syms, const int *ok)
{
	struct exec_read x = { .m = m };
	char *path = kb_xasprintf("%s/%s", run_dir, KB_RD_SIM);
	long refused = 0;
	int r;

	x.tab = kb_xcalloc(m->nv + 1, sizeof(*x.tab));
	x.ntab = kb_xcalloc(m->nv + 1, sizeof(*x.ntab));
	x.first = kb_xcalloc(m->nv + 1, sizeof(*x.first));
	for (size_t v = 0; v < m->nv; v++) {
		size_t before = x.variants.n;
		unsigned long long total;

		if (kb_names_add(&x.variants, &x.tmp, m->variants[v].name) == before)
			x.first[before] = v;
		if (ok[v])
			x.tab[v] = kb_bloat_merged(&syms[v], KB_BLOAT_FUNC, &x.ntab[v], &total);
	}
	r = kb_store_each_line(path, exec_line, &x, &refused);
	m->torn.sim += refused;
	if (r == 0)
		exec_rows(m, &x);
	for (size_t k = 0; k < x.cap_cases * m->nv; k++) {
		free(x.cells[k].foot);
		free(x.cells[k].fsize);
	}
	free(x.cells);
	for (size_t v = 0; v < m->nv; v++)
		free(x.tab[v]);
	free(x.tab);
	free(x.ntab);
	free(x.first);
	kb_names_release(&x.variants);
	kb_names_release(&x.cases);
	kb_pool_release(&x.tmp);
	free(path);
	return r == -ENOENT ? 0 : r;
}


static int by_miss(const void *a, const void *b)
{
	const struct kb_miss_row *x = *(const struct kb_miss_row *const *)a;
	const struct kb_miss_row *y = *(const struct kb_miss_row *const *)b;
	double dx = fabs(x->d_miss), dy = fabs(y->d_miss);

	return dx != dy ? (dx < dy) - (dx > dy) : strcmp(x->name, y->name);
}

static int by_cycles(const void *a, const void *b)
{
	const struct kb_miss_row *x = *(const struct kb_miss_row *const *)a;
	const struct kb_miss_row *y = *(const struct kb_miss_row *const *)b;
	double dx = isnan(x->d_cyc) ? -1 : fabs(x->d_cyc), dy = isnan(y->d_cyc) ? -1 : fabs(y->d_cyc);

	return dx != dy ? (dx < dy) - (dx > dy) : strcmp(x->name, y->name);
}

/* The rows of one case kept for the model, in the pool: the largest
 * changes of instructions each way, of L1i misses, and of modeled cycles
 * (so that the first screen can rank by the verdict's own metric). */
static void miss_pick(struct kb_model *m, const struct kb_miss_case *c, struct kb_miss_model *out)
{
	const size_t cap = KB_MISS_KEPT;
	const struct kb_miss_row **by = kb_xcalloc(c->n + 1, sizeof(*by));
	struct kb_miss_row *rows = kb_pool_array(&m->pool, cap, sizeof(*rows));
	unsigned char *taken = kb_xcalloc(c->n + 1, 1);
	size_t n = 0, up = 0, down = 0;

	for (size_t i = 0; i < c->n; i++) {
		out->changed += c->rows[i].d_ins != 0 || c->rows[i].d_miss != 0;
		by[i] = &c->rows[i];
	}
	for (size_t i = 0; i < c->n && up < KB_MISS_TOP_INS && c->rows[i].d_ins > 0; i++, up++)
		taken[i] = 1;
	for (size_t i = c->n; i-- > 0 && down < KB_MISS_TOP_INS && c->rows[i].d_ins < 0; down++)
		taken[i] = 1;
	qsort(by, c->n, sizeof(*by), by_miss);
	for (size_t i = 0, k = 0; i < c->n && k < KB_MISS_TOP_MISS && by[i]->d_miss != 0; i++)
		if (!taken[by[i] - c->rows]) {
			taken[by[i] - c->rows] = 1;
			k++;
		}
	qsort(by, c->n, sizeof(*by), by_cycles);
	for (size_t i = 0, k = 0; i < c->n && k < KB_MISS_TOP_CYCLES && by[i]->d_cyc != 0 && !isnan(by[i]->d_cyc);
	     i++)
		if (!taken[by[i] - c->rows]) {
			taken[by[i] - c->rows] = 1;
			k++;
		}
	for (size_t i = 0; i < c->n; i++)	/* in the case's order: growers first */
		if (taken[i]) {
			rows[n] = c->rows[i];
			rows[n++].name = kb_pool_strdup(&m->pool, c->rows[i].name);
		}
	out->rows = rows;
	out->n = n;
	free(taken);
	free(by);
}

/* The miss-o-meter of every variant off the baseline, case by case in the
 * model's order. */
static void miss_figures(struct kb_model *m, const char *run_dir, const struct kb_bloat_syms *syms, const int *ok)
{
	struct kb_miss x = { 0 };
	char *path = kb_xasprintf("%s/%s", run_dir, KB_RD_SIM);
	struct kb_bloat_named *tab[2] = { NULL, NULL };
	size_t ntab[2] = { 0, 0 };
	unsigned long long total;

	if (m->baseline >= m->nv || m->nv < 2 || access(path, F_OK) != 0)
		goto out;
	/* a run directory it cannot read is said, and the report goes on */
	if (kb_miss_read(&x, run_dir) < 0)
		goto out;
	if (ok[m->baseline])
		tab[0] = kb_bloat_merged(&syms[m->baseline], KB_BLOAT_FUNC, &ntab[0], &total);
	m->miss = kb_pool_array(&m->pool, (m->nv - 1) * m->nc + 1, sizeof(*m->miss));
	m->cyc = kb_pool_array(&m->pool, m->nv, sizeof(*m->cyc));
	if (x.cycles_model)
		m->cycles_model = kb_pool_strdup(&m->pool, x.cycles_model);
	if (x.cycles_why)
		m->cycles_why = kb_pool_strdup(&m->pool, x.cycles_why);
	for (size_t v = 0; v < m->nv; v++) {
		struct kb_names moved = { 0 };
		struct kb_pool mpool = KB_POOL_INIT;
		int ordered;

		if (v == m->baseline)
			continue;
		ordered = m->variants[v].order && kb_miss_order_names(run_dir, m->variants[v].name, &moved, &mpool);
		tab[1] = ok[v] ? kb_bloat_merged(&syms[v], KB_BLOAT_FUNC, &ntab[1], &total) : NULL;
		for (size_t c = 0; c < m->nc; c++) {
			struct kb_pool tmp = KB_POOL_INIT;
			struct kb_miss_case mc;
			struct kb_miss_model *o = &m->miss[m->nmiss];

			if (kb_miss_case(&x, m->cases[c], m->variants[m->baseline].name, m->variants[v].name,
					 tab[0], ntab[0], tab[1], ntab[1], &tmp, &mc) == 0) {
				*o = (struct kb_miss_model){ m->cases[c], v, { mc.ins_k[0], mc.ins_k[1] },
							     { mc.miss_k[0], mc.miss_k[1] },
							     { mc.cyc_k[0], mc.cyc_k[1] }, m->cycles_model,
							     0, NULL, 0, -1, 0, 0, 0 };
				if (ordered) {
					o->moved_n = (long)kb_miss_mark_moved(&mc, &moved);
					for (size_t k = 0; k < mc.n; k++) {
						struct kb_miss_row *r = &mc.rows[k];

						if (!r->moved)
							continue;
						o->moved_d_ins += r->d_ins;
						o->moved_d_miss += r->d_miss;
						o->moved_d_cyc += isnan(r->d_cyc) ? 0 : r->d_cyc;
					}
					if (!m->cycles_model)
						o->moved_d_cyc = NAN;
				}
				miss_pick(m, &mc, o);
				m->nmiss++;
			}
			kb_pool_release(&tmp);
		}
		free(tab[1]);
		kb_names_release(&moved);
		kb_pool_release(&mpool);
		/* over every case: cycles that grow where instructions do not */
		if (m->cycles_model) {
			struct kb_cyc_model *cm = &m->cyc[m->ncyc];
			struct kb_miss_cyc *rows;

			if (kb_miss_cycles_top(&x, m->variants[m->baseline].name, m->variants[v].name,
					       KB_MISS_TOP_CYC, &m->pool, &rows, &cm->n) == 0 && cm->n) {
				cm->variant = v;
				cm->rows = rows;
				m->ncyc++;
			}
		}
	}
	free(tab[0]);
out:
	kb_miss_release(&x);
	free(path);
}

int kb_model_symbols(struct kb_model *m, const char *run_dir)
{
	struct kb_bloat_syms *syms = kb_xcalloc(m->nv + 1, sizeof(*syms));
	int *ok = kb_xcalloc(m->nv + 1, sizeof(*ok)), r;

	read_symbols(m, run_dir, syms, ok);
	if (m->baseline < m->nv && ok[m->baseline]) {
		m->bloat = kb_pool_array(&m->pool, m->nv, sizeof(*m->bloat));
		for (size_t v = 0; v < m->nv; v++) {
			if (v == m->baseline || !ok[v])
				continue;
			m->bloat[m->nbloat].variant = v;
			bloat_figures(m, run_dir, &m->bloat[m->nbloat++], &syms[m->baseline], &syms[v]);
		}
	}
	r = exec_figures(m, run_dir, syms, ok);
	miss_figures(m, run_dir, syms, ok);
	for (size_t v = 0; v < m->nv; v++)
		kb_bloat_syms_release(&syms[v]);
	free(syms);
	free(ok);
	return r;
}

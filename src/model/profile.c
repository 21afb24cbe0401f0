// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel's execution profile from a sim run, and function orders made
 * from it (profile.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "conf.h"
#include "miss-o-meter.h"
#include "names.h"
#include "order.h"
#include "pool.h"
#include "profile.h"
#include "store.h"
#include "util.h"

/* ---- from a run ---- */

struct build {
	struct kb_profile *p;
	struct kb_names idx;		/* function name -> index in p->f */
	struct kb_pool pool;
	struct kb_names cases;		/* wanted; n == 0: every case */
	uint8_t *ran;			/* per byte of [lo, hi): ran */
	uint64_t lo, hi;
	struct kb_names ekeys;		/* "from\tto" -> index in p->e */
	size_t cap_e;
};

static size_t func_index(struct build *b, const char *name)
{
	size_t i = kb_names_find(&b->idx, name);

	return i < b->idx.n ? i : SIZE_MAX;
}

static int wanted(const struct build *b, const char *cas)
{
	return !b->cases.n || kb_names_find(&b->cases, cas) < b->cases.n;
}

static void on_unit(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n)
{
	struct build *b = ctx;
	size_t i, len = strlen(u->hex) / 2;
	struct kb_prof_func *f;

	if (!n || !u->insn_k || !wanted(b, cas) || !u->function ||
	    (i = func_index(b, u->function)) == SIZE_MAX)
		return;
	f = &b->p->f[i];
	f->insn += n * u->insn_k;
	/* its bytes that ran (counted per symbol's range at the end) */
	for (uint64_t a = u->va; a < u->va + len; a++)
		if (a >= b->lo && a < b->hi)
			b->ran[a - b->lo] = 1;
}

static void on_call(void *ctx, const char *cas, const char *caller, const char *callee, uint64_t n)
{
	struct build *b = ctx;
	size_t from = func_index(b, caller), to = func_index(b, callee);
	char key[64];
	uint32_t k;

	if (!wanted(b, cas) || to == SIZE_MAX)
		return;
	b->p->f[to].calls += n;
	if (from == SIZE_MAX || from == to)	/* recursion orders nothing */
		return;
	snprintf(key, sizeof(key), "%zu\t%zu", from, to);
	k = kb_names_add(&b->ekeys, &b->pool, key);
	if (k == b->p->ne) {
		if (b->p->ne == b->cap_e)
			b->p->e = kb_xrealloc(b->p->e, (b->cap_e = b->cap_e ? 2 * b->cap_e : 1024) *
							 sizeof(*b->p->e));
		b->p->e[b->p->ne++] = (struct kb_prof_edge){ from, to, 0 };
	}
	b->p->e[k].n += n;
}

int kb_profile_from_run(const char *run_dir, const char *variant, const char *cases,
			struct kb_profile *p)
{
	struct kb_miss m = { .no_cycles = 1 };
	struct build b = { .p = p };
	struct kb_symmap *map = NULL;
	char *vdir = NULL, *mapf = NULL, *list = NULL;
	size_t boots = 0, no_calls = 0, n;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	if (kb_miss_read(&m, run_dir) < 0)
		goto out;
	if (kb_names_find(&m.variants, variant) >= m.variants.n) {
		const char *near = kb_closest(variant, m.variants.v, m.variants.n);

		kb_error("'%s': no variant '%s' in its sim samples%s%s%s", run_dir, variant,
			 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		goto out;
	}
	if (cases) {
		list = kb_xstrdup(cases);
		for (char *c = strtok(list, ","); c; c = strtok(NULL, ",")) {
			if (kb_names_find(&m.cases, c) >= m.cases.n) {
				const char *near = kb_closest(c, m.cases.v, m.cases.n);

				kb_error("--cases: '%s' is no case of '%s'%s%s%s", c, run_dir,
					 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
				goto out;
			}
			kb_names_add(&b.cases, &b.pool, c);
		}
	}
	/* the functions of the profiled build: layout 0's System.map */
	vdir = kb_store_variant_dir(variant, 0);
	mapf = kb_xasprintf("%s/%s/System.map", run_dir, vdir);
	if (!(map = kb_symmap_load(mapf)))
		goto out;
	n = kb_symmap_count(map);
	if (!n) {
		kb_error("'%s': no text symbols", mapf);
		goto out;
	}
	/* a function is a name: static functions of one name (System.map
	 * has some) are one, their sizes summed, as an order names them */
	p->f = kb_xcalloc(n, sizeof(*p->f));
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, size;
		const char *name = kb_symmap_at(map, i, &addr, &size);
		uint32_t k = kb_names_add(&b.idx, &b.pool, name);

		if (k == p->nf)
			p->f[p->nf++] = (struct kb_prof_func){ kb_xstrdup(name), addr, 0, 0, 0, 0 };
		p->f[k].size += size;
		if (i == 0)
			b.lo = addr;
		b.hi = addr + size;
	}
	if (b.hi - b.lo > (256u << 20)) {
		kb_error("'%s': its text spans %" PRIu64 " MiB: not a kernel's", mapf, (b.hi - b.lo) >> 20);
		goto out;
	}
	b.ran = kb_xcalloc(b.hi - b.lo, 1);
	if (kb_miss_each_block(&m, variant, 0, on_unit, &b) < 0 ||
	    kb_miss_each_call(&m, variant, 0, on_call, &b, &boots, &no_calls) < 0)
		goto out;
	if (!boots) {
		kb_error("'%s': no calls file of variant '%s' (boots/%s-N.calls): the run is from a kbench "
			 "that did not record calls; run it again to profile it", run_dir, variant, variant);
		goto out;
	}
	if (no_calls)
		kb_warn("'%s': %zu boot%s of variant '%s' without a calls file: left out", run_dir,
			no_calls, no_calls == 1 ? "" : "s", variant);
	for (size_t i = 0; i < n; i++) {
		uint64_t addr, size;
		size_t k = kb_names_find(&b.idx, kb_symmap_at(map, i, &addr, &size));

		for (uint64_t a = addr; a < addr + size && a < b.hi; a++)
			p->f[k].hot += b.ran[a - b.lo];
	}
	p->variant = kb_xstrdup(variant);
	p->run = kb_xstrdup(run_dir);
	p->cases = kb_xstrdup(cases ? cases : "all");
	p->boots = boots;
	ret = 0;
out:
	if (ret < 0)
		kb_profile_release(p);
	kb_symmap_free(map);
	kb_names_release(&b.idx);
	kb_names_release(&b.cases);
	kb_names_release(&b.ekeys);
	kb_pool_release(&b.pool);
	kb_miss_release(&m);
	free(b.ran);
	free(vdir);
	free(mapf);
	free(list);
	return ret;
}

/* ---- the file ---- */

/* heaviest first, then by caller and callee: the file's order, and the
 * order Pettis-Hansen joins in */
static int edge_by_count(const void *a, const void *b)
{
	const struct kb_prof_edge *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* by caller, then callee */
static int edge_by_pair(const void *a, const void *b)
{
	const struct kb_prof_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

void kb_profile_write(FILE *f, const struct kb_profile *p)
{
	struct kb_prof_edge *e = kb_xcalloc(p->ne + 1, sizeof(*e));

	fprintf(f, "kbprofile 1\nvariant %s\nrun %s\ncases %s\nboots %zu\n", p->variant, p->run,
		p->cases, p->boots);
	for (size_t i = 0; i < p->nf; i++)
		fprintf(f, "f 0x%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
			p->f[i].addr, p->f[i].size, p->f[i].insn, p->f[i].calls, p->f[i].hot,
			p->f[i].name);
	memcpy(e, p->e, p->ne * sizeof(*e));
	qsort(e, p->ne, sizeof(*e), edge_by_count);
	for (size_t i = 0; i < p->ne; i++)
		fprintf(f, "e %" PRIu64 " %s %s\n", e[i].n, p->f[e[i].from].name, p->f[e[i].to].name);
	free(e);
}

static int bad_line(const char *path, size_t lineno, const char *what)
{
	return kb_error("%s:%zu: %s", path, lineno, what);
}

int kb_profile_read(const char *path, struct kb_profile *p)
{
	FILE *f = fopen(path, "r");
	struct kb_names idx = { 0 };
	struct kb_pool pool = { 0 };
	char *line = NULL, name[256], other[256];
	size_t cap = 0, lineno = 0, cap_f = 0, cap_e = 0;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	if (!f)
		return kb_error_errno(errno, "cannot open the profile '%s'", path);
	while (getline(&line, &cap, f) > 0) {
		unsigned long long a, s, i, c, h, n;
		char *v;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		v = strchr(line, ' ');
		if (lineno == 1) {
			if (strcmp(line, "kbprofile 1")) {
				kb_error("%s:1: not a profile of kbench profile (format 1)", path);
				goto out;
			}
		} else if (!*line || *line == '#') {
			continue;
		} else if (v && !strncmp(line, "variant ", 8) && !p->variant) {
			p->variant = kb_xstrdup(v + 1);
		} else if (v && !strncmp(line, "run ", 4) && !p->run) {
			p->run = kb_xstrdup(v + 1);
		} else if (v && !strncmp(line, "cases ", 6) && !p->cases) {
			p->cases = kb_xstrdup(v + 1);
		} else if (sscanf(line, "boots %llu", &n) == 1) {
			p->boots = (size_t)n;
		} else if (sscanf(line, "f %llx %llu %llu %llu %llu %255s", &a, &s, &i, &c, &h, name) == 6) {
			if (kb_names_find(&idx, name) < idx.n) {
				bad_line(path, lineno, "a function named twice");
				goto out;
			}
			kb_names_add(&idx, &pool, name);
			if (p->nf == cap_f)
				p->f = kb_xrealloc(p->f, (cap_f = cap_f ? 2 * cap_f : 4096) * sizeof(*p->f));
			p->f[p->nf++] = (struct kb_prof_func){ kb_xstrdup(name), a, s, i, c, h };
		} else if (sscanf(line, "e %llu %255s %255s", &n, name, other) == 3) {
			size_t x = kb_names_find(&idx, name), y = kb_names_find(&idx, other);

			if (x >= idx.n || y >= idx.n) {
				char *msg = kb_xasprintf("an edge of a function no f line names ('%s')",
							 x >= idx.n ? name : other);

				bad_line(path, lineno, msg);
				free(msg);
				goto out;
			}
			if (p->ne == cap_e)
				p->e = kb_xrealloc(p->e, (cap_e = cap_e ? 2 * cap_e : 1024) * sizeof(*p->e));
			p->e[p->ne++] = (struct kb_prof_edge){ x, y, n };
		} else {
			char *msg = kb_xasprintf("not understood: '%.60s'", line);

			bad_line(path, lineno, msg);
			free(msg);
			goto out;
		}
	}
	if (!lineno) {
		kb_error("'%s': empty: not a profile", path);
		goto out;
	}
	if (!p->variant)
		p->variant = kb_xstrdup("?");
	if (!p->run)
		p->run = kb_xstrdup("?");
	if (!p->cases)
		p->cases = kb_xstrdup("all");
	ret = 0;
out:
	if (ret < 0)
		kb_profile_release(p);
	fclose(f);
	free(line);
	kb_names_release(&idx);
	kb_pool_release(&pool);
	return ret;
}

void kb_profile_release(struct kb_profile *p)
{
	for (size_t i = 0; i < p->nf; i++)
		free(p->f[i].name);
	free(p->f);
	free(p->e);
	free(p->variant);
	free(p->run);
	free(p->cases);
	memset(p, 0, sizeof(*p));
}

/* ---- orders ---- */

static const char *const method_names[] = { "c3", "pettis-hansen", "hot-cold" };

int kb_order_method_parse(const char *s, enum kb_order_method *m)
{
	for (size_t i = 0; i < KB_ARRAY_SIZE(method_names); i++)
		if (!strcmp(s, method_names[i])) {
			*m = (enum kb_order_method)i;
			return 0;
		}
	return -1;
}

const char *kb_order_method_name(enum kb_order_method m)
{
	return method_names[m];
}

/* Clusters (C3) and chains (Pettis-Hansen) as linked lists of functions. */
struct clus {
	size_t head, tail;	/* functions */
	uint64_t bytes, insn;
	int live;
};

struct orderer {
	const struct kb_profile *p;
	struct clus *c;		/* by the index of the function it started with */
	size_t *of;		/* function -> its cluster */
	size_t *next;		/* function -> the next in its cluster, SIZE_MAX: last */
};

static void orderer_init(struct orderer *o, const struct kb_profile *p)
{
	o->p = p;
	o->c = kb_xcalloc(p->nf + 1, sizeof(*o->c));
	o->of = kb_xcalloc(p->nf + 1, sizeof(*o->of));
	o->next = kb_xcalloc(p->nf + 1, sizeof(*o->next));
	for (size_t i = 0; i < p->nf; i++) {
		o->c[i] = (struct clus){ i, i, p->f[i].size, p->f[i].insn, p->f[i].insn > 0 };
		o->of[i] = i;
		o->next[i] = SIZE_MAX;
	}
}

static void orderer_release(struct orderer *o)
{
	free(o->c);
	free(o->of);
	free(o->next);
}

/* cluster b appended to cluster a */
static void append(struct orderer *o, size_t a, size_t b)
{
	o->next[o->c[a].tail] = o->c[b].head;
	o->c[a].tail = o->c[b].tail;
	o->c[a].bytes += o->c[b].bytes;
	o->c[a].insn += o->c[b].insn;
	for (size_t f = o->c[b].head; f != SIZE_MAX; f = o->next[f])
		o->of[f] = a;
	o->c[b].live = 0;
}

/* the cluster reversed in place */
static void reverse(struct orderer *o, size_t a)
{
	size_t prev = SIZE_MAX, f = o->c[a].head;

	o->c[a].tail = f;
	while (f != SIZE_MAX) {
		size_t n = o->next[f];

		o->next[f] = prev;
		prev = f;
		f = n;
	}
	o->c[a].head = prev;
}

/* the byte offset of function f in its cluster */
static uint64_t offset_in(const struct orderer *o, size_t f)
{
	uint64_t off = 0;

	for (size_t g = o->c[o->of[f]].head; g != f; g = o->next[g])
		off += o->p->f[g].size;
	return off;
}

static const struct orderer *sort_o;

static int by_insn(const void *a, const void *b)
{
	const struct kb_prof_func *x = &sort_o->p->f[*(const size_t *)a], *y = &sort_o->p->f[*(const size_t *)b];

	if (x->insn != y->insn)
		return x->insn < y->insn ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* clusters by density (instructions per byte), densest first; then by
 * their first function's address */
static int by_density(const void *a, const void *b)
{
	const struct clus *x = &sort_o->c[*(const size_t *)a], *y = &sort_o->c[*(const size_t *)b];
	long double dx = (long double)x->insn / (long double)(x->bytes ? x->bytes : 1);
	long double dy = (long double)y->insn / (long double)(y->bytes ? y->bytes : 1);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return sort_o->p->f[x->head].addr < sort_o->p->f[y->head].addr ? -1 : 1;
}

static int by_weight(const void *a, const void *b)
{
	const struct clus *x = &sort_o->c[*(const size_t *)a], *y = &sort_o->c[*(const size_t *)b];

	if (x->insn != y->insn)
		return x->insn < y->insn ? 1 : -1;
	return sort_o->p->f[x->head].addr < sort_o->p->f[y->head].addr ? -1 : 1;
}

/*
 * C3 (call-chain clustering): the hot functions, hottest first, each
 * appended with its cluster to the cluster of its heaviest caller (the
 * caller whose edge into it is taken most), unless both are one cluster
 * already or together they would pass KB_C3_MERGE_BYTES; then the
 * clusters, densest first.  So a callee follows its caller, and a chain
 * A -> B -> C lies in that order.
 */
static void c3(struct orderer *o, size_t *hot, size_t nh)
{
	const struct kb_profile *p = o->p;
	size_t *best = kb_xcalloc(p->nf + 1, sizeof(*best));
	uint64_t *bestn = kb_xcalloc(p->nf + 1, sizeof(*bestn));

	for (size_t i = 0; i < p->nf; i++)
		best[i] = SIZE_MAX;
	for (size_t k = 0; k < p->ne; k++) {
		const struct kb_prof_edge *e = &p->e[k];

		if (!p->f[e->from].insn || !p->f[e->to].insn || e->from == e->to)
			continue;
		if (e->n > bestn[e->to] || (e->n == bestn[e->to] && best[e->to] != SIZE_MAX &&
					    p->f[e->from].addr < p->f[best[e->to]].addr)) {
			bestn[e->to] = e->n;
			best[e->to] = e->from;
		}
	}
	sort_o = o;
	qsort(hot, nh, sizeof(*hot), by_insn);
	for (size_t k = 0; k < nh; k++) {
		size_t f = hot[k], cf = o->of[f], cp;

		if (best[f] == SIZE_MAX)
			continue;
		cp = o->of[best[f]];
		if (cp == cf || o->c[cp].bytes + o->c[cf].bytes > KB_C3_MERGE_BYTES)
			continue;
		append(o, cp, cf);
	}
	free(best);
	free(bestn);
}

/*
 * Pettis-Hansen: the call graph undirected (an edge's weight, calls both
 * ways), heaviest edge first; each edge between two chains joins them, in
 * the one of the four orientations (each chain as it is or reversed) that
 * puts the edge's two functions closest; then the chains, heaviest first.
 */
static void pettis_hansen(struct orderer *o)
{
	const struct kb_profile *p = o->p;
	struct kb_prof_edge *u = kb_xcalloc(p->ne + 1, sizeof(*u));
	size_t nu = 0, j = 0;

	for (size_t k = 0; k < p->ne; k++) {	/* undirected: (min, max) */
		const struct kb_prof_edge *e = &p->e[k];
		size_t a = e->from < e->to ? e->from : e->to, b = e->from < e->to ? e->to : e->from;

		if (a != b && p->f[a].insn && p->f[b].insn)
			u[nu++] = (struct kb_prof_edge){ a, b, e->n };
	}
	qsort(u, nu, sizeof(*u), edge_by_pair);	/* a -> b and b -> a side by side: summed */
	for (size_t k = 0; k < nu; k++)
		if (j && u[j - 1].from == u[k].from && u[j - 1].to == u[k].to)
			u[j - 1].n += u[k].n;
		else
			u[j++] = u[k];
	nu = j;
	qsort(u, nu, sizeof(*u), edge_by_count);
	for (size_t k = 0; k < nu; k++) {
		size_t a = o->of[u[k].from], b = o->of[u[k].to];
		uint64_t best = UINT64_MAX;
		int how = 0;

		if (a == b)
			continue;
		for (int t = 0; t < 4; t++) {	/* bit 0: reverse a, bit 1: reverse b */
			uint64_t oa = offset_in(o, u[k].from), ob = offset_in(o, u[k].to), d;

			if (t & 1)
				oa = o->c[a].bytes - oa - p->f[u[k].from].size;
			if (t & 2)
				ob = o->c[b].bytes - ob - p->f[u[k].to].size;
			d = (o->c[a].bytes - oa) + ob;	/* from u's start to v's start */
			if (d < best) {
				best = d;
				how = t;
			}
		}
		if (how & 1)
			reverse(o, a);
		if (how & 2)
			reverse(o, b);
		append(o, a, b);
	}
	free(u);
}

size_t kb_order(const struct kb_profile *p, enum kb_order_method m, size_t *out)
{
	struct orderer o;
	size_t *hot = kb_xcalloc(p->nf + 1, sizeof(*hot)), nh = 0, *cl, nc = 0, n = 0;

	for (size_t i = 0; i < p->nf; i++)
		if (p->f[i].insn)
			hot[nh++] = i;
	if (m == KB_ORDER_HOT_COLD) {	/* System.map's order is the profile's */
		memcpy(out, hot, nh * sizeof(*hot));
		free(hot);
		return nh;
	}
	orderer_init(&o, p);
	if (m == KB_ORDER_C3)
		c3(&o, hot, nh);
	else
		pettis_hansen(&o);
	cl = kb_xcalloc(p->nf + 1, sizeof(*cl));
	for (size_t i = 0; i < p->nf; i++)
		if (o.c[i].live)
			cl[nc++] = i;
	sort_o = &o;
	qsort(cl, nc, sizeof(*cl), m == KB_ORDER_C3 ? by_density : by_weight);
	for (size_t k = 0; k < nc; k++)
		for (size_t f = o.c[cl[k]].head; f != SIZE_MAX; f = o.next[f])
			out[n++] = f;
	free(cl);
	free(hot);
	orderer_release(&o);
	return n;
}

void kb_order_write(FILE *f, const struct kb_profile *p, const char *profile_path,
		    enum kb_order_method m, const size_t *order, size_t n)
{
	uint64_t bytes = 0, hot = 0, insn = 0, all = 0;

	for (size_t i = 0; i < n; i++) {
		bytes += p->f[order[i]].size;
		hot += p->f[order[i]].hot;
		insn += p->f[order[i]].insn;
	}
	for (size_t i = 0; i < p->nf; i++)
		all += p->f[i].insn;
	fprintf(f, "# kbench order: method %s, from profile %s\n", kb_order_method_name(m), profile_path);
	fprintf(f, "# profile: variant %s, cases %s, %zu boot%s of run %s\n", p->variant, p->cases,
		p->boots, p->boots == 1 ? "" : "s", p->run);
	fprintf(f, "# %zu functions (of %zu) that ran, %" PRIu64 " bytes, %" PRIu64 " of them run "
		"(hot bytes); %" PRIu64 " instructions executed (simulated)%s\n", n, p->nf, bytes, hot,
		insn, insn == all ? "" : ", not all of the profile's");
	if (m == KB_ORDER_C3)
		fprintf(f, "# c3: a cluster grows to %d bytes at most\n", KB_C3_MERGE_BYTES);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", p->f[order[i]].name);
}

/* ---- an order placed ---- */

static uint64_t align_of(uint64_t addr)
{
	uint64_t a = addr & (~addr + 1);	/* lowest set bit */

	return !a || a > KB_ORDER_ALIGN ? KB_ORDER_ALIGN : a;
}

int kb_order_placement(const char *order_path, const char *map_path, FILE *out, size_t *listed)
{
	struct kb_symmap *map = kb_symmap_load(map_path);
	struct kb_names idx = { 0 };
	struct kb_pool pool = { 0 };
	struct kb_order_file o = { 0 };
	size_t n, *seq = NULL, nseq = 0;
	uint8_t *placed = NULL, *named = NULL;
	uint64_t at = 0;
	int ret = -1;

	*listed = 0;
	if (!map)
		return -1;
	if (kb_order_file_read(order_path, &o) < 0)
		goto out;
	n = kb_symmap_count(map);
	for (size_t i = 0; i < n; i++) {
		uint64_t a, sz;

		kb_names_add(&idx, &pool, kb_symmap_at(map, i, &a, &sz));
	}
	seq = kb_xcalloc(n + 1, sizeof(*seq));
	placed = kb_xcalloc(n + 1, 1);			/* by symbol */
	named = kb_xcalloc(idx.n + 1, 1);		/* by name */
	for (size_t k = 0; k < o.n; k++) {
		const char *w = o.names[k];
		size_t i = kb_names_find(&idx, w);

		/* every symbol of the name, in the map's order */
		for (size_t j = 0; i < idx.n && j < n; j++) {
			uint64_t a, sz;

			if (!strcmp(kb_symmap_at(map, j, &a, &sz), w) && !kb_symmap_is_marker(map, j)) {
				placed[j] = 1;
				seq[nseq++] = j;
				named[i] = 1;
			}
		}
		if (i >= idx.n || !named[i]) {
			const char *near = kb_closest(w, idx.v, idx.n);

			kb_error("%s:%zu: '%s' is no function of '%s'%s%s%s", order_path, o.lines[k], w,
				 map_path, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			goto out;
		}
		(*listed)++;
	}
	for (size_t i = 0; i < n; i++)	/* then the others, in the map's order */
		if (!placed[i] && !kb_symmap_is_marker(map, i))
			seq[nseq++] = i;
	fprintf(out, "# the order %s placed over %s\nlayout order\n", order_path, map_path);
	for (size_t k = 0; k < nseq; k++) {
		uint64_t a, sz, al;

		kb_symmap_at(map, seq[k], &a, &sz);
		if (k == 0) {	/* from the first function's address */
			for (size_t i = 0; i < n; i++)
				if (!kb_symmap_is_marker(map, i)) {
					uint64_t s2;

					kb_symmap_at(map, i, &at, &s2);
					break;
				}
		}
		al = align_of(a);
		at = (at + al - 1) & ~(al - 1);
		fprintf(out, "0x%" PRIx64 " %" PRIu64 " 0x%" PRIx64 "\n", a, sz, at);
		at += sz;
	}
	ret = 0;
out:
	kb_order_file_release(&o);
	free(seq);
	free(placed);
	free(named);
	kb_names_release(&idx);
	kb_pool_release(&pool);
	kb_symmap_free(map);
	return ret;
}

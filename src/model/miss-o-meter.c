// SPDX-License-Identifier: GPL-2.0-or-later
/* The miss-o-meter (miss-o-meter.h): per-function instructions and L1i misses
 * per operation of two variants, from a sim run's sim.jsonl. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocks.h"
#include "bloat.h"
#include "mca.h"
#include "miss-o-meter.h"
#include "model.h"
#include "names.h"
#include "order.h"
#include "pool.h"
#include "rundir.h"
#include "store.h"
#include "util.h"

/* One function in one (variant, case): its sums over the matched lines. */
struct acc {
	uint32_t fn;			/* its name in m->keys' function part */
	const char *name;
	double insn, miss;
	double cyc;			/* modeled cycles */
};

/* One (variant, case): iterations and kernel totals over the matched
 * lines, and the functions that ran (key ids). */
struct cell {
	double iters, insn_k, miss_k;
	long long lines;
	double cyc_k, cyc_u;		/* modeled cycles of kernel and user blocks */
	long long priced;		/* lines whose region's blocks were read */
	uint32_t *keys;
	size_t n, cap;
};

/* samples.jsonl's iterations by (variant, boot, case, rep) */
struct iters {
	struct kb_names keys;
	long long *v;
	int *layout;
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
			it->layout = kb_xrealloc(it->layout, it->cap * sizeof(*it->layout));
			memset(it->layout + old, 0, (it->cap - old) * sizeof(*it->layout));
		}
		it->v[id] = json_integer_value(n);
		it->layout[id] = (int)json_integer_value(json_object_get(l, KB_RD_LAYOUT));
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

/* The blocks files behind the matched lines: per boot, its regions' cells. */
struct miss_region {
	uint64_t seq;
	uint32_t cell, v, c;
};

struct miss_boot {
	const char *variant;
	long vboot;
	int layout;
	struct miss_region *r;	/* sorted by seq once read */
	size_t n, cap;
};

static void add_region(struct kb_miss *m, uint32_t v, uint32_t c, json_t *l, int layout)
{
	json_t *vb = json_object_get(l, KB_RD_VBOOT), *seq = json_object_get(l, KB_RD_REGION);
	const char *variant = m->variants.v[v];
	char *k, *cellk;
	size_t before = m->boot_keys.n;
	uint32_t id, cid;
	struct miss_boot *b;

	if (!json_is_integer(vb) || !json_is_integer(seq) || json_integer_value(seq) <= 0)
		return;	/* its cycles stay unknown: the cell is not priced whole */
	k = kb_xasprintf("%s\t%lld", variant, (long long)json_integer_value(vb));
	id = kb_names_add(&m->boot_keys, &m->pool, k);
	free(k);
	if (m->boot_keys.n > before) {
		m->boots = kb_xrealloc(m->boots, m->boot_keys.n * sizeof(*m->boots));
		m->boots[id] = (struct miss_boot){ variant, (long)json_integer_value(vb), layout, NULL, 0, 0 };
	}
	b = &m->boots[id];
	m->nboots = m->boot_keys.n;
	if (b->n == b->cap)
		b->r = kb_xrealloc(b->r, (b->cap = b->cap ? 2 * b->cap : 64) * sizeof(*b->r));
	cellk = kb_xasprintf("%u\t%u", v, c);
	cid = (uint32_t)kb_names_find(&m->cell_keys, cellk);
	free(cellk);
	b->r[b->n++] = (struct miss_region){ (uint64_t)json_integer_value(seq), cid, v, c };
}

static struct acc *acc_of(struct kb_miss *m, struct cell *cl, const char *vc, const char *raw)
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
	free(name);
	free(k);
	return &m->acc[id];
}

static void add_function(struct kb_miss *m, struct cell *cl, const char *vc, const char *raw,
			 double insn, double miss)
{
	struct acc *a = acc_of(m, cl, vc, raw);

	a->insn += insn;
	a->miss += miss;
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
	add_region(m, v, c, l, x->it->layout[id]);
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

/* ---- modeled cycles, from the blocks files ---- */

/* [section] key's value in the run's copy of its configuration (malloc'd),
 * or NULL: a line "key = value" or "key: value" under "[section]". */
static char *conf_value(const char *run_dir, const char *section, const char *key)
{
	char *path = kb_xasprintf("%s/variants.conf", run_dir), *line = NULL, *val = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0, kl = strlen(key), sl = strlen(section);
	int in = 0;

	while (f && !val && getline(&line, &cap, f) > 0) {
		char *p = line + strspn(line, " \t");

		p[strcspn(p, "\n")] = '\0';	/* kb_rtrim leaves it */
		kb_rtrim(p);
		if (*p == '#' || *p == ';' || !*p)
			continue;
		if (*p == '[') {
			in = !strncmp(p + 1, section, sl) && p[1 + sl] == ']';
			continue;
		}
		if (in && !strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t' || p[kl] == '=' || p[kl] == ':')) {
			p += kl + strspn(p + kl, " \t");
			if (*p == '=' || *p == ':') {
				p++;
				p += strspn(p, " \t");
				val = *p ? kb_xstrdup(p) : NULL;
			}
		}
	}
	if (f)
		fclose(f);
	free(line);
	free(path);
	return val;
}

/* The build cache the run used: its [kernel] cache (relative: to the
 * configuration's directory, as the manifest records it), else NULL. */
static char *run_cache_dir(const char *run_dir)
{
	char *c = conf_value(run_dir, "kernel", "cache"), *path, *d = NULL;
	json_t *man;

	if (!c || c[0] == '/')
		return c;
	path = kb_xasprintf("%s/manifest.json", run_dir);
	man = json_load_file(path, 0, NULL);
	if (json_is_string(json_object_get(man, "config_dir")))
		d = kb_xasprintf("%s/%s", json_string_value(json_object_get(man, "config_dir")), c);
	json_decref(man);
	free(path);
	free(c);
	return d;
}

static int cmp_region(const void *a, const void *b)
{
	const struct miss_region *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const struct miss_region *region_of(const struct miss_boot *b, uint64_t seq)
{
	struct miss_region k = { .seq = seq };

	return b->n ? bsearch(&k, b->r, b->n, sizeof(*b->r), cmp_region) : NULL;
}

struct fill {
	struct kb_miss *m;
	const struct miss_boot *b;
	uint64_t seq;			/* the region of vc */
	char *vc;
};

static int fill_want(void *ctx, uint64_t seq)
{
	const struct fill *x = ctx;

	return region_of(x->b, seq) != NULL;
}

static void fill_unit(void *ctx, uint64_t seq, const struct kb_blocks_unit *u, uint64_t n)
{
	struct fill *x = ctx;
	const struct miss_region *r = region_of(x->b, seq);
	struct cell *cl = &x->m->cells[r->cell];
	double c = u->cycles * (double)n;
	struct acc *a;

	if (!strcmp(u->function, "[user]")) {
		cl->cyc_u += c;
		return;
	}
	if (!x->vc || x->seq != seq) {
		free(x->vc);
		x->vc = kb_xasprintf("%u\t%u", r->v, r->c);
		x->seq = seq;
	}
	cl->cyc_k += c;
	a = acc_of(x->m, cl, x->vc, u->function);
	a->cyc += c;
}

static void fill_end(void *ctx, uint64_t seq)
{
	struct fill *x = ctx;

	x->m->cells[region_of(x->b, seq)->cell].priced++;
}

static char *boot_file(const struct kb_miss *m, const struct miss_boot *b, const char *what)
{
	char *vdir, *p;

	if (!strcmp(what, "System.map")) {
		vdir = kb_store_variant_dir(b->variant, b->layout);
		p = kb_xasprintf("%s/%s/System.map", m->run_dir, vdir);
		free(vdir);
		return p;
	}
	return kb_xasprintf("%s/boots/%s-%ld.%s", m->run_dir, b->variant, b->vboot, what);
}

/* Each matched line's region, priced from its boot's blocks file: cells
 * and functions get their cycles.  What cannot be read is said in
 * m->cycles_why; a cell of which a line is missing has no cycles. */
static void read_cycles(struct kb_miss *m, const char *run_dir)
{
	char *cpu = m->cpu ? kb_xstrdup(m->cpu) : conf_value(run_dir, "run", "sim_cpu");
	char *cache = run_cache_dir(run_dir), *why = NULL, *arch = NULL;
	size_t read = 0;

	m->run_dir = kb_pool_strdup(&m->pool, run_dir);
	if (!m->nboots) {
		free(cpu);
		free(cache);
		return;
	}
	m->mca = kb_mca_new(cpu ? cpu : "skylake", cache, &why);
	if (!m->mca) {
		m->cycles_why = kb_pool_strdup(&m->pool, why);
		goto out;
	}
	arch = conf_value(run_dir, "kernel", "arch");	/* the guest's: its blocks' mode */
	if (arch && kb_mca_set_arch(m->mca, arch) < 0) {
		m->cycles_why = kb_pool_strdup(&m->pool, "the run's [kernel] arch is none llvm-mca prices");
		kb_mca_free(m->mca);
		m->mca = NULL;
		goto out;
	}
	for (size_t i = 0; i < m->nboots; i++) {
		struct miss_boot *b = &m->boots[i];
		char *blocks = boot_file(m, b, "blocks"), *mapf = boot_file(m, b, "System.map");
		struct fill x = { m, b, 0, NULL };
		struct kb_symmap *map = NULL;

		if (access(blocks, R_OK) != 0 || access(mapf, R_OK) != 0) {
			if (!why)
				why = kb_xasprintf("'%s' cannot be read: the cases of its samples have no modeled "
						   "cycles", access(blocks, R_OK) ? blocks : mapf);
		} else if (!(map = kb_symmap_load(mapf)) ||
			   kb_blocks_read(blocks, m->mca, map, fill_want, fill_unit, fill_end, &x, NULL) < 0) {
			if (!why)
				why = kb_xasprintf("'%s' cannot be read: the cases of its samples have no modeled "
						   "cycles", blocks);
		} else {
			read++;
		}
		kb_symmap_free(map);
		free(x.vc);
		free(blocks);
		free(mapf);
	}
	if (read)
		m->cycles_model = kb_pool_strdup(&m->pool, kb_mca_model(m->mca));
	if (why)
		m->cycles_why = kb_pool_strdup(&m->pool, why);
out:
	free(why);
	free(arch);
	free(cpu);
	free(cache);
}

struct each {
	struct kb_miss *m;
	const struct miss_boot *b;
	void (*fn)(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n);
	void *ctx;
};

static int each_want(void *ctx, uint64_t seq)
{
	const struct each *x = ctx;

	return region_of(x->b, seq) != NULL;
}

static void each_unit(void *ctx, uint64_t seq, const struct kb_blocks_unit *u, uint64_t n)
{
	const struct each *x = ctx;

	x->fn(x->ctx, x->m->cases.v[region_of(x->b, seq)->c], u, n);
}

/* b is a boot of variant, of layout replica layout (-1: any) */
static int boot_of(const struct miss_boot *b, const char *variant, int layout)
{
	return !strcmp(b->variant, variant) && (layout < 0 || b->layout == layout);
}

int kb_miss_each_unit(struct kb_miss *m, const char *variant,
		      void (*fn)(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n),
		      void *ctx)
{
	return m->mca ? kb_miss_each_block(m, variant, -1, fn, ctx) : 0;
}

int kb_miss_each_block(struct kb_miss *m, const char *variant, int layout,
		       void (*fn)(void *ctx, const char *cas, const struct kb_blocks_unit *u, uint64_t n),
		       void *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < m->nboots && ret == 0; i++) {
		struct miss_boot *b = &m->boots[i];
		char *blocks, *mapf;
		struct kb_symmap *map;
		struct each x = { m, b, fn, ctx };

		if (!boot_of(b, variant, layout))
			continue;
		blocks = boot_file(m, b, "blocks");
		mapf = boot_file(m, b, "System.map");
		map = kb_symmap_load(mapf);
		if (!map || kb_blocks_read(blocks, m->mca, map, each_want, each_unit, NULL, &x, NULL) < 0)
			ret = -1;
		kb_symmap_free(map);
		free(blocks);
		free(mapf);
	}
	return ret;
}

/* One boot's calls file: each c line of a region of its samples, its two
 * addresses named by the boot's System.map.  0, -ENOENT without the file,
 * or -1 after a message naming the file and line. */
static int read_calls(struct kb_miss *m, const struct miss_boot *b,
		      void (*fn)(void *ctx, const char *cas, const char *caller, const char *callee,
				 uint64_t n),
		      void *ctx)
{
	char *path = boot_file(m, b, "calls"), *mapf = boot_file(m, b, "System.map"), *line = NULL;
	struct kb_symmap *map = NULL;
	unsigned long long po = 0;
	size_t cap = 0, lineno = 0;
	FILE *f = fopen(path, "r");
	int ret = -1, ended = 0;

	if (!f) {
		ret = errno == ENOENT ? -ENOENT : kb_error_errno(errno, "cannot open '%s'", path);
		goto out;
	}
	if (!(map = kb_symmap_load(mapf)))
		goto out;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long seq, from, to, n;
		const struct miss_region *r;
		const char *p;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			p = strstr(line, " page_offset=");
			if (strncmp(line, "kbcalls 1 ", 10) || !p || sscanf(p, " page_offset=%llx", &po) != 1) {
				kb_error("'%s': not a calls file of the sim plugin (format 1)", path);
				goto out;
			}
		} else if (sscanf(line, "c %llu %llx %llx %llu", &seq, &from, &to, &n) == 4) {
			if ((r = region_of(b, seq)))
				fn(ctx, m->cases.v[r->c], kb_symmap_function(map, from, po),
				   kb_symmap_function(map, to, po), n);
		} else if (!strncmp(line, "end ", 4)) {
			ended = 1;
		} else if (strncmp(line, "r ", 2)) {
			kb_error("%s:%zu: not understood: '%.80s'", path, lineno, line);
			goto out;
		}
	}
	if (!ended)
		kb_warn("'%s' has no end line: its boot was cut short; its finished regions count", path);
	ret = 0;
out:
	if (f)
		fclose(f);
	kb_symmap_free(map);
	free(line);
	free(path);
	free(mapf);
	return ret;
}

int kb_miss_each_call(struct kb_miss *m, const char *variant, int layout,
		      void (*fn)(void *ctx, const char *cas, const char *caller, const char *callee,
				 uint64_t n),
		      void *ctx, size_t *boots, size_t *no_calls)
{
	*boots = *no_calls = 0;
	for (size_t i = 0; i < m->nboots; i++) {
		struct miss_boot *b = &m->boots[i];
		int r;

		if (!boot_of(b, variant, layout))
			continue;
		r = read_calls(m, b, fn, ctx);
		if (r == -ENOENT)
			(*no_calls)++;
		else if (r < 0)
			return -1;
		else
			(*boots)++;
	}
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

	m->run_dir = kb_pool_strdup(&m->pool, run_dir);
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
	for (size_t i = 0; r == 0 && i < m->nboots; i++)	/* by seq, for region_of */
		qsort(m->boots[i].r, m->boots[i].n, sizeof(*m->boots[i].r), cmp_region);
	if (r == 0 && !m->no_cycles)
		read_cycles(m, run_dir);
	kb_names_release(&it.keys);
	free(it.v);
	free(it.layout);
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
	for (size_t i = 0; i < m->nboots; i++)
		free(m->boots[i].r);
	free(m->boots);
	kb_names_release(&m->boot_keys);
	kb_mca_free(m->mca);
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
	if (x->d_cyc != y->d_cyc && !isnan(x->d_cyc) && !isnan(y->d_cyc))
		return x->d_cyc < y->d_cyc ? 1 : -1;
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
		/* modeled cycles only where every line of the cell was priced */
		int priced = m->cycles_model && cl[s]->priced == cl[s]->lines;

		out->ins_k[s] = cl[s]->insn_k / cl[s]->iters;
		out->miss_k[s] = cl[s]->miss_k / cl[s]->iters;
		out->samples[s] = cl[s]->lines;
		out->iters[s] = cl[s]->iters;
		out->cyc_k[s] = priced ? cl[s]->cyc_k / cl[s]->iters : NAN;
		out->cyc_u[s] = priced ? cl[s]->cyc_u / cl[s]->iters : NAN;
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
			r->cyc[s] = a->cyc / cl[s]->iters;
			out->attributed_ins[s] += r->ins[s];
		}
	}
	for (size_t i = 0; i < out->n; i++) {
		struct kb_miss_row *r = &out->rows[i];

		for (int s = 0; s < 2; s++)
			if (isnan(out->cyc_k[s]))
				r->cyc[s] = NAN;
		r->d_ins = r->ins[1] - r->ins[0];
		r->d_miss = r->miss[1] - r->miss[0];
		r->d_cyc = r->cyc[1] - r->cyc[0];
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
	return fabs(r->d_ins) > min || fabs(r->d_miss) > min || fabs(r->d_cyc) > min;
}

static void cyc_cell(FILE *f, double c, int sign)
{
	if (isnan(c))
		fprintf(f, " %10s", "-");
	else if (sign)
		fprintf(f, " %+10.1f", c);
	else
		fprintf(f, " %10.1f", c);
}

int kb_miss_order_names(const char *run_dir, const char *variant, struct kb_names *names, struct kb_pool *p)
{
	char *path = kb_xasprintf("%s/variants/%s/order", run_dir, variant);
	struct kb_order_file o;
	int r = 0;

	if (access(path, F_OK) == 0 && kb_order_file_read(path, &o) == 0) {
		for (size_t i = 0; i < o.n; i++) {
			char *b = kb_bloat_name(o.names[i]);

			if (kb_names_find(names, b) >= names->n)
				kb_names_add(names, p, b);
			free(b);
		}
		kb_order_file_release(&o);
		r = 1;
	}
	free(path);
	return r;
}

size_t kb_miss_mark_moved(struct kb_miss_case *c, const struct kb_names *names)
{
	size_t n = 0;

	for (size_t k = 0; k < c->n; k++)
		if (kb_names_find(names, c->rows[k].name) < names->n) {
			c->rows[k].moved = 1;
			n++;
		}
	return n;
}

static void print_row(FILE *f, const struct kb_miss_row *r)
{
	fprintf(f, "%-40s %10.1f %10.1f %+10.1f %9.2f %9.2f %+9.2f", r->name, r->ins[0], r->ins[1], r->d_ins,
		r->miss[0], r->miss[1], r->d_miss);
	cyc_cell(f, r->cyc[0], 0);
	cyc_cell(f, r->cyc[1], 0);
	cyc_cell(f, r->d_cyc, 1);
	size_cell(f, r->size[0]);
	size_cell(f, r->size[1]);
	if (r->size[0] >= 0 && r->size[1] >= 0)
		fprintf(f, " %+9lld", r->size[1] - r->size[0]);
	else
		fprintf(f, " %9s", "-");
	fprintf(f, "%s\n", r->moved ? " moved" : "");
}

void kb_miss_print(FILE *f, const struct kb_miss_case *c, const char *old, const char *new,
		   double min, size_t top, const char *cycles_model)
{
	size_t add = 0, rem = 0, grow = 0, shrink = 0, n_up = 0, n_down = 0, shown_down = 0, moved = 0;
	double up = 0, down = 0, moved_ins = 0, moved_miss = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct kb_miss_row *r = &c->rows[i];

		shown_down += shown(r, min) && r->d_ins <= 0;
		if (r->moved) {
			moved_ins += r->d_ins;
			moved_miss += r->d_miss;
		}
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
	if (!isnan(c->cyc_k[0]) && !isnan(c->cyc_k[1]))
		fprintf(f, "kernel cycles %.1f -> %.1f (%+.1f), modeled: block costs by %s, no cache misses "
			"or branch mispredictions (user blocks %.1f -> %.1f)\n", c->cyc_k[0], c->cyc_k[1],
			c->cyc_k[1] - c->cyc_k[0], cycles_model, c->cyc_u[0], c->cyc_u[1]);
	else
		fprintf(f, "kernel cycles: not modeled (%s)\n",
			cycles_model ? "blocks files of some samples missing" : "no block costs");
	if (fabs(c->attributed_ins[0] - c->ins_k[0]) < 0.05 && fabs(c->attributed_ins[1] - c->ins_k[1]) < 0.05)
		fprintf(f, "every kernel instruction attributed ([kernel]: outside System.map's functions)\n");
	else
		fprintf(f, "attributed to functions: %.1f -> %.1f instructions, not all of them\n",
			c->attributed_ins[0], c->attributed_ins[1]);
	fprintf(f, "add/remove: %zu/%zu grow/shrink: %zu/%zu up/down: %.1f/%.1f (%+.1f)\n", add, rem, grow,
		shrink, up, down, up + down);
	for (size_t i = 0; i < c->n; i++)
		moved += c->rows[i].moved != 0;
	if (moved)
		fprintf(f, "%zu of these functions moved by %s's order (the rows marked moved): together "
			"%+.1f instructions, %+.2f L1i misses\n", moved, new, moved_ins, moved_miss);
	fprintf(f, "%-40s %10s %10s %10s %9s %9s %9s %10s %10s %10s %9s %9s %9s\n", "Function", "ins old",
		"ins new", "delta", "miss old", "miss new", "delta", "cyc old", "cyc new", "delta", "size old",
		"size new", "delta");
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

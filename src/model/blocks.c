// SPDX-License-Identifier: GPL-2.0-or-later
/* A blocks file of the sim plugin, unit by unit, priced and mapped to the
 * kernel's functions (blocks.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "mca.h"
#include "util.h"

#define MAX_LAST_SYMBOL	(64u << 10)	/* the plugin's extent of the map's last symbol */

struct sym {
	uint64_t addr;
	int rank;	/* which alias names an address: 0 best */
	size_t order;
	char *name;
};

struct kb_symmap {
	struct sym *s;	/* sorted, one per address */
	size_t n;
};

/* The linker's section and range markers. */
static int is_marker(const char *s)
{
	static const char *const labels[] = { "_text", "_stext", "_etext", "_sinittext",
					      "_einittext", "_start_text", "_end" };

	for (size_t i = 0; i < KB_ARRAY_SIZE(labels); i++)
		if (!strcmp(s, labels[i]))
			return 1;
	return !strncmp(s, "__begin_", 8) || !strncmp(s, "__end_", 6);
}

/* The plugin's is_label (plugin/kbench-sim.c): the markers and any name
 * ending in _start or _end, the worst name of an address. */
static int is_label(const char *s)
{
	size_t n = strlen(s);

	return is_marker(s) || (n > 6 && !strcmp(s + n - 6, "_start")) || (n > 4 && !strcmp(s + n - 4, "_end"));
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct kb_symmap *kb_symmap_load(const char *path)
{
	FILE *f = fopen(path, "r");
	struct kb_symmap *m;
	char line[512];
	size_t cap = 0, k = 0;

	if (!f) {
		kb_error_errno(errno, "cannot open the symbol map '%s'", path);
		return NULL;
	}
	m = kb_xcalloc(1, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		char type, name[256];
		unsigned long long addr;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    (type != 'T' && type != 't' && type != 'W' && type != 'w'))
			continue;
		if (m->n == cap)
			m->s = kb_xrealloc(m->s, (cap = cap ? 2 * cap : 4096) * sizeof(*m->s));
		m->s[m->n] = (struct sym){ addr, is_label(name) ? 2 : type == 'T' ? 0 : 1, m->n,
					   kb_xstrdup(name) };
		m->n++;
	}
	fclose(f);
	if (m->n)
		qsort(m->s, m->n, sizeof(*m->s), sym_cmp);
	for (size_t i = 0; i < m->n; i++) {	/* an address's best name only */
		if (k && m->s[k - 1].addr == m->s[i].addr) {
			free(m->s[i].name);
			continue;
		}
		m->s[k++] = m->s[i];
	}
	m->n = k;
	return m;
}

void kb_symmap_free(struct kb_symmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->s[i].name);
	free(m->s);
	free(m);
}

const char *kb_symmap_function(const struct kb_symmap *m, uint64_t va, uint64_t page_offset)
{
	int kern = va >= page_offset;
	const char *outside = kern ? "[kernel]" : "[user]";
	size_t lo = 0, hi = m->n;

	if (!m->n || va < m->s[0].addr)
		return outside;
	while (hi - lo > 1) {	/* the last symbol at or below va */
		size_t mid = lo + (hi - lo) / 2;

		if (m->s[mid].addr <= va)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == m->n - 1 && va - m->s[lo].addr >= MAX_LAST_SYMBOL)
		return outside;
	if ((m->s[lo].addr >= page_offset) != kern)
		return outside;
	return m->s[lo].name;
}

size_t kb_symmap_count(const struct kb_symmap *m)
{
	return m->n;
}

const char *kb_symmap_at(const struct kb_symmap *m, size_t i, uint64_t *addr, uint64_t *size)
{
	*addr = m->s[i].addr;
	*size = i + 1 < m->n ? m->s[i + 1].addr - m->s[i].addr : MAX_LAST_SYMBOL;
	return m->s[i].name;
}

int kb_symmap_is_label(const struct kb_symmap *m, size_t i)
{
	return m->s[i].rank == 2;
}

int kb_symmap_is_marker(const struct kb_symmap *m, size_t i)
{
	return m->s[i].rank == 2 && is_marker(m->s[i].name);
}

/* ---- the blocks file ---- */

struct xline {
	uint32_t id;
	uint64_t n;
};

int kb_blocks_read(const char *path, struct kb_mca *mca, const struct kb_symmap *map,
		   int (*want)(void *ctx, uint64_t seq),
		   void (*fn)(void *ctx, uint64_t seq, const struct kb_blocks_unit *u, uint64_t n),
		   void (*end)(void *ctx, uint64_t seq), void *ctx, uint64_t *page_offset)
{
	FILE *f = fopen(path, "r");
	struct kb_blocks_unit *u = NULL;
	struct xline *x = NULL;
	struct { uint64_t seq; size_t from, to; } *r = NULL;
	size_t nu = 0, cu = 0, nx = 0, cx = 0, nr = 0, cr = 0, from = 0, lineno = 0, cap = 0;
	unsigned long long po = 0;
	unsigned char *used = NULL;
	char *line = NULL;
	int ret = -1;

	if (!f) {
		kb_error_errno(errno, "cannot open the blocks file '%s'", path);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned long long a, c, d;
		unsigned k, uu;
		int off = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			const char *p = strstr(line, " page_offset=");

			if (strncmp(line, "kbblocks 1 ", 11) || !p || sscanf(p, " page_offset=%llx", &po) != 1) {
				kb_error("'%s': not a blocks file of the sim plugin (format 1)", path);
				goto out;
			}
			continue;
		}
		if (sscanf(line, "b %llu %llx %u %u %n", &a, &c, &k, &uu, &off) == 4 && off > 0) {
			if (a != nu + 1 || !line[off] ||
			    strspn(line + off, "0123456789abcdef") != strlen(line + off))
				goto bad;
			if (nu == cu)
				u = kb_xrealloc(u, (cu = cu ? 2 * cu : 4096) * sizeof(*u));
			u[nu] = (struct kb_blocks_unit){ (uint32_t)a, c, k, uu, kb_xstrdup(line + off), 0, NAN,
							 0, 0, NULL };
			nu++;
		} else if (sscanf(line, "x %llu %llu %llu", &a, &c, &d) == 3) {
			if (!c || c > nu)
				goto bad;
			if (nx == cx)
				x = kb_xrealloc(x, (cx = cx ? 2 * cx : 4096) * sizeof(*x));
			x[nx++] = (struct xline){ (uint32_t)c, d };
			u[c - 1].execs += d;	/* every region's: which blocks are rare */
		} else if (sscanf(line, "r %llu %llx", &a, &c) == 2) {
			/* the region's x lines are those since the last r line */
			if (!want || want(ctx, a)) {
				if (nr == cr)
					r = kb_xrealloc(r, (cr = cr ? 2 * cr : 64) * sizeof(*r));
				r[nr].seq = a;
				r[nr].from = from;
				r[nr++].to = nx;
				from = nx;
			} else {
				nx = from;	/* not wanted: forgotten */
			}
		} else if (strncmp(line, "end ", 4)) {
			goto bad;
		}
	}
	if (page_offset)
		*page_offset = po;
	/* the units that count, priced and mapped once */
	used = kb_xcalloc(nu + 1, 1);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = r[i].from; j < r[i].to; j++)
			used[x[j].id - 1] = 1;
	if (mca) {
		struct kb_mca_block *b = kb_xcalloc(nu + 1, sizeof(*b));
		size_t *of = kb_xcalloc(nu + 1, sizeof(*of)), nb = 0;

		for (size_t i = 0; i < nu; i++)
			if (used[i]) {
				b[nb].hex = u[i].hex;
				b[nb].insns = u[i].insn_k + u[i].insn_u;
				b[nb].execs = u[i].execs;
				of[nb++] = i;
			}
		if (kb_mca_price(mca, b, nb) < 0) {
			free(b);
			free(of);
			kb_error("cannot price the blocks of '%s'", path);
			goto out;
		}
		for (size_t i = 0; i < nb; i++) {
			u[of[i]].cycles = b[i].cycles;
			u[of[i]].unpriced = b[i].unpriced;
			u[of[i]].rare = b[i].rare;
		}
		free(b);
		free(of);
	}
	for (size_t i = 0; map && i < nu; i++)
		if (used[i])
			u[i].function = kb_symmap_function(map, u[i].va, po);
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = r[i].from; j < r[i].to; j++)
			fn(ctx, r[i].seq, &u[x[j].id - 1], x[j].n);
		if (end)
			end(ctx, r[i].seq);
	}
	ret = 0;
	goto out;
bad:
	kb_error("%s:%zu: not understood: '%.80s'", path, lineno, line);
out:
	for (size_t i = 0; i < nu; i++)
		free((char *)u[i].hex);
	free(u);
	free(x);
	free(r);
	free(used);
	free(line);
	fclose(f);
	return ret;
}
